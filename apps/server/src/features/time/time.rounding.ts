// Rounding of tracked time and the money it earns, as reports and the invoice hand-off apply
// them (never to the stored rows). Everything is whole numbers: durations are integer seconds,
// amounts integer minor units of the rate's currency, and the one division is done in BigInt.
//
// Definitions (a SQL implementation must give the same numbers):
// - step = minutes × 60 seconds.
//   up:      ceil(s / step) × step      →  ((s + step - 1) / step) * step   (integer division)
//   down:    floor(s / step) × step     →  (s / step) * step
//   nearest: floor((s + step/2) / step) × step — an exact half goes up (7:30 to 15 min is 15:00)
//   0 s stays 0 in every mode; 1 s rounded up to 15 minutes is 15:00 (as Toggl and solidtime do).
// - scope 'entry': each entry's seconds are rounded, then summed; 'total': the sum is rounded once.
//   No rounding (null) is the plain sum.
// - amountFor(s, rate) = floor((s × rate × 2 + 3600) / 7200): rate per hour in minor units,
//   rounded half-up to a whole minor unit. In SQL: (s::numeric * rate * 2 + 3600) / 7200 with
//   div(), or round(s::numeric * rate / 3600) (numeric rounds half away from zero, the same for
//   non-negative values) — never double precision.

export const roundingMinuteSteps = [1, 5, 6, 10, 15, 30] as const

export type RoundingMinutes = (typeof roundingMinuteSteps)[number]
export type RoundingMode = 'up' | 'down' | 'nearest'
export type RoundingScope = 'entry' | 'total'
export type Rounding = { mode: RoundingMode; minutes: RoundingMinutes; scope: RoundingScope }

function assertDuration(seconds: number, name = 'seconds'): void {
	if (!Number.isSafeInteger(seconds) || seconds < 0) {
		throw new RangeError(`${name} must be a whole number of seconds, 0 or more; got ${seconds}.`)
	}
}

/** Seconds rounded up, down or to the nearest multiple of `minutes` minutes. */
export function roundSeconds(seconds: number, mode: RoundingMode, minutes: RoundingMinutes): number {
	assertDuration(seconds)
	if (!Number.isSafeInteger(minutes) || minutes < 1) {
		throw new RangeError(`A rounding step must be a whole number of minutes, 1 or more; got ${minutes}.`)
	}
	const step = minutes * 60
	const remainder = seconds % step
	const down = seconds - remainder
	switch (mode) {
		case 'down':
			return down
		case 'up':
			return remainder === 0 ? seconds : down + step
		case 'nearest':
			return remainder * 2 >= step ? down + step : down
		default:
			throw new RangeError(`Unknown rounding mode ${String(mode satisfies never)}.`)
	}
}

/** One entry's seconds as a report shows them: rounded when the rounding is per entry. */
export function roundEntrySeconds(seconds: number, rounding: Rounding | null): number {
	assertDuration(seconds)
	return rounding?.scope === 'entry' ? roundSeconds(seconds, rounding.mode, rounding.minutes) : seconds
}

/** The total of a group of entries under a rounding: per entry, then summed; or the sum, rounded once. */
export function roundedTotalSeconds(entrySeconds: readonly number[], rounding: Rounding | null): number {
	let total = 0
	for (const seconds of entrySeconds) {
		total += roundEntrySeconds(seconds, rounding)
	}
	if (!Number.isSafeInteger(total)) {
		throw new RangeError('The total is too large to add up exactly.')
	}
	return rounding?.scope === 'total' ? roundSeconds(total, rounding.mode, rounding.minutes) : total
}

/**
 * What `seconds` of work earn at `rateMinorUnits` per hour (e.g. 12050 for 120.50 EUR/h), in
 * minor units, rounded half-up: exact for any inputs whose result is a safe integer.
 */
export function amountFor(seconds: number, rateMinorUnits: number): number {
	assertDuration(seconds)
	if (!Number.isSafeInteger(rateMinorUnits) || rateMinorUnits < 0) {
		throw new RangeError(`A rate must be whole minor units, 0 or more; got ${rateMinorUnits}.`)
	}
	const amount = (BigInt(seconds) * BigInt(rateMinorUnits) * 2n + 3600n) / 7200n
	if (amount > BigInt(Number.MAX_SAFE_INTEGER)) {
		throw new RangeError('The amount is too large to represent exactly.')
	}
	return Number(amount)
}
