import type { FieldError, Problem } from '@blocksmith/contracts/errors.ts'
import type { LimitReached } from '@blocksmith/contracts/subscriptions.ts'
import type { z } from 'zod'
import { readToken } from './token-store.ts'

/** A failed API call, parsed from the server's problem+json (or made up for a network failure). */
export class ApiError extends Error {
	readonly status: number
	readonly code: string
	readonly detail: string
	readonly fieldErrors: FieldError[]
	readonly requestId: string | undefined
	/** With PLAN_LIMIT_REACHED: which limit, its use and the plan. */
	readonly limit: LimitReached | undefined

	constructor(problem: {
		status: number
		code: string
		detail: string
		errors?: FieldError[]
		requestId?: string
		limit?: LimitReached
	}) {
		super(problem.detail)
		this.name = 'ApiError'
		this.status = problem.status
		this.code = problem.code
		this.detail = problem.detail
		this.fieldErrors = problem.errors ?? []
		this.requestId = problem.requestId
		this.limit = problem.limit
	}
}

/** What to tell the user about a failure. */
export function errorMessage(error: unknown): string {
	return error instanceof ApiError ? error.detail : 'Something went wrong. Try again.'
}

type UnauthorizedHandler = () => void
let onUnauthorized: UnauthorizedHandler = () => {}

/** The session registers what a 401 means (clear the token, go to /login). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
	onUnauthorized = handler
}

export type RequestOptions<T> = {
	method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
	json?: unknown
	query?: Record<string, string | number | boolean | undefined>
	schema?: z.ZodType<T>
	signal?: AbortSignal
	/**
	 * A wrong password is a 401 too, but not a lost session: credential checks handle it
	 * themselves instead of being sent to /login.
	 */
	isCredentialCheck?: boolean
}

export type ApiResponse<T> = { data: T; headers: Headers }

export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<ApiResponse<T>> {
	const headers = new Headers({ accept: 'application/json' })
	const token = readToken()
	if (token) {
		headers.set('authorization', `Bearer ${token}`)
	}
	let body: string | undefined
	if (options.json !== undefined) {
		headers.set('content-type', 'application/json')
		body = JSON.stringify(options.json)
	}
	let url = path
	if (options.query) {
		const search = new URLSearchParams()
		for (const [key, value] of Object.entries(options.query)) {
			if (value !== undefined) {
				search.set(key, String(value))
			}
		}
		const text = search.toString()
		url = text ? `${path}?${text}` : path
	}

	let response: Response
	try {
		response = await fetch(url, {
			method: options.method ?? (body === undefined ? 'GET' : 'POST'),
			headers,
			...(body === undefined ? {} : { body }),
			...(options.signal ? { signal: options.signal } : {}),
		})
	} catch (error) {
		if ((error as Error).name === 'AbortError') {
			throw error
		}
		throw new ApiError({ status: 0, code: 'NETWORK', detail: 'Could not reach the server. Check your connection.' })
	}

	if (!response.ok) {
		const problem = await readProblem(response)
		if (response.status === 401 && !options.isCredentialCheck) {
			onUnauthorized()
		}
		throw new ApiError(problem)
	}
	const text = response.status === 204 ? '' : await response.text()
	const raw: unknown = text ? JSON.parse(text) : null
	const data = options.schema ? options.schema.parse(raw) : (raw as T)
	return { data, headers: response.headers }
}

/** Shorthand for the common case: the body only. */
export async function api<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
	return (await apiRequest(path, options)).data
}

async function readProblem(response: Response): Promise<Problem & { code: string }> {
	const fallback = {
		type: 'about:blank',
		title: response.statusText,
		status: response.status,
		code: response.status >= 500 ? 'INTERNAL' : 'UNKNOWN',
		detail: response.status >= 500 ? 'Something went wrong on our side. Try again in a moment.' : 'The request failed.',
	}
	try {
		const body = (await response.json()) as Partial<Problem>
		if (typeof body.detail === 'string' && typeof body.code === 'string') {
			return { ...fallback, ...body, code: body.code, detail: body.detail }
		}
	} catch {
		// Not JSON (a proxy's error page, say): use the fallback.
	}
	return fallback as Problem & { code: string }
}
