import http from 'node:http'
import { performance } from 'node:perf_hooks'
import { Hono, type MiddlewareHandler } from 'hono'
import { requestIdFrom } from './context.ts'
import { hasInvalidText } from './invalid-text.ts'
import type { Logger } from './logger.ts'

// A few public endpoints are called far more often than the others and touch no database on
// their way: the form view beacon is sent on every page load of every published form. Through
// Hono, its request id, logger, security headers, body limit, text check and contract validator
// cost twice the socket's own work. A fast route answers such a request before Hono, but only
// when it is exactly the request the declared route would accept (the same JSON body checks,
// the same contract schema, the same answer and headers); anything else (a bad body, a wrong
// content type, a chunked body, a query string) goes to the app, which answers it as declared:
// its errors, limits and OpenAPI entry stay the only ones. Decision 041.

/** A POST answered before the app when `answer` accepts its JSON body. */
export type FastRoute = {
	path: string
	/**
	 * The answer to a body the route accepts, or null to leave the request to the app. It may throw
	 * only before it has done anything: the app then takes the request from the start.
	 */
	answer: (body: unknown) => { status: number; body: unknown } | null
}

type RequestListener = (request: http.IncomingMessage, response: http.ServerResponse) => void

type FastRouteOptions = {
	routes: FastRoute[]
	/** The app's body limit for these paths: a larger declared body is left to the app's 413. */
	maxBodyBytes: number
	/** The headers the app puts on every API answer (security headers); see `headersOf`. */
	headers: Record<string, string>
	log: Logger
}

/** The JSON media type as browsers and clients send it; other spellings go to the app's validator. */
const jsonContentType = /^application\/json\s*(;\s*charset=utf-8\s*)?$/i

/**
 * A `createServer` for @hono/node-server's `serve`: the app's own request listener, with the fast
 * routes answered in front of it.
 */
export function withFastRoutes(options: FastRouteOptions): typeof http.createServer {
	const routes = new Map(options.routes.map((route) => [route.path, route]))
	const create = (serverOptions: http.ServerOptions, appListener: RequestListener) =>
		http.createServer(serverOptions, (request, response) => {
			const route = request.method === 'POST' && request.url !== undefined ? routes.get(request.url) : undefined
			const declared = request.headers['content-length']
			if (
				!route ||
				declared === undefined ||
				request.headers['transfer-encoding'] !== undefined ||
				Number(declared) > options.maxBodyBytes ||
				!jsonContentType.test(request.headers['content-type'] ?? '')
			) {
				appListener(request, response)
				return
			}
			answerFast(route, request, response, appListener, options)
		})
	// `serve` calls it as `createServer(serverOptions, requestListener)`, the one form needed here.
	return create as typeof http.createServer
}

function answerFast(
	route: FastRoute,
	request: http.IncomingMessage,
	response: http.ServerResponse,
	appListener: RequestListener,
	options: FastRouteOptions,
): void {
	const started = performance.now()
	const chunks: Buffer[] = []
	request.on('data', (chunk: Buffer) => chunks.push(chunk))
	request.on('end', () => {
		const raw = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
		const answer = answerOf(route, raw)
		if (!answer) {
			// The app reads the body kept here (@hono/node-server takes `rawBody` as the request's body).
			;(request as http.IncomingMessage & { rawBody: Buffer }).rawBody = raw
			appListener(request, response)
			return
		}
		const id = requestIdFrom(request.headers['x-request-id'])
		const body = JSON.stringify(answer.body)
		response.writeHead(answer.status, {
			...options.headers,
			'content-type': 'application/json',
			'content-length': Buffer.byteLength(body),
			'x-request-id': id,
		})
		response.end(body)
		if (options.log.isLevelEnabled('info')) {
			options.log.info(
				{
					reqId: id,
					method: 'POST',
					path: route.path,
					status: answer.status,
					ms: Math.round(performance.now() - started),
				},
				'request',
			)
		}
	})
}

/** The route's answer, or null when the body is not one the declared route would accept as it is. */
function answerOf(route: FastRoute, raw: Buffer): { status: number; body: unknown } | null {
	let body: unknown
	try {
		body = JSON.parse(raw.toString('utf8'))
	} catch {
		return null
	}
	if (hasInvalidText(body)) {
		return null
	}
	try {
		return route.answer(body)
	} catch {
		// The app answers it again, with its own error handling and log line.
		return null
	}
}

/**
 * The headers a middleware sets on an answer, read once by running it in front of an empty one:
 * the fast routes send exactly what the app's API header middleware sends.
 */
export async function headersOf(middleware: MiddlewareHandler): Promise<Record<string, string>> {
	const probe = new Hono().use(middleware).post('/', (c) => c.body(null, 204))
	const answer = await probe.request('/', { method: 'POST' })
	return Object.fromEntries(answer.headers)
}
