import { describe, expect, test } from 'vitest'
import { formatDecimalHours, formatDuration, maxDayCellSeconds, parseDuration } from './time-duration.ts'

/** A small seeded generator (mulberry32), so a failing random case can be replayed. */
function random(seed: number): () => number {
	let state = seed >>> 0
	return () => {
		state = (state + 0x6d2b79f5) >>> 0
		let t = state
		t = Math.imul(t ^ (t >>> 15), t | 1)
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296
	}
}

function secondsOf(input: string, maxSeconds?: number): number | null {
	const parsed = parseDuration(input, maxSeconds === undefined ? {} : { maxSeconds })
	if (!parsed.ok) {
		throw new Error(`${input}: ${parsed.message}`)
	}
	return parsed.seconds
}

function messageOf(input: string, maxSeconds?: number): string {
	const parsed = parseDuration(input, maxSeconds === undefined ? {} : { maxSeconds })
	if (parsed.ok) {
		throw new Error(`${input} parsed as ${parsed.seconds}`)
	}
	return parsed.message
}

describe('parseDuration accepts', () => {
	test.each([
		['', null],
		['   ', null],
		['0', 0],
		['0:00', 0],
		['0h', 0],
		['1:30', 5400],
		['01:30', 5400],
		['1:30:15', 5415],
		['0:00:01', 1],
		[':45', 2700],
		['24:00', 86_400],
		['23:59:59', 86_399],
		['1.5h', 5400],
		['1,5h', 5400],
		['1,5 h', 5400],
		['1.5', 5400],
		['1,5', 5400],
		['.25', 900],
		[',75', 2700],
		['2', 7200],
		['8', 28_800],
		['0.1', 360],
		['90m', 5400],
		['90 min', 5400],
		['90min', 5400],
		['90 mins', 5400],
		['90 minutes', 5400],
		['1 minute', 60],
		['45s', 45],
		['45 sec', 45],
		['45 secs', 45],
		['45 seconds', 45],
		['1h 30m', 5400],
		['1h30m', 5400],
		['1h30m15s', 5415],
		['1 h 30 m 15 s', 5415],
		['1 hour 30 minutes', 5400],
		['2 hours', 7200],
		['2 hrs', 7200],
		['2hr', 7200],
		['1h30', 5400],
		['1h 30', 5400],
		['1h 05', 3900],
		['2m30', 150],
		['1h 2m 3', 3723],
		['30m 1h', 5400],
		['15s 1m', 75],
		['1.5h 15m', 6300],
		['0.5m', 30],
		['1.5s', 2],
		['0.5s 0.5m', 31],
		['1.00014h', 3601],
		['0.0001h', 0],
		['0.000139h', 1],
		['1.999999h', 7200],
		['1H30M', 5400],
		['  1:30  ', 5400],
		['1.5 H', 5400],
		['1440m', 86_400],
		['86400s', 86_400],
		['24h', 86_400],
	] as const)('%j is %j seconds', (input, seconds) => {
		expect(parseDuration(input)).toEqual({ ok: true, seconds })
	})
})

describe('parseDuration refuses, naming the problem', () => {
	test.each([
		['-1:30', /cannot be negative/],
		['-2h', /cannot be negative/],
		['+2h', /leave out the sign/],
		['1:5', /two digits/],
		['1:300', /two digits/],
		['1:30:5', /two digits/],
		['1:75', /minutes must be 00 to 59/],
		['1:30:60', /seconds must be 00 to 59/],
		['1:', /is not a duration/],
		['1:30:15:10', /is not a duration/],
		['1 : 30', /is not a duration/],
		['abc', /is not a duration.*1:30, 1\.5h or 90m/],
		['h', /is not a duration/],
		['1.5.5', /needs a unit|is not a duration/],
		['1.', /is not a duration/],
		['2d', /days are not accepted.*16h/],
		['1 day', /days are not accepted/],
		['1w', /weeks are not accepted/],
		['1x', /unknown unit "x"/],
		['1hh', /unknown unit "hh"/],
		['1h 2h', /hours are given twice/],
		['30m 1h 15m', /minutes are given twice/],
		['1h30 15s', /"30" needs a unit/],
		['1 30', /"1" needs a unit/],
		['5s30', /"30" needs a unit/],
		['1h60', /whole 0 to 59/],
		['1h 1.5', /whole 0 to 59/],
		['1.1234567', /too many decimals/],
		['1.1234567h', /too many decimals/],
		['24:01', /too long\. A day holds at most 24:00/],
		['24:00:01', /too long/],
		['25h', /too long/],
		['1441m', /too long/],
		['24.0003', /too long/],
		['99999999999999999999999:00', /too long/],
		['１:３０', /is not a duration/],
	] as const)('%j', (input, message) => {
		expect(messageOf(input)).toMatch(message)
	})

	test('the message quotes what was typed, trimmed and in its own case', () => {
		expect(messageOf('  2D ')).toMatch(/^"2D": /)
	})
})

describe('the limit', () => {
	test('a day cell holds 24:00 by default', () => {
		expect(maxDayCellSeconds).toBe(86_400)
		expect(secondsOf('24:00')).toBe(86_400)
		expect(messageOf('24:00:01')).toMatch(/A day holds at most 24:00/)
	})

	test('callers can set another limit, named in the message', () => {
		expect(secondsOf('100:00', 200 * 3600)).toBe(360_000)
		expect(secondsOf('8:00', 8 * 3600)).toBe(28_800)
		expect(messageOf('8:00:01', 8 * 3600)).toMatch(/The most is 8:00\./)
		expect(messageOf('1m', 59)).toMatch(/The most is 0:00:59\./)
	})

	test('the limit applies after rounding', () => {
		expect(secondsOf('24.0001')).toBe(86_400)
	})
})

describe('formatDuration', () => {
	test('examples', () => {
		expect(formatDuration(0)).toBe('0:00')
		expect(formatDuration(59)).toBe('0:00:59')
		expect(formatDuration(5400)).toBe('1:30')
		expect(formatDuration(5415)).toBe('1:30:15')
		expect(formatDuration(86_400)).toBe('24:00')
		expect(formatDuration(93_600)).toBe('26:00')
		expect(formatDuration(-5400)).toBe('-1:30')
		expect(formatDuration(5429, { precision: 'minutes' })).toBe('1:30')
		expect(formatDuration(5430, { precision: 'minutes' })).toBe('1:31')
		expect(formatDuration(29, { precision: 'minutes' })).toBe('0:00')
		expect(formatDuration(-5430, { precision: 'minutes' })).toBe('-1:31')
	})

	test('refuses what is not whole seconds', () => {
		expect(() => formatDuration(1.5)).toThrow(RangeError)
		expect(() => formatDuration(Number.NaN)).toThrow(RangeError)
	})

	test('every second of a day reads back to itself, and rounds to the nearest minute', () => {
		for (let seconds = 0; seconds <= maxDayCellSeconds; seconds++) {
			const text = formatDuration(seconds)
			const parsed = parseDuration(text)
			if (!parsed.ok || parsed.seconds !== seconds) {
				expect({ seconds, text, parsed }).toBe('a round trip')
			}
			const minutes = Math.floor((seconds + 30) / 60)
			const expected = `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`
			const shown = formatDuration(seconds, { precision: 'minutes' })
			if (shown !== expected) {
				expect({ seconds, shown }).toBe(expected)
			}
		}
	})
})

describe('formatDecimalHours', () => {
	test('examples', () => {
		expect(formatDecimalHours(5400)).toBe('1.50')
		expect(formatDecimalHours(0)).toBe('0.00')
		expect(formatDecimalHours(1)).toBe('0.00')
		expect(formatDecimalHours(18)).toBe('0.01') // 0.005 h rounds up
		expect(formatDecimalHours(17)).toBe('0.00')
		expect(formatDecimalHours(-18)).toBe('-0.01')
		expect(formatDecimalHours(-17)).toBe('0.00')
		expect(formatDecimalHours(86_400)).toBe('24.00')
		expect(formatDecimalHours(5415, 4)).toBe('1.5042')
		expect(formatDecimalHours(5400, 0)).toBe('2')
		expect(formatDecimalHours(5399, 0)).toBe('1')
		expect(formatDecimalHours(360_000_000, 1)).toBe('100000.0')
	})

	test('refuses bad arguments', () => {
		expect(() => formatDecimalHours(0.5)).toThrow(RangeError)
		expect(() => formatDecimalHours(60, -1)).toThrow(RangeError)
		expect(() => formatDecimalHours(60, 1.5)).toThrow(RangeError)
	})

	test('every second of a day, at 2 decimals against integer arithmetic, and at 6 decimals read back exactly', () => {
		for (let seconds = 0; seconds <= maxDayCellSeconds; seconds++) {
			// hundredths of an hour = seconds / 36, half-up
			const hundredths = Math.floor(seconds / 36) + (2 * (seconds % 36) >= 36 ? 1 : 0)
			const expected = `${Math.floor(hundredths / 100)}.${String(hundredths % 100).padStart(2, '0')}`
			const shown = formatDecimalHours(seconds)
			if (shown !== expected) {
				expect({ seconds, shown }).toBe(expected)
			}
			const precise = formatDecimalHours(seconds, 6)
			const parsed = parseDuration(precise)
			if (!parsed.ok || parsed.seconds !== seconds) {
				expect({ seconds, precise, parsed }).toBe('a round trip')
			}
		}
	})
})

describe('parseDuration over random inputs, against the value each was written from', () => {
	const hourNames = ['h', 'hr', 'hrs', 'hour', 'hours']
	const minuteNames = ['m', 'min', 'mins', 'minute', 'minutes']
	const secondNames = ['s', 'sec', 'secs', 'second', 'seconds']

	function pick<T>(next: () => number, items: readonly T[]): T {
		return items[Math.floor(next() * items.length)] as T
	}
	const pad = (value: number) => String(value).padStart(2, '0')

	/** One way of writing `seconds`, and the seconds it means (decimals round). */
	function write(next: () => number, seconds: number): { text: string; expected: number } {
		const h = Math.floor(seconds / 3600)
		const m = Math.floor((seconds % 3600) / 60)
		const s = seconds % 60
		const space = () => pick(next, ['', ' ', '  '])
		const casing = (text: string) => (next() < 0.2 ? text.toUpperCase() : text)
		switch (Math.floor(next() * 6)) {
			case 0:
				return { text: s === 0 && next() < 0.7 ? `${h}:${pad(m)}` : `${h}:${pad(m)}:${pad(s)}`, expected: seconds }
			case 1: {
				const parts = [
					[h, pick(next, hourNames)],
					[m, pick(next, minuteNames)],
					[s, pick(next, secondNames)],
				]
					.filter(([value]) => value !== 0 || next() < 0.3)
					.sort(() => next() - 0.5)
				if (parts.length === 0) {
					return { text: `0${pick(next, hourNames)}`, expected: 0 }
				}
				const text = parts.map(([value, unit]) => `${value}${space()}${casing(String(unit))}`).join(space() || ' ')
				return { text, expected: seconds }
			}
			case 2:
				return { text: `${h}${casing(pick(next, ['h', 'hr']))}${space()}${m}`, expected: h * 3600 + m * 60 }
			case 3:
				return {
					text: `${Math.floor(seconds / 60)}${space()}${casing(pick(next, minuteNames))}`,
					expected: seconds - s,
				}
			case 4:
				return { text: `${seconds}${space()}${pick(next, secondNames)}`, expected: seconds }
			default: {
				// Decimal hours with 0–6 decimals, "." or ",", with or without a unit.
				const decimals = Math.floor(next() * 7)
				const scaled = Math.round((seconds / 3600) * 10 ** decimals)
				const digits = String(scaled).padStart(decimals + 1, '0')
				const whole = digits.slice(0, digits.length - decimals)
				const fraction = digits.slice(digits.length - decimals)
				const separator = next() < 0.5 ? '.' : ','
				const number = decimals === 0 ? whole : `${whole}${separator}${fraction}`
				const unit = next() < 0.5 ? '' : `${space()}${pick(next, hourNames)}`
				// scaled / 10^decimals hours in seconds, half-up, in exact integers
				const numerator = scaled * 3600
				const denominator = 10 ** decimals
				const expected = Math.floor(numerator / denominator) + (2 * (numerator % denominator) >= denominator ? 1 : 0)
				return { text: `${number}${unit}`, expected }
			}
		}
	}

	test.each([1, 2, 3, 4, 5])('seed %i: 4000 writings of random durations', (seed) => {
		const next = random(seed)
		for (let i = 0; i < 4000; i++) {
			const seconds = Math.floor(next() * (maxDayCellSeconds + 1))
			const { text, expected } = write(next, seconds)
			const parsed = parseDuration(pick(next, ['', ' ']) + text + pick(next, ['', ' ']))
			if (expected > maxDayCellSeconds) {
				expect(parsed.ok).toBe(false)
			} else if (!parsed.ok || parsed.seconds !== expected) {
				expect({ seed, i, text, parsed }).toEqual({ seed, i, text, parsed: { ok: true, seconds: expected } })
			}
		}
	})

	test('random strings never throw: each is a duration within the limit or a message', () => {
		const next = random(99)
		const alphabet = '0123456789:.,hmsdw -+xHMS'
		for (let i = 0; i < 20_000; i++) {
			const length = 1 + Math.floor(next() * 10)
			let text = ''
			for (let j = 0; j < length; j++) {
				text += alphabet[Math.floor(next() * alphabet.length)]
			}
			const parsed = parseDuration(text)
			if (parsed.ok) {
				if (
					parsed.seconds !== null &&
					!(Number.isSafeInteger(parsed.seconds) && parsed.seconds >= 0 && parsed.seconds <= maxDayCellSeconds)
				) {
					expect({ text, parsed }).toBe('within 0..24:00')
				}
			} else {
				expect(parsed.message.length).toBeGreaterThan(0)
			}
		}
	})
})
