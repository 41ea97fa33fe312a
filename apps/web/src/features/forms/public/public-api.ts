import type { FieldError } from '@blocksmith/contracts/errors.ts'
import type { PublicField, PublicForm, Submit, SubmitResult, UnlockResult } from '@blocksmith/contracts/forms.ts'
import type { PublicDatabase, WorkspaceTool, WorkspaceUser } from '@blocksmith/contracts/workspaces.ts'

// The public form page's calls, on plain `fetch`. Not lib/api-client.ts: that one carries the
// dashboard's session (bearer token, 401 → sign in), which visitors of a form never have, and
// the page must stay small. Contract types only: the schemas (zod) never reach this bundle.

/** A failed call, from the server's problem+json; status 0 and code NETWORK when it never arrived. */
export class PublicApiError extends Error {
	readonly status: number
	readonly code: string
	readonly detail: string
	readonly fieldErrors: FieldError[]
	/** From `Retry-After` (429, 503), in seconds. */
	readonly retryAfterSeconds: number | null

	constructor(problem: {
		status: number
		code: string
		detail: string
		errors?: FieldError[] | undefined
		retryAfterSeconds?: number | null
	}) {
		super(problem.detail)
		this.name = 'PublicApiError'
		this.status = problem.status
		this.code = problem.code
		this.detail = problem.detail
		this.fieldErrors = problem.errors ?? []
		this.retryAfterSeconds = problem.retryAfterSeconds ?? null
	}

	/** Worth sending again as it was: it never arrived, or the server failed on its side. */
	get isTransient(): boolean {
		return this.status === 0 || this.status >= 500
	}
}

function retryAfter(headers: Headers): number | null {
	const raw = headers.get('retry-after')
	if (!raw) {
		return null
	}
	const seconds = Number(raw)
	if (Number.isFinite(seconds)) {
		return Math.max(0, seconds)
	}
	const date = Date.parse(raw)
	return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - Date.now()) / 1000))
}

async function readProblem(response: Response): Promise<PublicApiError> {
	const fallback = {
		status: response.status,
		code: response.status >= 500 ? 'INTERNAL' : 'UNKNOWN',
		detail: response.status >= 500 ? 'Something went wrong on our side. Try again in a moment.' : 'The request failed.',
		retryAfterSeconds: retryAfter(response.headers),
	}
	try {
		const body = (await response.json()) as { code?: unknown; detail?: unknown; errors?: unknown }
		if (typeof body.detail === 'string' && typeof body.code === 'string') {
			const errors = Array.isArray(body.errors) ? (body.errors as FieldError[]) : []
			return new PublicApiError({ ...fallback, code: body.code, detail: body.detail, errors })
		}
	} catch {
		// Not JSON (a proxy's error page, say): the fallback says enough.
	}
	return new PublicApiError(fallback)
}

/** A GET, or a POST of `json`, answered with JSON; failures as PublicApiError. */
export async function request<T>(path: string, json?: unknown, signal?: AbortSignal): Promise<T> {
	let response: Response
	try {
		response = await fetch(path, {
			method: json === undefined ? 'GET' : 'POST',
			headers:
				json === undefined
					? { accept: 'application/json' }
					: { accept: 'application/json', 'content-type': 'application/json' },
			...(json === undefined ? {} : { body: JSON.stringify(json) }),
			...(signal ? { signal } : {}),
		})
	} catch (error) {
		if ((error as Error).name === 'AbortError') {
			throw error
		}
		throw new PublicApiError({
			status: 0,
			code: 'NETWORK',
			detail: 'Could not reach the server. Check your connection.',
		})
	}
	if (!response.ok) {
		throw await readProblem(response)
	}
	return (await response.json()) as T
}

export function fetchPublicForm(idOrSlug: string, unlockToken?: string | null): Promise<PublicForm> {
	const query = unlockToken ? `?unlockToken=${encodeURIComponent(unlockToken)}` : ''
	return request<PublicForm>(`/api/forms/${encodeURIComponent(idOrSlug)}${query}`)
}

export function unlockPublicForm(idOrSlug: string, password: string): Promise<UnlockResult> {
	return request<UnlockResult>(`/api/forms/${encodeURIComponent(idOrSlug)}/unlock_form`, { password })
}

/** One try; submitWithRetries decides what to do about a failure. */
function postSubmission(body: Submit): Promise<SubmitResult> {
	return request<SubmitResult>('/api/submissions', body)
}

/**
 * Counts a view or a start. A beacon outlives the page and never holds it up; where there is
 * none, `fetch` with keepalive does the same. No cookies, nothing about the visitor: the body
 * is the form and the kind of event.
 */
export function sendViewEvent(formId: string, kind: 'view' | 'start'): void {
	const body = JSON.stringify({ events: [{ formId, kind }] })
	try {
		if (typeof navigator.sendBeacon === 'function') {
			if (navigator.sendBeacon('/api/views', new Blob([body], { type: 'application/json' }))) {
				return
			}
		}
	} catch {
		// Some browsers throw on a beacon they refuse; the fetch below still counts it.
	}
	void fetch('/api/views', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body,
		keepalive: true,
		credentials: 'omit',
	}).catch(() => {})
}

/** What a published form lets visitors read: `form:<id>`, plus `.<unlock token>` once unlocked. */
export function formScope(formId: string, unlockToken?: string | null): string {
	return unlockToken ? `form:${formId}.${unlockToken}` : `form:${formId}`
}

/** The query of a scoped read: `field` names the question asking, so only its choices are given. */
function scopedQuery(scope: string, entries: Record<string, string | undefined>): URLSearchParams {
	const query = new URLSearchParams({ scope })
	for (const [key, value] of Object.entries(entries)) {
		if (value?.trim()) {
			query.set(key, value.trim())
		}
	}
	return query
}

/**
 * The people a form's people question offers (names only). With `field`, only that question's
 * (its chosen people; for a search-only one, the matches of `search`, none under two characters).
 */
function fetchPeople(
	tool: WorkspaceTool,
	scope: string,
	signal?: AbortSignal,
	field?: string,
	search?: string,
): Promise<WorkspaceUser[]> {
	const query = scopedQuery(scope, { field, search })
	return request<WorkspaceUser[]>(`/api/${tool}/users?${query}`, undefined, signal)
}

/** The related rows a form's relation question offers (titles only); with `field`, only that question's. */
function fetchRelationChoices(
	tool: WorkspaceTool,
	scope: string,
	databaseId: string,
	search: string,
	signal?: AbortSignal,
	field?: string,
): Promise<PublicDatabase[]> {
	const query = scopedQuery(scope, { database: databaseId, search, field })
	return request<PublicDatabase[]>(`/api/${tool}/databases?${query}`, undefined, signal)
}

type ChoiceQuestion = Pick<PublicField, 'id' | 'kind' | 'relationDatabaseId' | 'searchOnly'>

/**
 * Reads the choices of a form's people and relation questions, each through its own question
 * (`field`), so the server gives only what that question allows. People of a question that lists
 * them all are read once per question and searched here; a search-only question asks the server
 * for each search. Usable as the page's `LoadChoices`.
 */
export function createChoiceReader(
	tool: WorkspaceTool,
	scope: string,
): (field: ChoiceQuestion, search: string, signal: AbortSignal) => Promise<{ id: string; label: string }[]> {
	const people = new Map<string, Promise<WorkspaceUser[]>>()
	return async (field, search, signal) => {
		if (field.kind === 'people') {
			let users: WorkspaceUser[]
			if (field.searchOnly) {
				users = await fetchPeople(tool, scope, signal, field.id, search)
			} else {
				let listed = people.get(field.id)
				if (!listed) {
					listed = fetchPeople(tool, scope, undefined, field.id).catch((error: unknown) => {
						people.delete(field.id)
						throw error
					})
					people.set(field.id, listed)
				}
				users = await listed
			}
			const needle = search.trim().toLowerCase()
			return users
				.filter((user) => user.type === 'person' && (!needle || user.name.toLowerCase().includes(needle)))
				.map((user) => ({ id: user.id, label: user.name }))
		}
		if (field.kind !== 'relation' || !field.relationDatabaseId) {
			return []
		}
		const [database] = await fetchRelationChoices(tool, scope, field.relationDatabaseId, search, signal, field.id)
		return (database?.rows ?? []).map((row) => ({ id: row.id, label: row.title || 'Untitled' }))
	}
}

// ---- sending answers ----------------------------------------------------------------------

/**
 * How a submit is retried: a failure that never reached the server, or a 5xx, is sent again
 * after each of these pauses, with the same idempotency key, so the answer counts once however
 * many tries it takes.
 */
const submitRetryDelaysMs = [1000, 3000, 8000]
/** A server's Retry-After is followed on automatic retries up to this; longer waits are the visitor's call. */
const maxRetryAfterMs = 30_000

/**
 * The server takes a form only some seconds after it served the page (3 by default; the page
 * is not told the exact figure). A TOO_FAST answer waits until this long after the token came,
 * plus a margin for clocks, then sends once more.
 */
const assumedMinFillMs = 3000
const tooFastMarginMs = 750

export type SubmitProgress =
	| { kind: 'retrying'; attempt: number; attempts: number; delayMs: number }
	| { kind: 'waiting'; delayMs: number }

export type SubmitWithRetriesOptions = {
	/** When the page received its render token (client clock), to work out a TOO_FAST wait. */
	renderTokenReceivedAt: number
	/** A fresh render token when the server says the page is out of date (INVALID_TOKEN). */
	refreshRenderToken: () => Promise<string>
	onProgress?: (progress: SubmitProgress) => void
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/**
 * Sends answers until they are stored or a failure needs the visitor: transient failures are
 * retried with backoff, an out-of-date page fetches a new render token once, a TOO_FAST answer
 * waits and tries once more. Everything else (field errors, closed, deleted, locked, rate
 * limited) is thrown for the page to show.
 */
export async function submitWithRetries(body: Submit, options: SubmitWithRetriesOptions): Promise<SubmitResult> {
	let current = body
	let tokenReceivedAt = options.renderTokenReceivedAt
	let transientFailures = 0
	let hasWaitedForTooFast = false
	let hasRefreshedToken = false
	for (;;) {
		try {
			return await postSubmission(current)
		} catch (error) {
			if (!(error instanceof PublicApiError)) {
				throw error
			}
			if (error.isTransient && transientFailures < submitRetryDelaysMs.length) {
				const delayMs =
					Math.min((error.retryAfterSeconds ?? 0) * 1000, maxRetryAfterMs) ||
					(submitRetryDelaysMs[transientFailures] ?? 0)
				transientFailures += 1
				options.onProgress?.({
					kind: 'retrying',
					attempt: transientFailures + 1,
					attempts: submitRetryDelaysMs.length + 1,
					delayMs,
				})
				await wait(delayMs)
				continue
			}
			if (error.code === 'INVALID_TOKEN' && !hasRefreshedToken) {
				hasRefreshedToken = true
				current = { ...current, renderToken: await options.refreshRenderToken() }
				tokenReceivedAt = Date.now()
				continue
			}
			if (error.code === 'TOO_FAST' && !hasWaitedForTooFast) {
				hasWaitedForTooFast = true
				const fromHeader = error.retryAfterSeconds === null ? null : error.retryAfterSeconds * 1000
				const delayMs =
					fromHeader ?? Math.max(tooFastMarginMs, assumedMinFillMs + tooFastMarginMs - (Date.now() - tokenReceivedAt))
				options.onProgress?.({ kind: 'waiting', delayMs })
				await wait(delayMs)
				continue
			}
			throw error
		}
	}
}
