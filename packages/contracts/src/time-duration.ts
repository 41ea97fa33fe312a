// Durations as people type them into a weekly timesheet cell, and as the product writes them
// back. The web parses as the user types (to show the error under the cell at once) and the
// server parses again before it stores anything, so both run this one module. It imports
// nothing: durations are whole seconds, decimals are read as exact integers (BigInt), so
// "0.1h" is 360 s on both sides and a value never drifts through a float.
//
// What a cell accepts (case-insensitive, spaces around the parts are ignored):
//   ""                   → null (the cell is cleared); "0", "0:00", "0h" → 0 (a zero entry)
//   "1:30", "1:30:15"    → hours:minutes[:seconds]; minutes and seconds have two digits, 00–59;
//                          hours may be empty (":45" is 45 minutes)
//   "1.5", "1,5", ".25"  → decimal hours (a comma is a decimal separator, never thousands)
//   "1.5h", "1,5 h"      → with a unit; units: h hr hrs hour hours · m min mins minute minutes ·
//                          s sec secs second seconds; decimals allowed on any unit
//   "90m", "90 min", "45s", "1h 30m", "1h30m15s", "1 hour 30 minutes", "30m 1h"
//                        → parts add up; each unit at most once, in any order
//   "1h30", "1h 30", "2m30" → a bare whole number after hours is minutes, after minutes is
//                          seconds (00–59, as on a clock)
// Rejected with a message that names the problem: negative or signed values, days or weeks
// ("2d" is ambiguous: a working day or 24 hours? type "16h"), unknown units, a unit given twice,
// minutes or seconds past 59 in clock forms, more than 6 decimals, anything else.
// Decimals are rounded half-up to the whole second ("0.0001h" is 0 s, "1.00014h" is 3601 s).
// A day cell holds at most 24:00 (`maxDayCellSeconds`), even on a 25-hour DST day: the grid is
// per calendar day, and an entry longer than that is a start/end entry, not a cell. Callers
// that parse something other than a day cell pass their own `maxSeconds`.

/** The most one day's cell in the timesheet can hold: 24:00. */
export const maxDayCellSeconds = 86_400

export type DurationParse = { ok: true; seconds: number | null } | { ok: false; message: string }

export type ParseDurationOptions = {
	/** Inclusive upper bound in seconds; defaults to a day cell's 24:00. */
	maxSeconds?: number
}

const unitSeconds: Record<string, 'h' | 'm' | 's'> = {
	h: 'h',
	hr: 'h',
	hrs: 'h',
	hour: 'h',
	hours: 'h',
	m: 'm',
	min: 'm',
	mins: 'm',
	minute: 'm',
	minutes: 'm',
	s: 's',
	sec: 's',
	secs: 's',
	second: 's',
	seconds: 's',
}

const secondsPerUnit = { h: 3600n, m: 60n, s: 1n } as const
const unitNames = { h: 'Hours', m: 'Minutes', s: 'Seconds' } as const
const rejectedUnits: Record<string, string> = {
	d: 'days',
	day: 'days',
	days: 'days',
	w: 'weeks',
	wk: 'weeks',
	week: 'weeks',
	weeks: 'weeks',
}

const maxDecimals = 6
const microsPerSecond = 1_000_000n
const hint = 'Type a duration such as 1:30, 1.5h or 90m.'

const colonForm = /^(\d*):(\d+)(?::(\d+))?$/
const numberForm = /^(?:\d+(?:[.,]\d+)?|[.,]\d+)$/
// One part of the unit form: a number, then optionally letters naming its unit.
const partForm = /\s*(\d+(?:[.,]\d+)?|[.,]\d+)\s*([a-z]*)\s*/y

function fail(message: string): DurationParse {
	return { ok: false, message }
}

/** A decimal string ("1,25") as an exact fraction: 125 / 10^2. */
function decimalParts(text: string): { numerator: bigint; scale: bigint; decimals: number } {
	const [whole = '', fraction = ''] = text.replace(',', '.').split('.')
	return {
		numerator: BigInt(`${whole}${fraction}` || '0'),
		scale: 10n ** BigInt(fraction.length),
		decimals: fraction.length,
	}
}

/** numerator / denominator rounded half-up, both non-negative. */
function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
	return (numerator * 2n + denominator) / (denominator * 2n)
}

function withinLimit(input: string, total: bigint, maxSeconds: number): DurationParse {
	if (total > BigInt(maxSeconds)) {
		const limit = formatDuration(maxSeconds)
		const what = maxSeconds === maxDayCellSeconds ? 'A day holds at most 24:00.' : `The most is ${limit}.`
		return fail(`"${input}" is too long. ${what}`)
	}
	return { ok: true, seconds: Number(total) }
}

/**
 * Reads a duration typed into a timesheet cell (see the header for the syntax). Empty input is
 * null; anything else is whole seconds or a message saying what is wrong, fit to show under the
 * field.
 */
export function parseDuration(input: string, options: ParseDurationOptions = {}): DurationParse {
	const maxSeconds = options.maxSeconds ?? maxDayCellSeconds
	const shown = input.trim()
	const text = shown.toLowerCase()
	if (text === '') {
		return { ok: true, seconds: null }
	}
	if (text.startsWith('-')) {
		return fail(`"${shown}": a duration cannot be negative.`)
	}
	if (text.startsWith('+')) {
		return fail(`"${shown}": leave out the sign. ${hint}`)
	}

	const clock = colonForm.exec(text)
	if (clock) {
		const [, hours = '', minutes = '', seconds] = clock
		if (minutes.length !== 2 || (seconds !== undefined && seconds.length !== 2)) {
			return fail(`"${shown}": write minutes and seconds with two digits, as in 1:05.`)
		}
		if (Number(minutes) > 59) {
			return fail(`"${shown}": minutes must be 00 to 59.`)
		}
		if (seconds !== undefined && Number(seconds) > 59) {
			return fail(`"${shown}": seconds must be 00 to 59.`)
		}
		const total = BigInt(hours || '0') * 3600n + BigInt(minutes) * 60n + BigInt(seconds ?? '0')
		return withinLimit(shown, total, maxSeconds)
	}
	if (text.includes(':')) {
		return fail(`"${shown}" is not a duration. ${hint}`)
	}

	if (numberForm.test(text)) {
		const { numerator, scale, decimals } = decimalParts(text)
		if (decimals > maxDecimals) {
			return fail(`"${shown}" has too many decimals (at most ${maxDecimals}).`)
		}
		return withinLimit(shown, divideHalfUp(numerator * 3600n, scale), maxSeconds)
	}

	const seen = new Set<'h' | 'm' | 's'>()
	const parts: { number: string; unitText: string }[] = []
	for (let position = 0; position < text.length; ) {
		partForm.lastIndex = position
		const part = partForm.exec(text)
		if (!part) {
			return fail(`"${shown}" is not a duration. ${hint}`)
		}
		position = partForm.lastIndex
		parts.push({ number: part[1] ?? '', unitText: part[2] ?? '' })
	}
	// Millionths of a second: every part is exact at 6 decimals, and rounding happens once, on the
	// sum, so "0.5s 0.5m" is 31 s rather than 30 or 32.
	let micros = 0n
	let previous: 'h' | 'm' | 's' | null = null
	for (const [index, { number, unitText }] of parts.entries()) {
		let unit: 'h' | 'm' | 's'
		if (unitText === '') {
			// A bare number closes the input after hours (1h30) or minutes (2m30), like a clock.
			const implied: 'm' | 's' | null = previous === 'h' ? 'm' : previous === 'm' ? 's' : null
			if (implied === null || index < parts.length - 1) {
				return fail(`"${shown}": "${number}" needs a unit (h, m or s). ${hint}`)
			}
			if (!/^\d+$/.test(number) || Number(number) > 59) {
				const after = previous === 'h' ? 'hours' : 'minutes'
				return fail(`"${shown}": a number without a unit after ${after} must be a whole 0 to 59.`)
			}
			unit = implied
		} else {
			const known = unitSeconds[unitText]
			if (known === undefined) {
				const rejected = rejectedUnits[unitText]
				if (rejected !== undefined) {
					return fail(`"${shown}": ${rejected} are not accepted, as their length is unclear. Type hours, as in 16h.`)
				}
				return fail(`"${shown}": unknown unit "${unitText}". Use h, m or s.`)
			}
			unit = known
		}
		if (seen.has(unit)) {
			return fail(`"${shown}": ${unitNames[unit].toLowerCase()} are given twice.`)
		}
		seen.add(unit)
		previous = unit
		const { numerator, scale, decimals } = decimalParts(number)
		if (decimals > maxDecimals) {
			return fail(`"${shown}" has too many decimals (at most ${maxDecimals}).`)
		}
		micros += (numerator * secondsPerUnit[unit] * microsPerSecond) / scale
	}
	return withinLimit(shown, divideHalfUp(micros, microsPerSecond), maxSeconds)
}

function assertWholeSeconds(seconds: number): void {
	if (!Number.isSafeInteger(seconds)) {
		throw new RangeError(`A duration must be whole seconds, got ${seconds}.`)
	}
}

const pad2 = (value: bigint | number): string => String(value).padStart(2, '0')

/**
 * Seconds as a clock duration: "1:30", or "1:30:15" when there are seconds, so that
 * `parseDuration(formatDuration(s))` gives `s` back. With `precision: 'minutes'` the value is
 * rounded half-up to the minute ("1:30:30" shows "1:31") for totals where seconds are noise.
 * Hours are not wrapped at 24 ("26:00"); negative values (a difference) get a leading "-".
 */
export function formatDuration(seconds: number, options: { precision?: 'seconds' | 'minutes' } = {}): string {
	assertWholeSeconds(seconds)
	const sign = seconds < 0 ? '-' : ''
	let rest = BigInt(Math.abs(seconds))
	if (options.precision === 'minutes') {
		rest = divideHalfUp(rest, 60n) * 60n
	}
	const hours = rest / 3600n
	const minutes = (rest % 3600n) / 60n
	const secs = rest % 60n
	return secs === 0n ? `${sign}${hours}:${pad2(minutes)}` : `${sign}${hours}:${pad2(minutes)}:${pad2(secs)}`
}

/**
 * Seconds as decimal hours with a fixed number of decimals and a "." ("1.50"), rounded half
 * away from zero, for reports and exports (locale formatting is the screen's business).
 */
export function formatDecimalHours(seconds: number, decimals = 2): string {
	assertWholeSeconds(seconds)
	if (!Number.isInteger(decimals) || decimals < 0 || decimals > 12) {
		throw new RangeError(`decimals must be a whole 0 to 12, got ${decimals}.`)
	}
	const sign = seconds < 0 ? '-' : ''
	const scaled = divideHalfUp(BigInt(Math.abs(seconds)) * 10n ** BigInt(decimals), 3600n)
	if (decimals === 0) {
		return `${scaled === 0n ? '' : sign}${scaled}`
	}
	const digits = scaled.toString().padStart(decimals + 1, '0')
	const shownSign = scaled === 0n ? '' : sign
	return `${shownSign}${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`
}
