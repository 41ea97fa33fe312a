import { APIErrorCode, APIResponseError, RequestTimeoutError } from '@notionhq/client'
import { describe, expect, it } from 'vitest'
import { ConnectorError } from '#src/workspaces/connector.ts'
import { createNotionQueue, type NotionQueueOptions, propertyFromMessage, retryAfterMs } from './notion.queue.ts'

/**
 * Virtual time: `sleep` registers a timer, and `settle` advances the clock to the next timer
 * whenever every pending promise has run, until the awaited work is done. Nothing really waits.
 */
function virtualClock() {
	let time = 0
	let timers: Array<{ at: number; resolve: () => void }> = []
	const now = () => time
	const sleep = (ms: number) =>
		new Promise<void>((resolve) => {
			timers.push({ at: time + ms, resolve })
		})
	const flush = () => new Promise<void>((resolve) => setImmediate(resolve))
	async function settle<T>(work: Promise<T>): Promise<T> {
		let done = false
		const tracked = work.finally(() => {
			done = true
		})
		tracked.catch(() => undefined)
		for (;;) {
			await flush()
			if (done) {
				return tracked
			}
			timers.sort((a, b) => a.at - b.at)
			const next = timers[0]
			if (!next) {
				throw new Error('deadlock: nothing pending and the work is not done')
			}
			timers = timers.filter((timer) => timer.at !== next.at)
			const due = [next, ...timers.filter((timer) => timer.at === next.at)]
			time = Math.max(time, next.at)
			for (const timer of due) {
				timer.resolve()
			}
		}
	}
	return { now, sleep, settle }
}

function apiError(status: number, code: APIErrorCode, message = 'nope', headers: Record<string, string> = {}) {
	return new APIResponseError({
		code,
		status,
		message,
		headers,
		rawBodyText: JSON.stringify({ object: 'error', status, code, message }),
		additional_data: undefined,
		request_id: 'req-1',
	})
}

function setup(options: NotionQueueOptions = {}) {
	const clock = virtualClock()
	const queue = createNotionQueue({ now: clock.now, sleep: clock.sleep, ...options })
	const starts: Array<{ key: string; at: number; label: string }> = []
	const call =
		<T>(key: string, label: string, result: () => T | Promise<T>) =>
		async () => {
			starts.push({ key, at: clock.now(), label })
			return result()
		}
	return { clock, queue, starts, call }
}

describe('createNotionQueue', () => {
	it('keeps the average rate of one key', async () => {
		const { clock, queue, starts, call } = setup({ requestsPerSecond: 3, burst: 3 })
		const all = Promise.all(
			Array.from({ length: 30 }, (_, index) =>
				queue.run(
					'ws',
					call('ws', `${index}`, () => index),
				),
			),
		)
		const results = await clock.settle(all)
		expect(results).toEqual(Array.from({ length: 30 }, (_, index) => index))
		// 3 at once (the burst), then one every 333 ms: the 30th starts after 27 more tokens.
		expect(clock.now()).toBeGreaterThanOrEqual(8900)
		expect(clock.now()).toBeLessThan(9500)
		// In any window of one second, at most burst + rate calls start.
		for (const start of starts) {
			const inWindow = starts.filter((other) => other.at >= start.at && other.at < start.at + 1000)
			expect(inWindow.length).toBeLessThanOrEqual(6)
		}
		// Calls start in the order they were queued.
		expect(starts.map((start) => start.label)).toEqual(Array.from({ length: 30 }, (_, index) => `${index}`))
	})

	it('keeps keys independent', async () => {
		const { clock, queue, starts, call } = setup({ requestsPerSecond: 3, burst: 3 })
		const a = Array.from({ length: 12 }, () =>
			queue.run(
				'a',
				call('a', 'a', () => 'a'),
			),
		)
		const b = Array.from({ length: 3 }, () =>
			queue.run(
				'b',
				call('b', 'b', () => 'b'),
			),
		)
		await clock.settle(Promise.all([...a, ...b]))
		const bStarts = starts.filter((start) => start.key === 'b')
		expect(bStarts.map((start) => start.at)).toEqual([0, 0, 0])
		expect(Math.max(...starts.filter((start) => start.key === 'a').map((start) => start.at))).toBeGreaterThanOrEqual(
			2900,
		)
	})

	it('honours Retry-After on 429, pausing every call of the key but not other keys', async () => {
		const { clock, queue, starts, call } = setup({ requestsPerSecond: 100, burst: 100 })
		let limited = true
		const first = queue.run(
			'ws',
			call('ws', 'first', () => {
				if (limited) {
					limited = false
					throw apiError(429, APIErrorCode.RateLimited, 'slow down', { 'Retry-After': '5' })
				}
				return 'first'
			}),
			{ idempotent: false },
		)
		// Let the first call fail and pause the key, then queue more calls.
		await clock.settle(Promise.resolve())
		const second = queue.run(
			'ws',
			call('ws', 'second', () => 'second'),
		)
		const other = queue.run(
			'other',
			call('other', 'other', () => 'other'),
		)
		expect(await clock.settle(Promise.all([first, second, other]))).toEqual(['first', 'second', 'other'])
		const at = (label: string) => starts.filter((start) => start.label === label).map((start) => start.at)
		expect(at('first')).toEqual([0, 5000])
		expect(at('second')[0]).toBeGreaterThanOrEqual(5000)
		expect(at('other')).toEqual([0])
	})

	it('reads Retry-After from a Headers object, defaults to 1 s, and treats 529 the same', async () => {
		const { clock, queue, starts, call } = setup()
		let failures = 0
		const result = queue.run(
			'ws',
			call('ws', 'x', () => {
				failures += 1
				if (failures === 1) {
					throw apiError(529, APIErrorCode.ServiceOverload, 'overloaded', {})
				}
				if (failures === 2) {
					throw new APIResponseError({
						code: APIErrorCode.RateLimited,
						status: 429,
						message: 'slow',
						headers: new Headers({ 'retry-after': '2' }),
						rawBodyText: '',
						additional_data: undefined,
						request_id: undefined,
					})
				}
				return 'ok'
			}),
		)
		expect(await clock.settle(result)).toBe('ok')
		expect(starts.map((start) => start.at)).toEqual([0, 1000, 3000])
		expect(retryAfterMs({ 'retry-after': 'Thu, 01 Jan 1970 00:00:10 GMT' }, 4000)).toBe(6000)
		expect(retryAfterMs({}, 0)).toBeUndefined()
	})

	it('gives up with unavailable once the rate limit outlasts maxWaitMs', async () => {
		const { clock, queue, call } = setup({ maxWaitMs: 10_000 })
		const storm = queue.run(
			'ws',
			call('ws', 'x', () => {
				throw apiError(429, APIErrorCode.RateLimited, 'slow', { 'retry-after': '3' })
			}),
		)
		const error = await clock.settle(storm).catch((caught: unknown) => caught)
		expect(error).toBeInstanceOf(ConnectorError)
		expect(error).toMatchObject({ kind: 'unavailable' })
		expect(clock.now()).toBeLessThanOrEqual(10_000)
	})

	it('pauses the key for a Retry-After longer than the wait budget, then gives up on that call', async () => {
		const { clock, queue, starts, call } = setup({ requestsPerSecond: 10, burst: 10, maxWaitMs: 10_000 })
		const limited = queue.run(
			'ws',
			call('ws', 'limited', () => {
				throw apiError(429, APIErrorCode.RateLimited, 'slow down', { 'Retry-After': '90' })
			}),
		)
		// The call gives up at once: 90 s is more than its 10 s budget.
		await expect(clock.settle(limited)).rejects.toMatchObject({ kind: 'unavailable' })
		expect(clock.now()).toBe(0)
		// The next call must not reach Notion during the pause; it may not wait 90 s either.
		const next = queue.run(
			'ws',
			call('ws', 'next', () => 'next'),
		)
		await expect(clock.settle(next)).rejects.toMatchObject({ kind: 'unavailable' })
		// Other keys are not paused.
		expect(
			await clock.settle(
				queue.run(
					'other',
					call('other', 'other', () => 'other'),
				),
			),
		).toBe('other')
		// 85 s later, the 5 s left of the pause fit in a call's budget: it waits them out.
		await clock.settle(clock.sleep(85_000))
		const later = queue.run(
			'ws',
			call('ws', 'later', () => 'later'),
		)
		expect(await clock.settle(later)).toBe('later')
		expect(starts.map((start) => [start.label, start.at])).toEqual([
			['limited', 0],
			['other', 0],
			['later', 90_000],
		])
	})

	it('moves a call that already holds a slot past a pause this process meets meanwhile', async () => {
		const { clock, queue, starts, call } = setup({ requestsPerSecond: 1, burst: 1 })
		// The first call is answered 429 after 100 ms, while the second waits for its slot at 1 s.
		let isFirstAttempt = true
		const first = queue.run(
			'ws',
			call('ws', 'first', async () => {
				if (isFirstAttempt) {
					isFirstAttempt = false
					await clock.sleep(100)
					throw apiError(429, APIErrorCode.RateLimited, 'slow down', { 'Retry-After': '5' })
				}
				return 'first'
			}),
		)
		const second = queue.run(
			'ws',
			call('ws', 'second', () => 'second'),
		)
		expect(await clock.settle(Promise.all([first, second]))).toEqual(['first', 'second'])
		const after = starts.slice(1).map((start) => start.at)
		expect(Math.min(...after)).toBeGreaterThanOrEqual(5100)
		// Then one call a second again.
		expect(Math.abs((after[1] ?? 0) - (after[0] ?? 0))).toBeGreaterThanOrEqual(1000)
	})

	it('retries 5xx and timeouts for idempotent calls only', async () => {
		const { clock, queue, call } = setup({ maxRetries: 3, retryDelayMs: 100 })
		let attempts = 0
		const read = queue.run(
			'ws',
			call('ws', 'read', () => {
				attempts += 1
				if (attempts === 1) {
					throw apiError(503, APIErrorCode.ServiceUnavailable)
				}
				if (attempts === 2) {
					throw new RequestTimeoutError()
				}
				return 'read'
			}),
			{ idempotent: true },
		)
		expect(await clock.settle(read)).toBe('read')
		expect(attempts).toBe(3)

		let createAttempts = 0
		const create = queue.run(
			'ws',
			call('ws', 'create', () => {
				createAttempts += 1
				throw apiError(502, APIErrorCode.InternalServerError)
			}),
			{ idempotent: false },
		)
		await expect(clock.settle(create)).rejects.toMatchObject({ kind: 'unavailable' })
		expect(createAttempts).toBe(1)

		let stubborn = 0
		const failing = queue.run(
			'ws',
			call('ws', 'failing', () => {
				stubborn += 1
				throw apiError(500, APIErrorCode.InternalServerError)
			}),
			{ idempotent: true },
		)
		await expect(clock.settle(failing)).rejects.toMatchObject({ kind: 'unavailable' })
		expect(stubborn).toBe(4)
	})

	it('translates Notion errors', async () => {
		const { clock, queue } = setup()
		const fail = (error: unknown) =>
			clock.settle(
				queue.run('ws', () => Promise.reject(error), { idempotent: true }).catch((caught: unknown) => caught),
			)
		expect(
			await fail(
				apiError(
					400,
					APIErrorCode.ValidationError,
					'body failed validation: body.properties.Amount.number should be a number or `null`, instead was `"abc"`.',
				),
			),
		).toMatchObject({ kind: 'invalid', property: 'Amount' })
		expect(await fail(apiError(400, APIErrorCode.ValidationError, 'Due date is expected to be date.'))).toMatchObject({
			kind: 'invalid',
			property: 'Due date',
		})
		expect(await fail(apiError(400, APIErrorCode.ValidationError, 'Something else.'))).toMatchObject({
			kind: 'invalid',
			property: undefined,
		})
		expect(await fail(apiError(401, APIErrorCode.Unauthorized))).toMatchObject({ kind: 'unauthorized' })
		expect(await fail(apiError(403, APIErrorCode.RestrictedResource))).toMatchObject({ kind: 'forbidden' })
		expect(await fail(apiError(404, APIErrorCode.ObjectNotFound))).toMatchObject({ kind: 'not_found' })
		const bug = new RangeError('our bug')
		expect(await fail(bug)).toBe(bug)
	})

	it('extracts property names from Notion messages', () => {
		expect(propertyFromMessage('Tags is not a property that exists.')).toBe('Tags')
		expect(
			propertyFromMessage('body failed validation: body.properties.Client.relation.length should be ≤ `100`'),
		).toBe('Client')
		expect(propertyFromMessage('Could not find property with name or id: Budget')).toBe('Budget')
		expect(propertyFromMessage('Total is a formula property and cannot be written.')).toBe('Total')
		expect(propertyFromMessage('Invalid status option Done for property Stage.')).toBe('Stage')
		expect(propertyFromMessage('Invalid select option name for property Kind: commas are not allowed.')).toBe('Kind')
		expect(propertyFromMessage('Owner: could not find user with ID: 123.')).toBe('Owner')
		expect(propertyFromMessage('Client: related page abc does not exist in the related data source x.')).toBe('Client')
		expect(propertyFromMessage('Invalid request URL.')).toBeUndefined()
		expect(propertyFromMessage('body failed validation: body.parent should be defined.')).toBeUndefined()
	})
})
