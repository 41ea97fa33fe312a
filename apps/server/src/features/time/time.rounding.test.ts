import { describe, expect, test } from 'vitest'
import {
	amountFor,
	type Rounding,
	type RoundingMinutes,
	type RoundingMode,
	type RoundingScope,
	roundEntrySeconds,
	roundedTotalSeconds,
	roundingMinuteSteps,
	roundSeconds,
} from './time.rounding.ts'

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

const modes: RoundingMode[] = ['up', 'down', 'nearest']
const scopes: RoundingScope[] = ['entry', 'total']

/** Rounding by walking the multiples of the step: no remainders, no division. */
function bruteRound(seconds: number, mode: RoundingMode, minutes: number): number {
	const step = minutes * 60
	let below = 0
	while (below + step <= seconds) {
		below += step
	}
	const above = below === seconds ? seconds : below + step
	if (mode === 'down') {
		return below
	}
	if (mode === 'up') {
		return above
	}
	return seconds - below < above - seconds ? below : above
}

describe('roundSeconds', () => {
	test.each([
		[0, 'up', 15, 0],
		[0, 'down', 15, 0],
		[0, 'nearest', 15, 0],
		[1, 'up', 15, 900],
		[1, 'down', 15, 0],
		[1, 'nearest', 15, 0],
		[449, 'nearest', 15, 0],
		[450, 'nearest', 15, 900], // exactly half goes up
		[900, 'up', 15, 900],
		[901, 'up', 15, 1800],
		[5399, 'down', 30, 3600],
		[5400, 'nearest', 60 as RoundingMinutes, 7200],
		[179, 'nearest', 6, 0],
		[180, 'nearest', 6, 360],
		[29, 'nearest', 1, 0],
		[30, 'nearest', 1, 60],
		[61, 'up', 1, 120],
		[3_000_000_001, 'up', 10, 3_000_000_600],
	] as const)('%i s %s to %i min is %i s', (seconds, mode, minutes, expected) => {
		expect(roundSeconds(seconds, mode, minutes)).toBe(expected)
	})

	test('every second of two hours, each mode and step, against walking the multiples', () => {
		for (const minutes of roundingMinuteSteps) {
			for (const mode of modes) {
				for (let seconds = 0; seconds <= 7200; seconds++) {
					const rounded = roundSeconds(seconds, mode, minutes)
					if (rounded !== bruteRound(seconds, mode, minutes)) {
						expect({ seconds, mode, minutes, rounded }).toBe(bruteRound(seconds, mode, minutes))
					}
				}
			}
		}
	})

	test('random large durations keep the rounding laws', () => {
		const next = random(7)
		for (let i = 0; i < 20_000; i++) {
			const seconds = Math.floor(next() * 10 ** Math.floor(next() * 12))
			const minutes = roundingMinuteSteps[i % roundingMinuteSteps.length] as RoundingMinutes
			const step = minutes * 60
			const up = roundSeconds(seconds, 'up', minutes)
			const down = roundSeconds(seconds, 'down', minutes)
			const nearest = roundSeconds(seconds, 'nearest', minutes)
			const ok =
				up % step === 0 &&
				down % step === 0 &&
				down <= seconds &&
				seconds <= up &&
				up - down === (seconds % step === 0 ? 0 : step) &&
				(nearest === up || nearest === down) &&
				Math.abs(nearest - seconds) <= step / 2 &&
				roundSeconds(up, 'down', minutes) === up &&
				roundSeconds(nearest, 'up', minutes) === nearest
			if (!ok) {
				expect({ seconds, minutes, up, down, nearest }).toBe('lawful')
			}
		}
	})

	test('refuses what is not a duration or a step', () => {
		expect(() => roundSeconds(-1, 'up', 15)).toThrow(RangeError)
		expect(() => roundSeconds(1.5, 'up', 15)).toThrow(RangeError)
		expect(() => roundSeconds(Number.NaN, 'up', 15)).toThrow(RangeError)
		expect(() => roundSeconds(60, 'up', 0 as RoundingMinutes)).toThrow(RangeError)
		expect(() => roundSeconds(60, 'up', 2.5 as RoundingMinutes)).toThrow(RangeError)
		expect(() => roundSeconds(60, 'sideways' as RoundingMode, 15)).toThrow(RangeError)
	})

	test('the steps the product offers', () => {
		expect(roundingMinuteSteps).toEqual([1, 5, 6, 10, 15, 30])
	})
})

describe('per entry or per total', () => {
	const entries = [600, 600, 600] // three 10-minute entries
	test('per entry rounds each, then adds; per total adds, then rounds once', () => {
		expect(roundedTotalSeconds(entries, { mode: 'up', minutes: 15, scope: 'entry' })).toBe(2700)
		expect(roundedTotalSeconds(entries, { mode: 'up', minutes: 15, scope: 'total' })).toBe(1800)
		expect(roundedTotalSeconds(entries, { mode: 'down', minutes: 15, scope: 'entry' })).toBe(0)
		expect(roundedTotalSeconds(entries, { mode: 'down', minutes: 15, scope: 'total' })).toBe(1800)
		expect(roundedTotalSeconds(entries, { mode: 'nearest', minutes: 15, scope: 'entry' })).toBe(2700)
		expect(roundedTotalSeconds(entries, { mode: 'nearest', minutes: 15, scope: 'total' })).toBe(1800)
		expect(roundedTotalSeconds(entries, null)).toBe(1800)
		expect(roundedTotalSeconds([], { mode: 'up', minutes: 15, scope: 'total' })).toBe(0)
	})

	test('an entry is shown rounded only when the rounding is per entry', () => {
		expect(roundEntrySeconds(600, { mode: 'up', minutes: 15, scope: 'entry' })).toBe(900)
		expect(roundEntrySeconds(600, { mode: 'up', minutes: 15, scope: 'total' })).toBe(600)
		expect(roundEntrySeconds(600, null)).toBe(600)
		expect(() => roundEntrySeconds(-5, null)).toThrow(RangeError)
	})

	test('random groups of entries, every rounding, against brute force', () => {
		const next = random(11)
		for (let i = 0; i < 3000; i++) {
			const entrySeconds = Array.from({ length: Math.floor(next() * 12) }, () => Math.floor(next() * 4 * 3600))
			const rounding: Rounding = {
				mode: modes[Math.floor(next() * 3)] as RoundingMode,
				minutes: roundingMinuteSteps[Math.floor(next() * roundingMinuteSteps.length)] as RoundingMinutes,
				scope: scopes[Math.floor(next() * 2)] as RoundingScope,
			}
			const expected =
				rounding.scope === 'entry'
					? entrySeconds.reduce((sum, s) => sum + bruteRound(s, rounding.mode, rounding.minutes), 0)
					: bruteRound(
							entrySeconds.reduce((sum, s) => sum + s, 0),
							rounding.mode,
							rounding.minutes,
						)
			const total = roundedTotalSeconds(entrySeconds, rounding)
			if (total !== expected) {
				expect({ i, entrySeconds, rounding, total }).toBe(expected)
			}
		}
	})
})

/** seconds × rate / 3600, half-up, by long division on decimal digit strings: no BigInt, no floats. */
function decimalAmount(seconds: number, rate: number): string {
	// product of two decimal strings, schoolbook
	const a = String(seconds).split('').reverse().map(Number)
	const b = String(rate).split('').reverse().map(Number)
	const digits = new Array<number>(a.length + b.length).fill(0)
	a.forEach((x, i) => {
		b.forEach((y, j) => {
			digits[i + j] = (digits[i + j] ?? 0) + x * y
		})
	})
	for (let i = 0; i < digits.length - 1; i++) {
		digits[i + 1] = (digits[i + 1] ?? 0) + Math.floor((digits[i] ?? 0) / 10)
		digits[i] = (digits[i] ?? 0) % 10
	}
	const product = digits
		.reverse()
		.join('')
		.replace(/^0+(?=\d)/, '')
	// divide by 3600, digit by digit
	let quotient = ''
	let remainder = 0
	for (const digit of product) {
		remainder = remainder * 10 + Number(digit)
		quotient += String(Math.floor(remainder / 3600))
		remainder %= 3600
	}
	let result = quotient.replace(/^0+(?=\d)/, '')
	if (remainder * 2 >= 3600) {
		// add one to the decimal string
		const chars = result.split('')
		let i = chars.length - 1
		while (i >= 0 && chars[i] === '9') {
			chars[i] = '0'
			i--
		}
		if (i < 0) {
			chars.unshift('1')
		} else {
			chars[i] = String(Number(chars[i]) + 1)
		}
		result = chars.join('')
	}
	return result
}

describe('amountFor', () => {
	test.each([
		[3600, 12_050, 12_050], // an hour at 120.50 is 120.50
		[5400, 12_050, 18_075],
		[1800, 1, 1], // 0.5 of a minor unit rounds up
		[1799, 1, 0],
		[1, 100, 0], // 0.0277…
		[18, 100, 1], // exactly 0.5
		[17, 100, 0],
		[0, 12_050, 0],
		[3600, 0, 0],
		[900, 9999, 2500], // 2499.75
		[86_400 * 365 * 10, 1_000_000_000, 87_600_000_000_000],
	] as const)('%i s at %i per hour is %i', (seconds, rate, amount) => {
		expect(amountFor(seconds, rate)).toBe(amount)
	})

	test('equals the decimal long-division reference over random seconds and rates, small and huge', () => {
		const next = random(3)
		for (let i = 0; i < 20_000; i++) {
			const seconds = Math.floor(next() * 10 ** Math.floor(next() * 9.5)) // up to ~10 years
			const rate = Math.floor(next() * 10 ** Math.floor(next() * 10)) // up to 10^9 minor units
			const amount = amountFor(seconds, rate)
			const expected = decimalAmount(seconds, rate)
			if (String(amount) !== expected) {
				expect({ seconds, rate, amount }).toBe(expected)
			}
		}
	})

	test('where float arithmetic drifts, it does not', () => {
		// 17:24 at 120.50/h is exactly 34.945, so 34.95; float hours × rate gives 3494.4999… → 34.94.
		expect(amountFor(1044, 12_050)).toBe(3495)
		expect(Math.round((1044 / 3600) * 12_050)).toBe(3494)
		// Past 2^53 the float product itself is rounded.
		expect(amountFor(238_002_946, 942_382_141)).toBe(62_302_701_615_496)
		expect(String(amountFor(238_002_946, 942_382_141))).toBe(decimalAmount(238_002_946, 942_382_141))
		expect(Math.round((238_002_946 * 942_382_141) / 3600)).toBe(62_302_701_615_497)
	})

	test('whole hours are the rate times the hours, exactly', () => {
		const next = random(5)
		for (let i = 0; i < 2000; i++) {
			const hours = Math.floor(next() * 10_000)
			const rate = Math.floor(next() * 1_000_000)
			expect(amountFor(hours * 3600, rate)).toBe(hours * rate)
		}
	})

	test('refuses negative or fractional inputs and amounts past exact integers', () => {
		expect(() => amountFor(-1, 100)).toThrow(RangeError)
		expect(() => amountFor(1.5, 100)).toThrow(RangeError)
		expect(() => amountFor(60, -100)).toThrow(RangeError)
		expect(() => amountFor(60, 10.5)).toThrow(RangeError)
		expect(() => amountFor(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER)).toThrow(/too large/)
	})
})
