import type { Context, Hono } from 'hono'
import { authError, invalidRequest, resourceMissing, StripeApiError } from './errors.ts'
import { isRecord, newId, Params, parseForm } from './params.ts'
import type { FakeStripeStore } from './store.ts'

/**
 * The HTTP plumbing every `/v1` route shares: Bearer auth, Stripe's error bodies, form parsing, idempotency
 * keys (a repeated key answers the first response; reused with other parameters it is an `idempotency_error`),
 * `expand[]`, and list pagination.
 */

export type Env = { Variables: { params: Params; requestId: string; idempotencyKey: string | null } }

type Stored = { fingerprint: string; status: number; body: string }

export type HttpDeps = {
	apiKey: string
	store: FakeStripeStore
	/** Runs what the clock made due; called before every request. */
	catchUp: () => void
	/** Marks the events a handler records as caused by this request. */
	setRequest: (request: { id: string; idempotency_key: string | null } | null) => void
}

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
	return new Response(JSON.stringify(body, null, 2), {
		status,
		headers: { 'content-type': 'application/json', ...headers },
	})
}

function errorResponse(error: unknown, requestId?: string): Response {
	const failure =
		error instanceof StripeApiError
			? error
			: new StripeApiError(500, `The fake Stripe failed: ${error instanceof Error ? error.stack : String(error)}`, {
					type: 'api_error',
				})
	return json(failure.body(), failure.status, requestId ? { 'request-id': requestId } : {})
}

function authorized(header: string | undefined, apiKey: string): boolean {
	if (!header) {
		return false
	}
	if (/^Bearer\s+/i.test(header)) {
		return header.replace(/^Bearer\s+/i, '') === apiKey
	}
	if (/^Basic\s+/i.test(header)) {
		const decoded = Buffer.from(header.replace(/^Basic\s+/i, ''), 'base64').toString('utf8')
		return decoded.split(':')[0] === apiKey
	}
	return false
}

export function installPlumbing(app: Hono<Env>, deps: HttpDeps): void {
	const idempotent = new Map<string, Stored>()
	/** Keys whose first request is still running: a second one gets Stripe's 409 `idempotency_key_in_use`. */
	const inFlight = new Set<string>()

	app.onError((error, c) => errorResponse(error, c.get('requestId')))

	app.notFound((c) => {
		const url = new URL(c.req.url)
		return errorResponse(
			new StripeApiError(
				404,
				`Unrecognized request URL (${c.req.method}: ${url.pathname}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
			),
			c.get('requestId'),
		)
	})

	app.use('/v1/*', async (c, next) => {
		const requestId = newId('req')
		c.set('requestId', requestId)
		const header = c.req.header('authorization')
		if (!authorized(header, deps.apiKey)) {
			return errorResponse(authError(header), requestId)
		}
		deps.catchUp()
		const url = new URL(c.req.url)
		const method = c.req.method
		const body = method === 'POST' ? await c.req.text() : ''
		const text = method === 'GET' || method === 'DELETE' ? url.search.replace(/^\?/, '') : body
		c.set('params', new Params(parseForm(text)))
		const key = method === 'POST' ? (c.req.header('idempotency-key') ?? null) : null
		c.set('idempotencyKey', key)
		const version = c.req.header('stripe-version')
		const common: Record<string, string> = {
			'request-id': requestId,
			...(version ? { 'stripe-version': version } : {}),
		}
		const fingerprint = `${method} ${url.pathname} ${body}`
		if (key) {
			const stored = idempotent.get(key)
			if (stored && stored.fingerprint !== fingerprint) {
				return json(
					new StripeApiError(
						400,
						`Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
						{ type: 'idempotency_error' },
					).body(),
					400,
					common,
				)
			}
			if (stored) {
				return new Response(stored.body, {
					status: stored.status,
					headers: {
						'content-type': 'application/json',
						'idempotent-replayed': 'true',
						'idempotency-key': key,
						...common,
					},
				})
			}
			if (inFlight.has(key)) {
				const message = `There is currently another in-progress request using this Idempotent Key (that probably means you submitted twice, and the other request is still going through): ${key}. Please try again later.`
				return json(new StripeApiError(409, message, { code: 'idempotency_key_in_use' }).body(), 409, common)
			}
			inFlight.add(key)
		}
		deps.setRequest({ id: requestId, idempotency_key: key })
		try {
			await next()
		} catch (error) {
			c.res = errorResponse(error, requestId)
		} finally {
			deps.setRequest(null)
		}
		for (const [name, value] of Object.entries(common)) {
			c.res.headers.set(name, value)
		}
		if (key) {
			// Stripe saves the result once the endpoint ran: successes and declines, not refused parameters.
			if (c.res.ok || c.res.status === 402) {
				idempotent.set(key, { fingerprint, status: c.res.status, body: await c.res.clone().text() })
				c.res.headers.set('idempotency-key', key)
			}
			inFlight.delete(key)
		}
	})
}

export function params(c: Context<Env>): Params {
	return c.get('params')
}

/** The object as JSON, with `expand[]` paths replaced by the objects their ids name. */
export function respond(
	c: Context<Env>,
	object: unknown,
	store: FakeStripeStore,
	expand = params(c).expand(),
): Response {
	const copy = JSON.parse(JSON.stringify(object)) as unknown
	for (const path of expand) {
		if (path.split('.').length > 4) {
			throw invalidRequest(`You cannot expand more than 4 levels of a property. Property: ${path}`, 'expand')
		}
		expandPath(copy, path.split('.'), path, store)
	}
	return json(copy)
}

function expandPath(target: unknown, segments: string[], path: string, store: FakeStripeStore): void {
	if (Array.isArray(target)) {
		for (const entry of target) {
			expandPath(entry, segments, path, store)
		}
		return
	}
	const [head, ...rest] = segments
	if (!isRecord(target) || head === undefined || !Object.hasOwn(target, head)) {
		throw invalidRequest(`This property cannot be expanded (${path}).`, 'expand')
	}
	let value = target[head]
	if (typeof value === 'string') {
		const found = store.find(value)
		if (!found) {
			throw invalidRequest(`This property cannot be expanded (${path}).`, 'expand')
		}
		value = JSON.parse(JSON.stringify(found)) as unknown
		target[head] = value
	} else if (rest.length === 0 && value !== null && !(isRecord(value) && typeof value.id === 'string')) {
		throw invalidRequest(`This property cannot be expanded (${path}).`, 'expand')
	}
	if (rest.length > 0 && value !== null) {
		expandPath(value, rest, path, store)
	}
}

/** A list page, newest first, with `limit` (1–100, default 10), `starting_after` and `ending_before`. */
export function page<T extends { id: string }>(
	items: T[],
	query: Params,
	url: string,
	kind: string,
): { object: 'list'; data: T[]; has_more: boolean; url: string } {
	const limit = query.int('limit') ?? 10
	if (limit < 1 || limit > 100) {
		throw invalidRequest('Invalid limit: must be between 1 and 100.', 'limit')
	}
	const after = query.string('starting_after')
	const before = query.string('ending_before')
	const indexOf = (id: string, param: string) => {
		const index = items.findIndex((item) => item.id === id)
		if (index === -1) {
			throw resourceMissing(kind, id, param)
		}
		return index
	}
	if (before) {
		const end = indexOf(before, 'ending_before')
		const start = Math.max(0, end - limit)
		return { object: 'list', data: items.slice(start, end), has_more: start > 0, url }
	}
	const start = after ? indexOf(after, 'starting_after') + 1 : 0
	return { object: 'list', data: items.slice(start, start + limit), has_more: start + limit < items.length, url }
}

/** Newest first, as Stripe lists; the insertion order breaks ties within a second. */
export function newestFirst<T extends { created: number }>(items: Iterable<T>): T[] {
	return [...items]
		.map((item, index) => ({ item, index }))
		.sort((a, b) => b.item.created - a.item.created || b.index - a.index)
		.map(({ item }) => item)
}
