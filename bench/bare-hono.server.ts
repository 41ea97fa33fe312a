// The baseline the benchmarks compare against: Hono on @hono/node-server with nothing in
// front of the handler. Whatever the real server costs above this is ours (middleware, auth,
// database), not the HTTP stack's or the load generator's.
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

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' })

const shutdown = () => server.close(() => process.exit(0))
process.once('SIGTERM', shutdown)
process.once('SIGINT', shutdown)
