// The baseline the benchmarks compare against: Hono on @hono/node-server with nothing in
// front of the handler. Whatever the real server costs above this is ours (middleware, auth,
// database), not the HTTP stack's or the load generator's.
import { randomUUID } from 'node:crypto'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const port = Number.parseInt(process.env.PORT ?? '', 10)
if (!Number.isInteger(port) || port < 1 || port > 65535) {
	console.error('bare-hono.server.ts: set PORT to the port to listen on')
	process.exit(1)
}

const app = new Hono()
// Same path as the endpoint under test, so both runs send byte-identical requests.
app.get('/auth/validate_token', (c) => c.json({ success: true }))
// The form endpoints' paths, reading and parsing the JSON body as the real ones must, and
// answering with a body the size of theirs: what is left of the real cost is ours.
app.post('/api/submissions', async (c) => {
	await c.req.json()
	return c.json(
		{ id: randomUUID(), duplicate: false, confirmationMessage: 'Thank you! Your answer has been recorded.' },
		201,
	)
})
app.post('/api/views', async (c) => {
	const beacon = await c.req.json<{ events?: unknown[] }>()
	return c.json({ accepted: beacon.events?.length ?? 0 }, 202)
})
// Polled by the benchmarks until the server listens, as the real server's /readyz is.
app.get('/readyz', (c) => c.text('ok'))

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' })

const shutdown = () => server.close(() => process.exit(0))
process.once('SIGTERM', shutdown)
process.once('SIGINT', shutdown)
