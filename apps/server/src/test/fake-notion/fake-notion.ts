/**
 * A fake of the Notion public API (version 2025-09-03, data sources) that `@notionhq/client` v5 talks to through
 * `new Client({ auth: fake.token, baseUrl: fake.url })`. In-memory, one workspace, one integration bot.
 *
 * ```ts
 * const fake = await createFakeNotion({ queryResultLimit: 250 })
 * const demo = fake.seed()                       // Clients, Projects, Time entries, Invoices
 * const notion = new Client({ auth: fake.token, baseUrl: fake.url, retry: false })
 * await fake.close()
 * ```
 *
 * Options (`FakeNotionOptions`, all optional): `port` (0 = free port), `host` (127.0.0.1), `token` (the internal
 * integration token), `oauth` ({ clientId, clientSecret, redirectUris?, requireApproval?, ownerUserId? }),
 * `queryResultLimit` (10,000: rows one query returns in total before `request_status` says incomplete),
 * `now` (a clock to use instead of the controllable one), `timestampPrecisionMs` (60,000: created and edited times
 * are whole minutes, as Notion's are; a smaller value only for a test that must tell apart writes of one minute),
 * `maxFileUploadBytes` (the workspace's upload limit in `users/me` `bot.workspace_limits`, enforced on send; 5 MiB,
 * Notion's free plan), `workspace` ({ id, name, icon }), `seed` (seed the demo workspace at start).
 *
 * Endpoints under /v1 (Bearer token and Notion-Version required): search; databases/:id; data_sources/:id and
 * data_sources/:id/query; pages (create), pages/:id (get, patch), pages/:id/properties/:property_id; blocks/:id and
 * blocks/:id/children (page content, read only, set with `setPageContent`); users,
 * users/me, users/:id; file_uploads (create, list, get, :id/send); oauth/authorize (GET: approves at once with a
 * 302, or shows an "Allow access" form with `requireApproval` or to a browser signed in through
 * `GET /__sign-in?email=…&name=…`, whose person then owns the grant), oauth/token (Basic client auth;
 * authorization_code and refresh_token), oauth/revoke, oauth/introspect. Uploaded files are served at
 * /__files/:id/:name through signed URLs that expire an hour after the read that gave them (then 403, as S3
 * answers). Behaviour worth knowing:
 * - Query without `sorts` returns `created_time` descending; ties always fall back to insertion order.
 * - `in_trash: true` on a query returns only trashed rows; otherwise trashed rows are left out.
 * - Cursors point into a snapshot taken by the first page, so rows written mid-walk show up in the next walk.
 * - A query that matches more rows than `queryResultLimit` says `request_status: incomplete` on every page.
 * - Relation and people values in page objects stop at 25 with `has_more: true`, and rollups in page objects are
 *   computed from the first 25 relations only (silently, as Notion does); the property item endpoint pages through
 *   all of them. For a rollup it gives, in `results`, the rolled-up values as property items ("show original",
 *   "show unique") or the relation's items (calculated rollups, whose `property_item.rollup` is `incomplete` until
 *   the last page, which carries the value over every relation).
 * - Rich text mentions (user, page, database, date, template_mention, and link_preview for seeding) come back with
 *   `mention.type`, the `plain_text` Notion shows and its `href`.
 * - Errors carry only Notion's own codes (`notionErrorCodes`); an injected 502 is the proxy's HTML page.
 * - Dual relations are mirrored onto the related pages, which also get a new `last_edited_time`.
 *
 * Controls (methods on the returned object; each is also `POST /__control/<name>` with a JSON array of arguments,
 * so a fake started with `npm run fake-notion` can be driven from another process, see `controlFakeNotion`):
 * - faults: `setRateLimit({ requestsPerSecond, burst?, retryAfterSeconds? } | null)` (429 `rate_limited` with
 *   Retry-After), `failNext(n, { status, code?, message? })`, `setOutage(on, status = 503 | 529)`,
 *   `setPageCreateOutage(dataSourceId, on)` (503 on creating pages in one data source only),
 *   `setPageWriteOutage(dataSourceId, on)` (503 on creating or updating pages in one data source only),
 *   `delayNext(n, ms)`, `setLatency(ms)`, `dropResponseNext(n, { mode: 'reset' | 502 })` (the request is applied,
 *   then the socket is destroyed or a 502 HTML page answers), `clearFaults()`.
 * - log: `requests()` → `{ method, path, route, status, at, requestId, fault? }[]`, `requestCount(method?, route?)`,
 *   `resetRequests()`. `route` is the pattern, e.g. `POST /v1/data_sources/:id/query`.
 * - clock: `now()`, `setClock(time)` (freezes it), `advanceClock(ms)`, `useRealClock()`.
 * - content: `seed()`, `setPageContent`, `addUser`, `addDataSource`, `addPage`, `addPages(dataSourceId, n, …)`, `editPage`,
 *   `trashPage`, `restorePage`, `deletePage`, `getPage`, `setQueryResultLimit`, `setMaxFileUploadBytes`, `issueToken`.
 * - `signWebhook(body, verificationToken)` gives the `X-Notion-Signature` header value for a webhook body.
 */
import { randomUUID } from 'node:crypto'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdaptorServer, type HttpBindings } from '@hono/node-server'
import { signWebhookPayload } from '@notionhq/client'
import type { Context } from 'hono'
import { Hono } from 'hono'
import { getCookie, setCookie } from 'hono/cookie'
import { type BlockInput, FakeBlockStore, seedPageContent } from './blocks.ts'
import {
	codeForStatus,
	errorBody,
	isNotionErrorCode,
	NotionApiError,
	notFound,
	notionErrorCodes,
	validationError,
} from './errors.ts'
import { CursorBook, compileFilter, compileSorts } from './query.ts'
import { isRecord, type JsonObject } from './rich-text.ts'
import { type DemoWorkspace, seedDemoWorkspace } from './seed.ts'
import {
	FakeNotionStore,
	type FakePage,
	type FakeUser,
	iso,
	type PropertyDefinition,
	type SchemaProperty,
	safeDecode,
} from './store.ts'

export type FakeNotionOptions = {
	port?: number
	host?: string
	token?: string
	oauth?: {
		clientId?: string
		clientSecret?: string
		/** When set, authorize and token requests must use one of these. */
		redirectUris?: string[]
		/** Show an "Allow access" page instead of redirecting at once. */
		requireApproval?: boolean
		/** The person who installs the connection; defaults to the first person user. */
		ownerUserId?: string
	}
	queryResultLimit?: number
	maxFileUploadBytes?: number
	now?: () => number
	timestampPrecisionMs?: number
	workspace?: { id?: string; name?: string; icon?: string | null }
	seed?: boolean
}

export type RateLimit = { requestsPerSecond: number; burst?: number; retryAfterSeconds?: number }
/**
 * An injected failure; `code` (default: the status's own) must be one Notion answers with, see `notionErrorCodes`:
 * checked when it is injected, since controls also arrive as JSON over HTTP.
 */
export type FailureSpec = { status: number; code?: string; message?: string }
export type DropMode = 'reset' | 502

export type RequestLogEntry = {
	method: string
	path: string
	/** Method and path pattern, e.g. `PATCH /v1/pages/:id`. */
	route: string
	status: number
	at: string
	requestId: string
	fault?: 'outage' | 'rate_limited' | 'injected' | 'dropped'
}

type Identity = { token: string; kind: 'internal' | 'oauth' }
type OAuthCode = { code: string; redirectUri: string | null; ownerUserId: string }
type Env = { Bindings: HttpBindings; Variables: { identity: Identity; requestId: string } }

const DEFAULT_TOKEN = 'ntn_fake_internal_integration_token'
/** What one `single_part` upload may carry, whatever the plan. */
const SINGLE_PART_BYTES = 20 * 1024 * 1024
/** Notion's free plan: the smallest `workspace_limits.max_file_upload_size_in_bytes` a workspace has. */
const FREE_PLAN_UPLOAD_BYTES = 5 * 1024 * 1024
const KNOWN_SEGMENTS = new Set([
	'me',
	'query',
	'send',
	'complete',
	'properties',
	'token',
	'authorize',
	'revoke',
	'introspect',
])
const COLLECTIONS = new Set([
	'pages',
	'databases',
	'data_sources',
	'users',
	'file_uploads',
	'properties',
	'blocks',
	'__files',
])

/** `/v1/pages/59…/properties/%3AUPp` → `/v1/pages/:id/properties/:id`. */
function routePattern(path: string): string {
	const segments = path.split('/')
	return segments
		.map((segment, index) => {
			const previous = segments[index - 1] ?? ''
			return COLLECTIONS.has(previous) && !KNOWN_SEGMENTS.has(segment) ? ':id' : segment
		})
		.join('/')
}

function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
	return new Response(JSON.stringify(body), {
		status,
		headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
	})
}

/** What the proxy in front of Notion answers when Notion does not: an HTML page, not a Notion error. */
function gatewayPage(): Response {
	return new Response('<html><head><title>502 Bad Gateway</title></head><body>502 Bad Gateway</body></html>', {
		status: 502,
		headers: { 'content-type': 'text/html' },
	})
}

/** How the file store behind Notion's hosted URLs refuses a request: S3's XML error. */
function s3Error(code: string, message: string): Response {
	return new Response(
		`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
		{
			status: 403,
			headers: { 'content-type': 'application/xml' },
		},
	)
}

function escapeHtml(value: string): string {
	return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

async function readJson(c: Context<Env>): Promise<JsonObject> {
	const text = await c.req.text()
	if (text.trim() === '') {
		return {}
	}
	let parsed: unknown
	try {
		parsed = JSON.parse(text)
	} catch {
		throw new NotionApiError(400, 'invalid_json', 'Error parsing JSON body.')
	}
	if (!isRecord(parsed)) {
		throw validationError('body failed validation: body should be an object.')
	}
	return parsed
}

function queryList(c: Context<Env>, name: string): string[] | undefined {
	const values = [...(c.req.queries(name) ?? []), ...(c.req.queries(`${name}[]`) ?? [])]
	return values.length > 0 ? values : undefined
}

function list(results: unknown[], slice: { nextCursor: string | null; hasMore: boolean }, type: string): JsonObject {
	return { object: 'list', results, next_cursor: slice.nextCursor, has_more: slice.hasMore, type, [type]: {} }
}

/** Starts a fake Notion API server; see the comment at the top of this file. */
export async function createFakeNotion(options: FakeNotionOptions = {}) {
	let frozenAt: number | null = null
	let offset = 0
	const now = () => (options.now ? options.now() : (frozenAt ?? Date.now() + offset))
	let baseUrl = ''
	const workspace = {
		id: options.workspace?.id ?? randomUUID(),
		name: options.workspace?.name ?? 'Fake Workspace',
		icon: options.workspace?.icon ?? '🧪',
	}
	const oauthClient = {
		clientId: options.oauth?.clientId ?? 'fake-notion-client-id',
		clientSecret: options.oauth?.clientSecret ?? 'fake-notion-client-secret',
	}
	const botId = randomUUID()
	const store = new FakeNotionStore({
		now,
		timestampPrecisionMs: options.timestampPrecisionMs ?? 60_000,
		botId,
		fileBaseUrl: () => baseUrl,
	})
	const bot = store.addUser({ id: botId, name: 'Fake Integration', type: 'bot' })
	const token = options.token ?? DEFAULT_TOKEN
	const tokens = new Map<string, Identity>([[token, { token, kind: 'internal' }]])
	const refreshTokens = new Map<string, string>()
	const codes = new Map<string, OAuthCode>()
	const book = new CursorBook()
	const blocks = new FakeBlockStore(store)
	let queryResultLimit = options.queryResultLimit ?? 10_000
	let maxFileUploadBytes = options.maxFileUploadBytes ?? FREE_PLAN_UPLOAD_BYTES

	// Faults and the request log.
	let rateLimit: (RateLimit & { tokens: number; last: number }) | null = null
	let outage: 503 | 529 | null = null
	/** Data sources in which creating a page fails with 503, while everything else works. */
	const pageOutages = new Set<string>()
	/** Data sources in which creating or updating a page fails with 503 (e.g. a timer stopped during an outage). */
	const pageWriteOutages = new Set<string>()
	const compactId = (id: string) => id.replaceAll('-', '').toLowerCase()
	const failures: FailureSpec[] = []
	const delays: number[] = []
	let latencyMs = 0
	const drops: DropMode[] = []
	const log: RequestLogEntry[] = []

	const timestamp = () => store.timestamp()

	function ownerUser(userId: string): JsonObject {
		const user = store.users.get(userId)
		return user ? store.renderUser(user) : { object: 'user', id: userId }
	}

	function firstPerson(): FakeUser | undefined {
		return [...store.users.values()].find((user) => user.type === 'person')
	}

	function takeRateLimitToken(): number | null {
		if (!rateLimit) {
			return null
		}
		const current = performance.now()
		const burst = rateLimit.burst ?? Math.max(1, rateLimit.requestsPerSecond)
		rateLimit.tokens = Math.min(
			burst,
			rateLimit.tokens + ((current - rateLimit.last) / 1000) * rateLimit.requestsPerSecond,
		)
		rateLimit.last = current
		if (rateLimit.tokens >= 1) {
			rateLimit.tokens -= 1
			return null
		}
		return rateLimit.retryAfterSeconds ?? Math.max(1, Math.ceil((1 - rateLimit.tokens) / rateLimit.requestsPerSecond))
	}

	const app = new Hono<Env>()

	app.onError((error, c) => {
		const requestId = c.get('requestId') ?? randomUUID()
		if (error instanceof NotionApiError) {
			return jsonResponse(errorBody(error, requestId), error.status, {
				'x-notion-request-id': requestId,
				...error.headers,
			})
		}
		const internal = new NotionApiError(500, 'internal_server_error', `Fake Notion failed: ${String(error)}`)
		return jsonResponse(errorBody(internal, requestId), 500, { 'x-notion-request-id': requestId })
	})

	app.use('/v1/*', async (c, next) => {
		const requestId = randomUUID()
		c.set('requestId', requestId)
		const path = new URL(c.req.url).pathname
		const entry: RequestLogEntry = {
			method: c.req.method,
			path,
			route: `${c.req.method} ${routePattern(path)}`,
			status: 0,
			at: new Date().toISOString(),
			requestId,
		}
		log.push(entry)
		const fail = (error: NotionApiError, fault: RequestLogEntry['fault']) => {
			entry.status = error.status
			entry.fault = fault
			return jsonResponse(errorBody(error, requestId), error.status, {
				'x-notion-request-id': requestId,
				...error.headers,
			})
		}
		if (pageOutages.size + pageWriteOutages.size > 0 && c.req.method === 'POST' && path === '/v1/pages') {
			const body = (await c.req.json().catch(() => null)) as { parent?: Record<string, unknown> } | null
			const parentId = body?.parent?.data_source_id ?? body?.parent?.database_id
			const isDown = (id: string) => pageOutages.has(compactId(id)) || pageWriteOutages.has(compactId(id))
			if (typeof parentId === 'string' && isDown(parentId)) {
				return fail(
					new NotionApiError(503, 'service_unavailable', 'Notion is unavailable, please try again later.'),
					'outage',
				)
			}
		}
		if (pageWriteOutages.size > 0 && c.req.method === 'PATCH' && path.startsWith('/v1/pages/')) {
			const page = store.pages.get(safeDecode(path.slice('/v1/pages/'.length)))
			if (page && pageWriteOutages.has(compactId(page.dataSourceId))) {
				return fail(
					new NotionApiError(503, 'service_unavailable', 'Notion is unavailable, please try again later.'),
					'outage',
				)
			}
		}
		if (outage) {
			const error =
				outage === 529
					? new NotionApiError(529, 'service_overload', 'Notion is overloaded. Try again later.')
					: new NotionApiError(503, 'service_unavailable', 'Notion is unavailable, please try again later.')
			return fail(error, 'outage')
		}
		const retryAfter = takeRateLimitToken()
		if (retryAfter !== null) {
			return fail(
				new NotionApiError(429, 'rate_limited', 'You have been rate limited. Please try again in a few minutes.', {
					headers: { 'retry-after': String(retryAfter) },
					additionalData: { rate_limit_reason: 'public_api_request_rate_limit' },
				}),
				'rate_limited',
			)
		}
		const delay = (delays.shift() ?? 0) + latencyMs
		if (delay > 0) {
			await new Promise((resolve) => setTimeout(resolve, delay))
		}
		const failure = failures.shift()
		if (failure) {
			const code =
				failure.code !== undefined && isNotionErrorCode(failure.code) ? failure.code : codeForStatus(failure.status)
			if (code === null) {
				entry.status = failure.status
				entry.fault = 'injected'
				return gatewayPage()
			}
			const message = failure.message ?? `Injected failure (${failure.status}).`
			return fail(new NotionApiError(failure.status, code, message), 'injected')
		}
		if (!path.startsWith('/v1/oauth/')) {
			const header = c.req.header('authorization') ?? ''
			const identity = header.startsWith('Bearer ') ? tokens.get(header.slice(7)) : undefined
			if (!identity) {
				return fail(new NotionApiError(401, 'unauthorized', 'API token is invalid.'), undefined)
			}
			c.set('identity', identity)
			if (!c.req.header('notion-version')) {
				return fail(
					new NotionApiError(
						400,
						'missing_version',
						'Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`.',
					),
					undefined,
				)
			}
		}
		await next()
		c.res.headers.set('x-notion-request-id', requestId)
		entry.status = c.res.status
		const drop = drops.shift()
		if (drop !== undefined) {
			entry.fault = 'dropped'
			if (drop === 502) {
				entry.status = 502
				c.res = gatewayPage()
			} else {
				entry.status = 0
				c.env.incoming.socket.destroy()
			}
		}
	})

	// --- search, databases, data sources -----------------------------------------------------------------------

	app.post('/v1/search', async (c) => {
		const body = await readJson(c)
		const pageSize = book.parsePageSize(body.page_size, 'body.page_size')
		const filter = isRecord(body.filter) ? body.filter : {}
		const kind = filter.value
		if (filter.property !== undefined && filter.property !== 'object') {
			throw validationError('body failed validation: body.filter.property should be `"object"`.')
		}
		if (kind !== undefined && kind !== 'page' && kind !== 'data_source') {
			throw validationError(
				`body failed validation: body.filter.value should be \`"page"\` or \`"data_source"\`, instead was \`${JSON.stringify(kind)}\`.`,
			)
		}
		const inTrash = filter.in_trash === true
		const text = typeof body.query === 'string' ? body.query.toLowerCase() : ''
		const ascending = isRecord(body.sort) && body.sort.direction === 'ascending'
		const slice = book.page('search', body.start_cursor, pageSize, () => {
			const found: { id: string; time: number }[] = []
			if (kind !== 'page') {
				for (const dataSource of store.dataSources.values()) {
					if (dataSource.inTrash === inTrash && dataSource.title.toLowerCase().includes(text)) {
						found.push({ id: dataSource.id, time: dataSource.lastEditedTime })
					}
				}
			}
			if (kind !== 'data_source') {
				for (const page of store.pages.values()) {
					if (page.inTrash === inTrash && store.pageTitle(page).toLowerCase().includes(text)) {
						found.push({ id: page.id, time: page.lastEditedTime })
					}
				}
			}
			found.sort((a, b) => (ascending ? a.time - b.time : b.time - a.time))
			return { ids: found.map((item) => item.id), truncated: false }
		})
		const results = slice.ids.flatMap((id) => {
			const dataSource = store.dataSources.get(id)
			if (dataSource) {
				return [store.renderDataSource(dataSource)]
			}
			const page = store.pages.get(id)
			return page ? [store.renderPage(page)] : []
		})
		return jsonResponse({ ...list(results, slice, 'page_or_data_source'), request_status: { type: 'complete' } })
	})

	app.get('/v1/databases/:id', (c) => jsonResponse(store.renderDatabase(store.getDatabase(c.req.param('id')))))

	app.get('/v1/data_sources/:id', (c) => jsonResponse(store.renderDataSource(store.getDataSource(c.req.param('id')))))

	app.post('/v1/data_sources/:id/query', async (c) => {
		const dataSource = store.getDataSource(c.req.param('id'))
		const body = await readJson(c)
		const pageSize = book.parsePageSize(body.page_size, 'body.page_size')
		const inTrash = body.in_trash === true || body.archived === true
		const slice = book.page(`query:${dataSource.id}`, body.start_cursor, pageSize, () => {
			const context = { store, dataSource, now: now() }
			const matches = compileFilter(body.filter, context)
			const order = compileSorts(body.sorts, context)
			const rows = (store.rows.get(dataSource.id) ?? []).filter((page) => page.inTrash === inTrash && matches(page))
			rows.sort(order)
			return { ids: rows.slice(0, queryResultLimit).map((page) => page.id), truncated: rows.length > queryResultLimit }
		})
		const filterProperties = queryList(c, 'filter_properties')
		const results = slice.ids.flatMap((id) => {
			const page = store.pages.get(id)
			return page ? [store.renderPage(page, filterProperties)] : []
		})
		return jsonResponse({
			...list(results, slice, 'page_or_data_source'),
			request_status: slice.incomplete
				? { type: 'incomplete', incomplete_reason: 'query_result_limit_reached' }
				: { type: 'complete' },
		})
	})

	// --- pages -------------------------------------------------------------------------------------------------

	app.post('/v1/pages', async (c) => {
		const body = await readJson(c)
		const dataSource = store.resolveParent(body.parent)
		const page = store.createPage({ dataSource, properties: body.properties, icon: body.icon, cover: body.cover })
		return jsonResponse(store.renderPage(page, queryList(c, 'filter_properties')))
	})

	app.get('/v1/pages/:id', (c) => {
		const page = store.getPage(c.req.param('id'))
		return jsonResponse(store.renderPage(page, queryList(c, 'filter_properties')))
	})

	app.patch('/v1/pages/:id', async (c) => {
		const page = store.getPage(c.req.param('id'))
		const body = await readJson(c)
		const trash = [body.in_trash, body.archived, body.is_archived].find((value) => typeof value === 'boolean')
		store.updatePage(page, {
			properties: body.properties,
			inTrash: typeof trash === 'boolean' ? trash : undefined,
			icon: body.icon,
			cover: body.cover,
			isLocked: typeof body.is_locked === 'boolean' ? body.is_locked : undefined,
		})
		return jsonResponse(store.renderPage(page, queryList(c, 'filter_properties')))
	})

	/**
	 * The property item list's `results` for a paginated property, before paging. Rollups: "show original" and
	 * "show unique" give the rolled-up values flattened into property items of the rolled property's type; the
	 * other functions give the relation's items, their value coming in `property_item.rollup` on the last page.
	 */
	function propertyItems(page: FakePage, property: SchemaProperty): JsonObject[] {
		const flatten = (type: string, id: string, value: unknown): JsonObject[] => {
			const item = (shown: unknown) => ({ object: 'property_item', id, type, [type]: shown })
			if (!['title', 'rich_text', 'people', 'relation'].includes(type) || !Array.isArray(value)) {
				return [item(value)]
			}
			return value.map((entry) =>
				item(type === 'people' && isRecord(entry) && typeof entry.id === 'string' ? ownerUser(entry.id) : entry),
			)
		}
		if (property.type !== 'rollup') {
			return flatten(property.type, property.id, store.propertyValue(page, property, 0))
		}
		const inputs = store.rollupInputs(page, property, 0)
		if (!inputs) {
			return []
		}
		if (inputs.fn === 'show_original' || inputs.fn === 'show_unique') {
			const shown = store.rollup(page, property, 0).array
			const rolledType = inputs.rolled.type
			return (Array.isArray(shown) ? shown : []).flatMap((element) =>
				flatten(rolledType, inputs.rolled.id, isRecord(element) ? element[rolledType] : null),
			)
		}
		const relationId = String(property.config.relation_property_id)
		return inputs.related.map((other) => ({
			object: 'property_item',
			id: relationId,
			type: 'relation',
			relation: { id: other.id },
		}))
	}

	app.get('/v1/pages/:id/properties/:propertyId', (c) => {
		const page = store.getPage(c.req.param('id'))
		const dataSource = store.getDataSource(page.dataSourceId)
		const wanted = c.req.param('propertyId')
		const property = store.findProperty(dataSource, wanted) ?? store.findProperty(dataSource, safeDecode(wanted))
		if (!property) {
			throw notFound('property', wanted)
		}
		if (!['title', 'rich_text', 'people', 'relation', 'rollup'].includes(property.type)) {
			const value = store.propertyValue(page, property, 0)
			return jsonResponse({ object: 'property_item', id: property.id, type: property.type, [property.type]: value })
		}
		const items = propertyItems(page, property)
		const pageSize = book.parsePageSize(
			c.req.query('page_size') === undefined ? undefined : Number(c.req.query('page_size')),
			'query.page_size',
		)
		const slice = book.page(`property:${page.id}:${property.id}`, c.req.query('start_cursor'), pageSize, () => ({
			ids: items.map((_, index) => String(index)),
			truncated: false,
		}))
		const results = slice.ids.flatMap((index) => items[Number(index)] ?? [])
		const nextUrl = slice.nextCursor
			? `${baseUrl}/v1/pages/${page.id}/properties/${property.id}?start_cursor=${slice.nextCursor}`
			: null
		let summary: unknown = {}
		if (property.type === 'rollup') {
			const fn = String(property.config.function)
			const value = store.rollup(page, property, 0)
			// Calculated rollups are final only on the last page; "show original" keeps its values in `results`.
			summary =
				value.type === 'array'
					? { type: 'array', array: [], function: fn }
					: slice.hasMore
						? { type: 'incomplete', incomplete: {}, function: fn }
						: value
		}
		return jsonResponse({
			...list(results, slice, 'property_item'),
			property_item: { id: property.id, next_url: nextUrl, type: property.type, [property.type]: summary },
		})
	})

	// --- users -------------------------------------------------------------------------------------------------

	app.get('/v1/users', (c) => {
		const raw = c.req.query('page_size')
		const pageSize = book.parsePageSize(raw === undefined ? undefined : Number(raw), 'query.page_size')
		const slice = book.page('users', c.req.query('start_cursor'), pageSize, () => ({
			ids: [...store.users.keys()],
			truncated: false,
		}))
		const results = slice.ids.flatMap((id) => {
			const user = store.users.get(id)
			return user ? [store.renderUser(user)] : []
		})
		return jsonResponse(list(results, slice, 'user'))
	})

	app.get('/v1/users/me', (c) => {
		const identity = c.get('identity')
		const person = firstPerson()
		const owner =
			identity.kind === 'oauth'
				? { type: 'user', user: ownerUser(options.oauth?.ownerUserId ?? person?.id ?? botId) }
				: { type: 'workspace', workspace: true }
		return jsonResponse({
			...store.renderUser(bot),
			bot: {
				owner,
				workspace_id: workspace.id,
				workspace_name: workspace.name,
				workspace_limits: { max_file_upload_size_in_bytes: maxFileUploadBytes },
			},
		})
	})

	app.get('/v1/users/:id', (c) => {
		const user = store.users.get(c.req.param('id'))
		if (!user) {
			throw notFound('user', c.req.param('id'))
		}
		return jsonResponse(store.renderUser(user))
	})

	// --- file uploads ------------------------------------------------------------------------------------------

	app.post('/v1/file_uploads', async (c) => {
		const body = await readJson(c)
		const mode = body.mode ?? 'single_part'
		if (mode !== 'single_part') {
			throw validationError(`The fake Notion server supports only single_part uploads, not \`${String(mode)}\`.`)
		}
		const time = timestamp()
		const upload = {
			id: randomUUID(),
			createdTime: time,
			lastEditedTime: time,
			status: 'pending' as const,
			filename: typeof body.filename === 'string' ? body.filename : null,
			contentType: typeof body.content_type === 'string' ? body.content_type : null,
			contentLength: null,
			data: null,
			expiryTime: time + 3_600_000,
		}
		store.fileUploads.set(upload.id, upload)
		return jsonResponse(store.renderFileUpload(upload))
	})

	app.get('/v1/file_uploads', (c) => {
		const raw = c.req.query('page_size')
		const pageSize = book.parsePageSize(raw === undefined ? undefined : Number(raw), 'query.page_size')
		const status = c.req.query('status')
		const slice = book.page(`uploads:${status ?? ''}`, c.req.query('start_cursor'), pageSize, () => ({
			ids: [...store.fileUploads.values()]
				.filter((upload) => status === undefined || upload.status === status)
				.map((upload) => upload.id),
			truncated: false,
		}))
		const results = slice.ids.flatMap((id) => {
			const upload = store.fileUploads.get(id)
			return upload ? [store.renderFileUpload(upload)] : []
		})
		return jsonResponse(list(results, slice, 'file_upload'))
	})

	app.get('/v1/file_uploads/:id', (c) => {
		const upload = store.fileUploads.get(c.req.param('id'))
		if (!upload) {
			throw notFound('file upload', c.req.param('id'))
		}
		return jsonResponse(store.renderFileUpload(upload))
	})

	app.post('/v1/file_uploads/:id/send', async (c) => {
		const upload = store.fileUploads.get(c.req.param('id'))
		if (!upload) {
			throw notFound('file upload', c.req.param('id'))
		}
		if (upload.status !== 'pending') {
			throw validationError(`File upload ${upload.id} is in status \`${upload.status}\` and cannot be sent again.`)
		}
		if (!(c.req.header('content-type') ?? '').startsWith('multipart/form-data')) {
			throw validationError('Send a file upload as multipart/form-data with a `file` field.')
		}
		const form = await c.req.parseBody()
		const file = form.file
		if (!(file instanceof File)) {
			throw validationError('body failed validation: body.file should be defined, instead was `undefined`.')
		}
		if (file.size > maxFileUploadBytes) {
			throw validationError(
				`The file is larger than this workspace's limit of ${maxFileUploadBytes} bytes (workspace_limits.max_file_upload_size_in_bytes).`,
			)
		}
		if (file.size > SINGLE_PART_BYTES) {
			throw validationError(`The file is larger than the ${SINGLE_PART_BYTES} byte limit for single_part uploads.`)
		}
		upload.data = new Uint8Array(await file.arrayBuffer())
		upload.filename = upload.filename ?? (file.name || 'file')
		upload.contentType = upload.contentType ?? (file.type || 'application/octet-stream')
		upload.contentLength = file.size
		upload.status = 'uploaded'
		upload.lastEditedTime = timestamp()
		return jsonResponse(store.renderFileUpload(upload))
	})

	app.get('/__files/:id/:name', (c) => {
		const upload = store.fileUploads.get(c.req.param('id'))
		if (!upload?.data) {
			return c.text('Not found', 404)
		}
		const expiresAt = Number(c.req.query('X-Expires'))
		const signature = c.req.query('X-Signature') ?? ''
		if (!Number.isFinite(expiresAt) || signature !== store.signFile(upload.id, expiresAt)) {
			return s3Error('AccessDenied', 'Access Denied')
		}
		if (now() > expiresAt) {
			return s3Error('AccessDenied', 'Request has expired')
		}
		// An ArrayBuffer copy satisfies both Node's and the DOM's BodyInit (the journeys type-check this file with DOM).
		const body = upload.data.buffer.slice(
			upload.data.byteOffset,
			upload.data.byteOffset + upload.data.byteLength,
		) as ArrayBuffer
		return new Response(body, { headers: { 'content-type': upload.contentType ?? 'application/octet-stream' } })
	})

	// --- OAuth -------------------------------------------------------------------------------------------------

	function authorizeError(message: string): Response {
		return new Response(`<!doctype html><title>Notion</title><p>${escapeHtml(message)}</p>`, {
			status: 400,
			headers: { 'content-type': 'text/html; charset=utf-8' },
		})
	}

	function approve(params: URLSearchParams, decision: string, signedIn: FakeUser | undefined): Response {
		const redirectUri = params.get('redirect_uri') ?? options.oauth?.redirectUris?.[0]
		if (!redirectUri) {
			return authorizeError('Missing redirect_uri.')
		}
		const target = new URL(redirectUri)
		const state = params.get('state')
		if (decision === 'allow') {
			const code = `fake-code-${randomUUID()}`
			const ownerUserId = signedIn?.id ?? options.oauth?.ownerUserId ?? firstPerson()?.id ?? botId
			codes.set(code, { code, redirectUri: params.get('redirect_uri'), ownerUserId })
			target.searchParams.set('code', code)
		} else {
			target.searchParams.set('error', 'access_denied')
		}
		if (state !== null) {
			target.searchParams.set('state', state)
		}
		return new Response(null, { status: 302, headers: { location: target.toString() } })
	}

	function checkAuthorizeParams(params: URLSearchParams): Response | null {
		if (params.get('client_id') !== oauthClient.clientId) {
			return authorizeError('Invalid client_id.')
		}
		if (params.get('response_type') !== 'code') {
			return authorizeError('response_type must be code.')
		}
		const redirectUri = params.get('redirect_uri')
		const allowed = options.oauth?.redirectUris
		if (redirectUri && allowed && !allowed.includes(redirectUri)) {
			return authorizeError('redirect_uri is not one of the integration’s redirect URIs.')
		}
		return null
	}

	// Notion shows its consent page to the person signed in to Notion in that browser. The fake does
	// too once a browser has signed in through GET /__sign-in (a cookie of the fake's own origin);
	// otherwise it approves at once as the configured owner, unless `requireApproval` is set.
	const sessionCookie = 'fake_notion_user'

	function signedInPerson(c: Context<Env>): FakeUser | undefined {
		const id = getCookie(c, sessionCookie)
		const user = id ? store.users.get(id) : undefined
		return user?.type === 'person' ? user : undefined
	}

	app.get('/__sign-in', (c) => {
		const email = c.req.query('email')?.trim().toLowerCase()
		if (!email) {
			return authorizeError('Give ?email= (and &name=) to sign in to Fake Notion.')
		}
		const user =
			[...store.users.values()].find((person) => person.type === 'person' && person.email === email) ??
			store.addUser({ name: c.req.query('name')?.trim() || (email.split('@')[0] ?? email), email })
		setCookie(c, sessionCookie, user.id, { path: '/', httpOnly: true, sameSite: 'Lax' })
		return c.html(
			`<!doctype html><html><head><meta charset="utf-8"><title>Fake Notion</title></head><body><h1>Fake Notion</h1><p>Signed in as ${escapeHtml(user.name)} (${escapeHtml(email)}).</p></body></html>`,
		)
	})

	app.get('/v1/oauth/authorize', (c) => {
		const params = new URL(c.req.url).searchParams
		const problem = checkAuthorizeParams(params)
		if (problem) {
			return problem
		}
		const signedIn = signedInPerson(c)
		if (!options.oauth?.requireApproval && !signedIn) {
			return approve(params, 'allow', undefined)
		}
		const hidden = [...params.entries()]
			.map(([key, value]) => `<input type="hidden" name="${escapeHtml(key)}" value="${escapeHtml(value)}">`)
			.join('')
		const who = signedIn
			? `<p>Signed in as ${escapeHtml(signedIn.name)} (${escapeHtml(signedIn.email ?? '')}).</p>`
			: ''
		const html = `<!doctype html><html><head><meta charset="utf-8"><title>Connect to ${escapeHtml(workspace.name)}</title></head>
<body><h1>Fake Notion</h1>${who}<p>An integration wants access to ${escapeHtml(workspace.name)}.</p>
<form method="post" action="/v1/oauth/authorize">${hidden}
<button type="submit" name="decision" value="allow">Allow access</button>
<button type="submit" name="decision" value="deny">Cancel</button></form></body></html>`
		return new Response(html, { headers: { 'content-type': 'text/html; charset=utf-8' } })
	})

	app.post('/v1/oauth/authorize', async (c) => {
		const form = await c.req.parseBody()
		const params = new URLSearchParams()
		for (const [key, value] of Object.entries(form)) {
			if (typeof value === 'string') {
				params.set(key, value)
			}
		}
		const problem = checkAuthorizeParams(params)
		return problem ?? approve(params, params.get('decision') ?? 'allow', signedInPerson(c))
	})

	function checkClient(c: Context<Env>): void {
		const header = c.req.header('authorization') ?? ''
		const decoded = header.startsWith('Basic ') ? Buffer.from(header.slice(6), 'base64').toString('utf8') : ''
		const separator = decoded.indexOf(':')
		const clientId = decoded.slice(0, separator)
		const clientSecret = decoded.slice(separator + 1)
		if (separator < 0 || clientId !== oauthClient.clientId || clientSecret !== oauthClient.clientSecret) {
			throw new NotionApiError(401, 'unauthorized', 'Invalid client credentials.', {
				extraBody: { error: 'invalid_client', error_description: 'Invalid client credentials.' },
			})
		}
	}

	function invalidGrant(message: string): NotionApiError {
		return new NotionApiError(400, 'invalid_grant', message, {
			extraBody: { error: 'invalid_grant', error_description: message },
		})
	}

	function issueTokens(ownerUserId: string): JsonObject {
		const accessToken = `ntn_fake_oauth_${randomUUID().replaceAll('-', '')}`
		const refreshToken = `ntn_fake_refresh_${randomUUID().replaceAll('-', '')}`
		tokens.set(accessToken, { token: accessToken, kind: 'oauth' })
		refreshTokens.set(refreshToken, ownerUserId)
		return {
			access_token: accessToken,
			token_type: 'bearer',
			refresh_token: refreshToken,
			bot_id: botId,
			workspace_id: workspace.id,
			workspace_name: workspace.name,
			workspace_icon: workspace.icon,
			owner: { type: 'user', user: ownerUser(ownerUserId) },
			duplicated_template_id: null,
		}
	}

	app.post('/v1/oauth/token', async (c) => {
		checkClient(c)
		const body = await readJson(c)
		if (body.grant_type === 'authorization_code') {
			const grant = typeof body.code === 'string' ? codes.get(body.code) : undefined
			if (!grant) {
				throw invalidGrant('Invalid code.')
			}
			if (grant.redirectUri !== null && body.redirect_uri !== grant.redirectUri) {
				throw invalidGrant('redirect_uri does not match the one used to authorize.')
			}
			codes.delete(grant.code)
			return jsonResponse({ ...issueTokens(grant.ownerUserId), request_id: c.get('requestId') })
		}
		if (body.grant_type === 'refresh_token') {
			const owner = typeof body.refresh_token === 'string' ? refreshTokens.get(body.refresh_token) : undefined
			if (owner === undefined) {
				throw invalidGrant('Invalid refresh token.')
			}
			refreshTokens.delete(String(body.refresh_token))
			return jsonResponse({ ...issueTokens(owner), request_id: c.get('requestId') })
		}
		throw validationError(
			'body failed validation: body.grant_type should be `"authorization_code"` or `"refresh_token"`.',
		)
	})

	app.post('/v1/oauth/revoke', async (c) => {
		checkClient(c)
		const body = await readJson(c)
		if (typeof body.token === 'string') {
			tokens.delete(body.token)
			refreshTokens.delete(body.token)
		}
		return jsonResponse({ request_id: c.get('requestId') })
	})

	app.post('/v1/oauth/introspect', async (c) => {
		checkClient(c)
		const body = await readJson(c)
		const active = typeof body.token === 'string' && tokens.has(body.token)
		return jsonResponse({
			active,
			scope: active ? 'read_content update_content insert_content read_user_with_email' : null,
			iat: active ? Math.floor(now() / 1000) : null,
			request_id: c.get('requestId'),
		})
	})

	// --- blocks (page content, read only) -----------------------------------------------------------------------

	app.get('/v1/blocks/:id/children', (c) => {
		const parentId = c.req.param('id')
		const raw = c.req.query('page_size')
		const pageSize = book.parsePageSize(raw === undefined ? undefined : Number(raw), 'query.page_size')
		const slice = book.page(`blocks:${parentId}`, c.req.query('start_cursor'), pageSize, () => ({
			ids: blocks.childIds(parentId),
			truncated: false,
		}))
		return jsonResponse(
			list(
				slice.ids.map((id) => blocks.render(blocks.get(id))),
				slice,
				'block',
			),
		)
	})

	app.get('/v1/blocks/:id', (c) => jsonResponse(blocks.render(blocks.get(c.req.param('id')))))

	app.all('/v1/*', () => {
		throw new NotionApiError(400, 'invalid_request_url', 'Invalid request URL.')
	})

	// --- controls ----------------------------------------------------------------------------------------------

	function addPageRecord(
		dataSourceId: string,
		properties: JsonObject = {},
		extra: { createdTime?: number | string | Date; createdBy?: string; icon?: unknown } = {},
	): FakePage {
		const createdTime = extra.createdTime === undefined ? undefined : new Date(extra.createdTime).getTime()
		return store.createPage({
			dataSource: store.getDataSource(dataSourceId),
			properties,
			createdTime,
			createdBy: extra.createdBy,
			icon: extra.icon,
		})
	}

	const controls = {
		setRateLimit(limit: RateLimit | null): void {
			rateLimit = limit
				? { ...limit, tokens: limit.burst ?? Math.max(1, limit.requestsPerSecond), last: performance.now() }
				: null
		},
		failNext(count: number, failure: FailureSpec): void {
			if (failure.code !== undefined && !isNotionErrorCode(failure.code)) {
				throw new Error(
					`Notion never answers with the code ${String(failure.code)}; use one of ${notionErrorCodes.join(', ')}`,
				)
			}
			for (let i = 0; i < count; i++) {
				failures.push(failure)
			}
		},
		setOutage(on: boolean, status: 503 | 529 = 503): void {
			outage = on ? status : null
		},
		/** Page creation in one data source fails (503); reads and other writes go on, so one test's outage spares the others. */
		setPageCreateOutage(dataSourceId: string, on: boolean): void {
			if (on) {
				pageOutages.add(compactId(dataSourceId))
			} else {
				pageOutages.delete(compactId(dataSourceId))
			}
		},
		/** Creating and updating pages in one data source fails (503); reads and other data sources go on. */
		setPageWriteOutage(dataSourceId: string, on: boolean): void {
			if (on) {
				pageWriteOutages.add(compactId(dataSourceId))
			} else {
				pageWriteOutages.delete(compactId(dataSourceId))
			}
		},
		delayNext(count: number, ms: number): void {
			for (let i = 0; i < count; i++) {
				delays.push(ms)
			}
		},
		setLatency(ms: number): void {
			latencyMs = ms
		},
		/** The next `count` requests are carried out, but the client never sees the answer. */
		dropResponseNext(count: number, options: { mode?: DropMode } = {}): void {
			for (let i = 0; i < count; i++) {
				drops.push(options.mode ?? 'reset')
			}
		},
		clearFaults(): void {
			rateLimit = null
			outage = null
			pageOutages.clear()
			pageWriteOutages.clear()
			failures.length = 0
			delays.length = 0
			drops.length = 0
			latencyMs = 0
		},
		requests(): RequestLogEntry[] {
			return log.map((entry) => ({ ...entry }))
		},
		/** Counts logged requests, optionally only one method and/or one route pattern (`/v1/pages/:id`). */
		requestCount(method?: string, route?: string): number {
			return log.filter(
				(entry) =>
					(method === undefined || entry.method === method.toUpperCase()) &&
					(route === undefined || entry.route === `${entry.method} ${route}` || entry.path === route),
			).length
		},
		resetRequests(): void {
			log.length = 0
		},
		setQueryResultLimit(limit: number): void {
			queryResultLimit = limit
		},
		/** The workspace's upload limit, as a change of Notion plan would set it. */
		setMaxFileUploadBytes(bytes: number): void {
			maxFileUploadBytes = bytes
		},
		now(): string {
			return iso(now())
		},
		/** Freezes the clock at `time`; it moves only with `advanceClock` until `useRealClock`. */
		setClock(time: string | number | Date): void {
			frozenAt = new Date(time).getTime()
		},
		advanceClock(ms: number): void {
			if (frozenAt === null) {
				offset += ms
			} else {
				frozenAt += ms
			}
		},
		useRealClock(): void {
			frozenAt = null
			offset = 0
		},
		addUser(input: { name: string; email?: string; id?: string; avatarUrl?: string | null }): JsonObject {
			return store.renderUser(store.addUser(input))
		},
		/**
		 * Adds a data source with its schema (`PropertyDefinition` per property name). Without `databaseId` a new
		 * database holds it; with one, it becomes that database's next data source.
		 */
		addDataSource(input: {
			title: string
			properties: Record<string, PropertyDefinition>
			databaseId?: string
			icon?: string | null
			description?: string
		}): JsonObject {
			return store.renderDataSource(store.addDataSource(input))
		},
		/** Adds a row; `properties` are request-shaped values, validated as `POST /v1/pages` would. */
		addPage(
			dataSourceId: string,
			properties: JsonObject = {},
			extra: { createdTime?: number | string | Date; createdBy?: string; icon?: unknown } = {},
		): JsonObject {
			return store.renderPage(addPageRecord(dataSourceId, properties, extra))
		},
		/**
		 * Adds `count` rows quickly, `spacingMs` apart (default 1 s) ending now, or from `startTime`.
		 * `properties(index)` gives each row's values; the default is a title `Row <n>`. Returns the new ids.
		 */
		addPages(
			dataSourceId: string,
			count: number,
			extra: {
				properties?: (index: number) => JsonObject
				spacingMs?: number
				startTime?: number | string | Date
			} = {},
		): string[] {
			const dataSource = store.getDataSource(dataSourceId)
			const titleName = dataSource.properties.find((property) => property.type === 'title')?.name ?? 'Name'
			const spacing = extra.spacingMs ?? 1000
			const start = extra.startTime === undefined ? now() - (count - 1) * spacing : new Date(extra.startTime).getTime()
			const ids: string[] = []
			for (let index = 0; index < count; index++) {
				const properties = extra.properties?.(index) ?? {
					[titleName]: { title: [{ text: { content: `Row ${index + 1}` } }] },
				}
				const page = store.createPage({ dataSource, properties, createdTime: start + index * spacing })
				ids.push(page.id)
			}
			return ids
		},
		getPage(pageId: string): JsonObject {
			return store.renderPage(store.getPage(pageId))
		},
		/** Edits a row as a person in the Notion UI would; bumps `last_edited_time`. */
		editPage(pageId: string, properties: JsonObject, editedBy?: string): JsonObject {
			const page = store.getPage(pageId)
			return store.renderPage(store.updatePage(page, { properties }, editedBy ?? firstPerson()?.id))
		},
		trashPage(pageId: string): JsonObject {
			return store.renderPage(store.updatePage(store.getPage(pageId), { inTrash: true }, firstPerson()?.id))
		},
		restorePage(pageId: string): JsonObject {
			return store.renderPage(store.updatePage(store.getPage(pageId), { inTrash: false }, firstPerson()?.id))
		},
		/** Removes a page for good, as emptying the trash does; reads answer 404 afterwards. */
		deletePage(pageId: string): void {
			store.deletePage(pageId)
		},
		/** Adds another accepted bearer token (e.g. a second internal integration) and returns it. */
		issueToken(value?: string): string {
			const issued = value ?? `ntn_fake_${randomUUID().replaceAll('-', '')}`
			tokens.set(issued, { token: issued, kind: 'internal' })
			return issued
		},
		/**
		 * Replaces a page's content (blocks in Notion's request shape, `children` nested; a hosted file as
		 * `{ file: { name, content } }`) and moves its `last_edited_time` unless `touch: false`.
		 */
		setPageContent(pageId: string, content: BlockInput[], options?: { touch?: boolean }): void {
			blocks.setPageContent(pageId, content, options)
		},
		/** Builds the demo workspace (users, Clients, Projects, Time entries, Invoices, the first project's content). */
		seed(): DemoWorkspace {
			const demo = seedDemoWorkspace(store)
			seedPageContent(blocks, demo)
			return demo
		},
		signWebhook(body: string, verificationToken: string): Promise<string> {
			return signWebhookPayload({ body, verificationToken })
		},
	}

	type ControlName = keyof typeof controls
	app.get('/__control/requests', () => jsonResponse(controls.requests()))
	app.get('/__control/info', () =>
		jsonResponse({ url: baseUrl, token, oauthClient, workspace, botId, now: controls.now() }),
	)
	app.post('/__control/:name', async (c) => {
		const name = c.req.param('name')
		if (!Object.hasOwn(controls, name)) {
			return jsonResponse({ error: `Unknown control ${name}` }, 404)
		}
		const text = await c.req.text()
		const parsed: unknown = text.trim() === '' ? [] : JSON.parse(text)
		const args = Array.isArray(parsed) ? parsed : [parsed]
		const method = controls[name as ControlName] as (...input: unknown[]) => unknown
		const result = await method(...args)
		return jsonResponse({ result: result ?? null })
	})

	const server = createAdaptorServer({ fetch: app.fetch }) as Server
	const host = options.host ?? '127.0.0.1'
	await new Promise<void>((resolve, reject) => {
		server.once('error', reject)
		server.listen(options.port ?? 0, host, () => resolve())
	})
	const address = server.address() as AddressInfo
	baseUrl = `http://${host}:${address.port}`

	const fake = {
		/** Base URL for `new Client({ baseUrl })` (no trailing slash, no /v1). */
		url: baseUrl,
		/** The internal integration token every request may use. */
		token,
		oauthClient,
		workspace,
		botId,
		/** The in-memory content, for assertions that the API cannot make. */
		state: store,
		...controls,
		close(): Promise<void> {
			return new Promise((resolve, reject) => {
				server.close((error) => (error ? reject(error) : resolve()))
				server.closeAllConnections()
			})
		},
	}
	if (options.seed) {
		fake.seed()
	}
	return fake
}

export type FakeNotion = Awaited<ReturnType<typeof createFakeNotion>>

/**
 * Drives a fake running in another process (e.g. `npm run fake-notion`) through its `/__control` API:
 * `await controlFakeNotion(url).call('failNext', 1, { status: 503 })`.
 */
export function controlFakeNotion(url: string) {
	return {
		async call(name: string, ...args: unknown[]): Promise<unknown> {
			const response = await fetch(`${url}/__control/${name}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(args),
			})
			const body = (await response.json()) as { result?: unknown; error?: string; message?: string }
			if (!response.ok) {
				throw new Error(body.error ?? body.message ?? `Control ${name} failed with ${response.status}`)
			}
			return body.result
		},
		async requests(): Promise<RequestLogEntry[]> {
			const response = await fetch(`${url}/__control/requests`)
			return (await response.json()) as RequestLogEntry[]
		},
	}
}
