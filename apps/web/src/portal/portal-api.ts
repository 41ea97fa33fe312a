import type { PortalSession } from '@blocksmith/contracts/portals.ts'

// The portal visitor's calls to /api/portal/{slug}/…, on plain `fetch`: not lib/api-client.ts,
// which carries the dashboard's session (a portal member is a different kind of account, whose
// token the dashboard never sees), and the page must stay small. Contract types only: the
// schemas (zod) never reach this bundle.

/** A failed call, from the server's problem+json; status 0 and code NETWORK when it never arrived. */
export class PortalApiError extends Error {
	readonly status: number
	readonly code: string

	constructor(status: number, code: string, detail: string) {
		super(detail)
		this.name = 'PortalApiError'
		this.status = status
		this.code = code
	}
}

async function readProblem(response: Response): Promise<PortalApiError> {
	const fallback =
		response.status >= 500 ? 'Something went wrong on our side. Try again in a moment.' : 'The request failed.'
	try {
		const body = (await response.json()) as { code?: unknown; detail?: unknown }
		if (typeof body.code === 'string' && typeof body.detail === 'string') {
			return new PortalApiError(response.status, body.code, body.detail)
		}
	} catch {
		// Not JSON (a proxy's error page): the fallback says enough.
	}
	return new PortalApiError(response.status, response.status >= 500 ? 'INTERNAL' : 'UNKNOWN', fallback)
}

/** A GET, or a POST of `json`, to the portal's API; failures as PortalApiError. */
export async function portalRequest<T>(
	slug: string,
	path: string,
	options: { json?: unknown; token?: string | null; signal?: AbortSignal } = {},
): Promise<T> {
	const headers: Record<string, string> = { accept: 'application/json' }
	if (options.json !== undefined) {
		headers['content-type'] = 'application/json'
	}
	if (options.token) {
		headers.authorization = `Bearer ${options.token}`
	}
	let response: Response
	try {
		response = await fetch(`/api/portal/${encodeURIComponent(slug)}${path}`, {
			method: options.json === undefined ? 'GET' : 'POST',
			headers,
			// The session travels as a bearer token only: no cookie of the main site goes along.
			credentials: 'omit',
			...(options.json === undefined ? {} : { body: JSON.stringify(options.json) }),
			...(options.signal ? { signal: options.signal } : {}),
		})
	} catch (error) {
		if ((error as Error).name === 'AbortError') {
			throw error
		}
		throw new PortalApiError(0, 'NETWORK', 'Could not reach the server. Check your connection.')
	}
	if (!response.ok) {
		throw await readProblem(response)
	}
	if (response.status === 202 || response.status === 204) {
		return undefined as T
	}
	const text = await response.text()
	return (text ? JSON.parse(text) : undefined) as T
}

// ---- the member's session ------------------------------------------------------------------

// One key per portal: a visitor may belong to two portals on this server (each /p/{slug}) and
// each session is valid for its own portal only.
const sessionKeyPrefix = 'blocksmith.portal-session.'

export function sessionKey(slug: string): string {
	return sessionKeyPrefix + slug.toLowerCase()
}

export function readSession(slug: string): PortalSession | null {
	try {
		const saved = JSON.parse(window.localStorage.getItem(sessionKey(slug)) ?? 'null') as Partial<PortalSession> | null
		if (
			typeof saved?.token === 'string' &&
			typeof saved.expiresAt === 'string' &&
			Date.parse(saved.expiresAt) > Date.now()
		) {
			return { token: saved.token, expiresAt: saved.expiresAt }
		}
	} catch {
		// Storage blocked or damaged: signed out.
	}
	return null
}

export function writeSession(slug: string, session: PortalSession | null): void {
	try {
		if (session) {
			window.localStorage.setItem(sessionKey(slug), JSON.stringify(session))
		} else {
			window.localStorage.removeItem(sessionKey(slug))
		}
	} catch {
		// Storage blocked: the session lasts as long as the page.
	}
}
