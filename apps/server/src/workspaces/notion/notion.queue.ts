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
	/**
	 * Calls that may start back to back after a quiet spell. Default: one less than the rate
	 * (2 at 3/s), which leaves Notion's bucket a token of slack for network jitter.
	 */
	burst?: number
	/**
	 * Where the pace and the pauses of each key are kept. Default: this process only (with the
	 * injected `now`); the server passes the database's limiter, shared by every instance.
	 */
	limiter?: NotionRateLimiter
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

/**
 * The pace of each key: a "next free slot" scheme (GCRA, equivalent to a token bucket of
 * `burst` tokens refilled at `requestsPerSecond`). Each reservation takes the earliest slot
 * the pace allows and moves the key's next slot on by one interval.
 */
export type NotionRateLimiter = {
	/**
	 * Takes the key's next start slot and answers how many milliseconds to wait for it; or,
	 * when the key is paused for longer than `budgetMs` from now, takes nothing and answers null.
	 */
	reserve: (key: string, budgetMs: number) => Promise<number | null>
	/** Nothing of `key` starts in the next `ms`; at its end one call may go at once, the rest at the base rate. */
	pause: (key: string, ms: number) => Promise<void>
}

/**
 * The pace of a key in slot terms: one interval between slots, and how far ahead of time a
 * burst may start. Notion counts calls when they arrive, a few varying milliseconds after their
 * slots: a burst as large as Notion's own put calls at the very edge of its bucket, where one that
 * arrived a little sooner than the one before it met a 429. One token less absorbs that jitter
 * and costs nothing of the average rate.
 */
export function slotPacing(options: { requestsPerSecond?: number | undefined; burst?: number | undefined }) {
	const rate = options.requestsPerSecond ?? 3
	const burst = Math.max(1, options.burst ?? Math.round(rate) - 1)
	const intervalMs = 1000 / rate
	return { intervalMs, burstToleranceMs: (burst - 1) * intervalMs }
}

/** The limiter of one process: a key's next slot and pause in memory. */
function createMemoryRateLimiter(options: {
	requestsPerSecond?: number | undefined
	burst?: number | undefined
	now: () => number
}): NotionRateLimiter {
	const { intervalMs, burstToleranceMs } = slotPacing(options)
	const keys = new Map<string, { allowedAt: number; pausedUntil: number }>()
	const stateOf = (key: string) => {
		let state = keys.get(key)
		if (!state) {
			state = { allowedAt: Number.NEGATIVE_INFINITY, pausedUntil: Number.NEGATIVE_INFINITY }
			keys.set(key, state)
		}
		return state
	}
	return {
		reserve: async (key, budgetMs) => {
			const state = stateOf(key)
			const time = options.now()
			if (state.pausedUntil > time + budgetMs) {
				return null
			}
			const slot = Math.max(time, state.allowedAt)
			state.allowedAt = Math.max(state.allowedAt, time - burstToleranceMs) + intervalMs
			return slot - time
		},
		pause: async (key, ms) => {
			const state = stateOf(key)
			const until = options.now() + ms
			state.pausedUntil = Math.max(state.pausedUntil, until)
			state.allowedAt = Math.max(state.allowedAt, until)
		},
	}
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
			// The token works, but lacks a capability (read, insert, update content) or the page is not
			// shared with the connection: a fix in Notion's sharing, not a new token.
			return new ConnectorError('forbidden', message, { cause: error })
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
	const maxWaitMs = options.maxWaitMs ?? 120_000
	const maxRetries = options.maxRetries ?? 3
	const retryDelayMs = options.retryDelayMs ?? 500
	const now = options.now ?? Date.now
	const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)))
	const limiter =
		options.limiter ??
		createMemoryRateLimiter({ requestsPerSecond: options.requestsPerSecond, burst: options.burst, now })
	/**
	 * Per key, in this process: calls take their turn one at a time, in arrival order, each
	 * holding the turn until its slot comes (so a process holds at most one reserved slot per
	 * key), and the pauses this process recorded, which a call already holding a slot respects.
	 */
	const gates = new Map<string, Promise<void>>()
	const pausedUntil = new Map<string, number>()

	/** Waits for this key's turn: the pause over and a slot of the pace reached. */
	async function acquire(key: string, deadline: number): Promise<void> {
		for (;;) {
			const waitMs = await limiter.reserve(key, deadline - now())
			if (waitMs === null) {
				throw new ConnectorError('unavailable', 'Notion rate limit: waiting longer than allowed')
			}
			if (waitMs > 0) {
				await sleep(Math.ceil(waitMs))
			}
			// A 429 met by this process while the slot was waited for: the slot falls inside the
			// pause, so take a new one after it.
			if ((pausedUntil.get(key) ?? 0) <= now()) {
				return
			}
		}
	}

	function turn(key: string, deadline: number): Promise<void> {
		const granted = (gates.get(key) ?? Promise.resolve()).then(() => acquire(key, deadline))
		// The next caller waits for this grant, whether it succeeded or gave up.
		const gate = granted.catch(() => undefined)
		gates.set(key, gate)
		// A key nobody waits on is forgotten.
		void gate.then(() => {
			if (gates.get(key) === gate) {
				gates.delete(key)
			}
		})
		return granted
	}

	async function run<T>(workspaceKey: string, call: () => Promise<T>, runOptions?: { idempotent?: boolean }) {
		const deadline = now() + maxWaitMs
		let retries = 0
		for (;;) {
			await turn(workspaceKey, deadline)
			try {
				return await call()
			} catch (error) {
				if (isRateLimit(error)) {
					// Pause the whole key, here and in every other instance, even when this call gives
					// up: every call of this workspace would meet the same limit until Retry-After ends.
					const time = now()
					const waitMs = retryAfterMs(error.headers, time) ?? defaultRetryAfterMs
					const until = time + waitMs
					if (until > (pausedUntil.get(workspaceKey) ?? 0)) {
						pausedUntil.set(workspaceKey, until)
					}
					await limiter.pause(workspaceKey, waitMs)
					if (until > deadline) {
						throw new ConnectorError('unavailable', `Notion rate limit: ${error.message}`, { cause: error })
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
