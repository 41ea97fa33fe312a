import { once } from 'node:events'
import { createServer } from 'node:http'

/** The global the stub script sets, so a journey can tell the script not only was added but ran. */
export const analyticsLoadedFlag = '__analyticsLoaded'

const script = `window.${analyticsLoadedFlag} = true\n`

/**
 * A stand-in for the operator's page-view analytics (Plausible, Umami, …): a static script on
 * another origin, as in production. The server puts that origin into its CSP, so the journeys
 * see the real thing: the script is added on allowed paths, passes the CSP and runs.
 */
export async function startAnalyticsStub(): Promise<{ url: string; close: () => Promise<void> }> {
	const server = createServer((request, response) => {
		if (request.method === 'GET' && request.url === '/analytics.js') {
			response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' })
			response.end(script)
			return
		}
		response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
		response.end('Not found')
	})
	server.listen(0, '127.0.0.1')
	await once(server, 'listening')
	const address = server.address()
	if (address === null || typeof address === 'string') {
		throw new Error('the analytics stub has no port')
	}
	return {
		url: `http://127.0.0.1:${address.port}/analytics.js`,
		close: async () => {
			const closed = once(server, 'close')
			server.close()
			// Browsers keep connections open; without this, close() would wait for them to time out.
			server.closeAllConnections()
			await closed
		},
	}
}
