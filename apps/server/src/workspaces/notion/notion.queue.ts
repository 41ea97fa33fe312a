import type { APIResponseError } from '@notionhq/client'
import {
	APIErrorCode,
	InvalidPathParameterError,
	isHTTPResponseError,
	isNotionClientError,
	RequestTimeoutError,
} from '@notionhq/client'
import { ConnectorError } from '#src/workspaces/connector.ts'

// Every Notion call of the process goes through one queue, keyed by Notion workspace: Notion's
// limits are per connection and per workspace, so syncs, deliveries and dashboard reads of one
// workspace share one budget, while different workspaces never slow each other down.

export type NotionQueueOptions = {
	/** Average calls started per second and key (Notion documents about 3). */
	requestsPerSecond?: number
	/** Calls that may start back to back after a quiet spell. */
	burst?: number
	/** How long one call may spend waiting out rate limits (Retry-After) before giving up. */
	maxWaitMs?: number
	/** Retries of 5xx and timeouts, for idempotent calls only. */
	maxRetries?: number
	/** First backoff delay of those retries; doubles each time. */
	retryDelayMs?: number
	now?: () => number
	sleep?: (ms: number) => Promise<void>
}

export type NotionQueue = {
	run: <T>(workspaceKey: string, call: () => Promise<T>, options?: { idempotent?: boolean }) => Promise<T>
}

type KeyState = {
	tokens: number
	refilledAt: number
	/** No call of this key starts before this instant (a 429/529 answered with Retry-After). */
	pausedUntil: number
	/** Token grants are handed out one at a time, in arrival order. */
	gate: Promise<void>
}

const defaultRetryAfterMs = 1000
const transientStatuses = new Set([500, 502, 503, 504])

/** `Retry-After` in milliseconds: seconds, or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(headers: unknown, now: number): number | undefined {
	let raw: string | null | undefined
	if (headers && typeof (headers as { get?: unknown }).get === 'function') {
		raw = (headers as { get: (name: string) => string | null }).get('retry-after')
	} else if (headers && typeof headers === 'object') {
		const entry = Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after')
		raw = entry ? String(entry[1]) : undefined
	}
	if (!raw) {
		return undefined
	}
	const seconds = Number(raw)
	if (Number.isFinite(seconds)) {
		return Math.max(0, seconds * 1000)
	}
	const date = Date.parse(raw)
	return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

function isRateLimit(error: unknown): error is APIResponseError {
	return (
		isHTTPResponseError(error) &&
		(error.code === APIErrorCode.RateLimited ||
			error.code === APIErrorCode.ServiceOverload ||
			error.status === 429 ||
			error.status === 529)
	)
}

function isTransient(error: unknown): boolean {
	if (RequestTimeoutError.isRequestTimeoutError(error)) {
		return true
	}
	if (isHTTPResponseError(error)) {
		return (
			transientStatuses.has(error.status) ||
			error.code === APIErrorCode.InternalServerError ||
			error.code === APIErrorCode.ServiceUnavailable ||
			error.code === APIErrorCode.GatewayTimeout ||
			error.code === APIErrorCode.ConflictError
		)
	}
	// fetch itself failing (connection refused or reset) is an outage too.
	return error instanceof TypeError && error.message === 'fetch failed'
}

const propertyPatterns = [
	/body\.properties\.(.+?)\.(?:title|rich_text|number|url|select|multi_select|status|date|checkbox|email|phone_number|people|files|relation|place|verification|id|name|type)\b/,
	/^(.+?) is expected to be /,
	/^(.+?) is not a property that exists/,
	/^(.+?) is an? [a-z_]+ property\b/,
	/^Could not find property with name or id: (.+?)\.?$/,
	/ for property "?(.+?)"?(?:[.:](?: |$)|$)/,
	/^(.+?): (?:could not find|related page)/,
	/^Property "?(.+?)"? (?:is|has|does|cannot|must)\b/,
]

/** The property Notion's validation message names, when it names one. */
export function propertyFromMessage(message: string): string | undefined {
	for (const pattern of propertyPatterns) {
		const match = pattern.exec(message)
		if (match?.[1]) {
			return match[1]
		}
	}
	return undefined
}

/** Our error for what Notion answered. */
export function toConnectorError(error: unknown): ConnectorError {
	if (error instanceof ConnectorError) {
		return error
	}
	const message = error instanceof Error ? error.message : String(error)
	if (isRateLimit(error) || isTransient(error)) {
		return new ConnectorError('unavailable', `Notion is unavailable: ${message}`, { cause: error })
	}
	if (isHTTPResponseError(error)) {
		if (error.status === 401 || error.code === APIErrorCode.Unauthorized) {
			return new ConnectorError('unauthorized', message, { cause: error })
		}
		if (error.status === 403 || error.code === APIErrorCode.RestrictedResource) {
			// The connection lacks a capability (insert, update, read): only reconnecting fixes it.
			return new ConnectorError('unauthorized', message, { cause: error })
		}
		if (error.status === 404 || error.code === APIErrorCode.ObjectNotFound) {
			return new ConnectorError('not_found', message, { cause: error })
		}
		if (error.status >= 400 && error.status < 500) {
			return new ConnectorError('invalid', message, { cause: error, property: propertyFromMessage(message) })
		}
		return new ConnectorError('unavailable', `Notion is unavailable: ${message}`, { cause: error })
	}
	if (InvalidPathParameterError.isInvalidPathParameterError(error)) {
		// An id no Notion object can have.
		return new ConnectorError('not_found', message, { cause: error })
	}
	return new ConnectorError('unavailable', message, { cause: error })
}

export function createNotionQueue(options: NotionQueueOptions = {}): NotionQueue {
	const rate = options.requestsPerSecond ?? 3
	const burst = Math.max(1, options.burst ?? Math.max(1, Math.round(rate)))
	const maxWaitMs = options.maxWaitMs ?? 120_000
	const maxRetries = options.maxRetries ?? 3
	const retryDelayMs = options.retryDelayMs ?? 500
	const now = options.now ?? Date.now
	const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
	const states = new Map<string, KeyState>()
	const msPerToken = 1000 / rate

	function stateOf(key: string): KeyState {
		let state = states.get(key)
		if (!state) {
			state = { tokens: burst, refilledAt: now(), pausedUntil: 0, gate: Promise.resolve() }
			states.set(key, state)
		}
		return state
	}

	/** Waits for this key's turn: the pause over and a token available. */
	async function acquire(state: KeyState, deadline: number): Promise<void> {
		for (;;) {
			const time = now()
			if (state.pausedUntil > time) {
				if (state.pausedUntil > deadline) {
					throw new ConnectorError('unavailable', 'Notion rate limit: waiting longer than allowed')
				}
				await sleep(state.pausedUntil - time)
				continue
			}
			if (time > state.refilledAt) {
				state.tokens = Math.min(burst, state.tokens + (time - state.refilledAt) / msPerToken)
				state.refilledAt = time
			}
			if (state.tokens >= 1) {
				state.tokens -= 1
				return
			}
			await sleep(Math.ceil((1 - state.tokens) * msPerToken))
		}
	}

	function turn(state: KeyState, deadline: number): Promise<void> {
		const granted = state.gate.then(() => acquire(state, deadline))
		// The next caller waits for this grant, whether it succeeded or gave up.
		state.gate = granted.catch(() => undefined)
		return granted
	}

	async function run<T>(workspaceKey: string, call: () => Promise<T>, runOptions?: { idempotent?: boolean }) {
		const state = stateOf(workspaceKey)
		const deadline = now() + maxWaitMs
		let retries = 0
		for (;;) {
			await turn(state, deadline)
			try {
				return await call()
			} catch (error) {
				if (isRateLimit(error)) {
					const time = now()
					const until = time + (retryAfterMs(error.headers, time) ?? defaultRetryAfterMs)
					if (until > deadline) {
						throw new ConnectorError('unavailable', `Notion rate limit: ${error.message}`, { cause: error })
					}
					// Pause the whole key: every call of this workspace would meet the same limit.
					if (until > state.pausedUntil) {
						state.pausedUntil = until
						// One call may go the moment the pause ends; the rest follow at the base rate.
						state.tokens = 1
						state.refilledAt = until
					}
					continue
				}
				if (isTransient(error) && runOptions?.idempotent && retries < maxRetries) {
					await sleep(retryDelayMs * 2 ** retries)
					retries += 1
					continue
				}
				if (isNotionClientError(error) || isTransient(error)) {
					throw toConnectorError(error)
				}
				// Our own bugs (or a ConnectorError from inside the call) stay what they are.
				throw error
			}
		}
	}

	return { run }
}
