// Invoice and credit-note numbers: a pattern such as `INV-{YYYY}-{counter:4}` filled with the
// issue date and the sequence's counter. The settings form checks patterns as they are typed
// and shows the next number, and the server checks them again and formats the numbers it
// issues, so both run this one module. It imports nothing.
//
// Tokens: {YYYY} (2026), {YY} (26), {MM} (03), {counter} (7), {counter:N} (padded to N digits,
// N 1–10: {counter:4} is 0007; past 9999 it grows, 10000). Text between tokens: letters,
// digits and - _ / . # and spaces. A pattern has exactly one counter. A counter that restarts
// every year needs the year in the pattern (monthly: the year and the month), or a number
// would come back the next year. The issue date is a calendar day (`YYYY-MM-DD`), never an
// instant, so no time zone can move an invoice into another year.

export const numberingResets = ['never', 'yearly', 'monthly'] as const
export type NumberingReset = (typeof numberingResets)[number]

export type PatternPart =
	| { kind: 'text'; text: string }
	| { kind: 'year' }
	| { kind: 'shortYear' }
	| { kind: 'month' }
	| { kind: 'counter'; width: number }

export type PatternParse = { ok: true; parts: PatternPart[] } | { ok: false; message: string }

export const maxPatternLength = 60
const maxCounterWidth = 10
const textPattern = /^[A-Za-z0-9\-_/.# ]*$/
const tokenHelp = 'Use {YYYY}, {YY}, {MM}, {counter} or {counter:4}.'

/** Splits a pattern into text and tokens; a message naming the first problem otherwise. */
export function parsePattern(pattern: string): PatternParse {
	if (pattern.trim() === '') {
		return { ok: false, message: 'Enter a pattern such as INV-{YYYY}-{counter:4}.' }
	}
	if (pattern.length > maxPatternLength) {
		return { ok: false, message: `Use at most ${maxPatternLength} characters.` }
	}
	const parts: PatternPart[] = []
	let counters = 0
	let rest = pattern
	while (rest.length > 0) {
		const open = rest.indexOf('{')
		const text = open === -1 ? rest : rest.slice(0, open)
		if (text.includes('}')) {
			return { ok: false, message: `A "}" without its "{". ${tokenHelp}` }
		}
		if (!textPattern.test(text)) {
			return { ok: false, message: 'Between tokens use letters, digits, spaces and - _ / . # only.' }
		}
		if (text) {
			parts.push({ kind: 'text', text })
		}
		if (open === -1) {
			break
		}
		const close = rest.indexOf('}', open)
		if (close === -1) {
			return { ok: false, message: `A "{" without its "}". ${tokenHelp}` }
		}
		const token = rest.slice(open + 1, close)
		const part = tokenPart(token)
		if (!part) {
			return { ok: false, message: `Unknown token {${token}}. ${tokenHelp}` }
		}
		if (part.kind === 'counter' && ++counters > 1) {
			return { ok: false, message: 'Use {counter} once.' }
		}
		parts.push(part)
		rest = rest.slice(close + 1)
	}
	if (counters === 0) {
		return { ok: false, message: 'Add {counter} (or {counter:4} for 0001): it makes each number unique.' }
	}
	return { ok: true, parts }
}

function tokenPart(token: string): PatternPart | null {
	if (token === 'YYYY') {
		return { kind: 'year' }
	}
	if (token === 'YY') {
		return { kind: 'shortYear' }
	}
	if (token === 'MM') {
		return { kind: 'month' }
	}
	if (token === 'counter') {
		return { kind: 'counter', width: 1 }
	}
	const padded = /^counter:(\d{1,2})$/.exec(token)
	const width = Number(padded?.[1])
	return padded && width >= 1 && width <= maxCounterWidth ? { kind: 'counter', width } : null
}

/** A pattern with its reset checked together: null when fine, else what is wrong. */
export function checkSequence(pattern: string, reset: NumberingReset): string | null {
	const parsed = parsePattern(pattern)
	if (!parsed.ok) {
		return parsed.message
	}
	const has = (kind: PatternPart['kind']) => parsed.parts.some((part) => part.kind === kind)
	const hasYear = has('year') || has('shortYear')
	if (reset === 'yearly' && !hasYear) {
		return 'A counter that restarts every year needs {YYYY} or {YY} in the pattern, or last year’s numbers would come back.'
	}
	if (reset === 'monthly' && !(hasYear && has('month'))) {
		return 'A counter that restarts every month needs {YYYY} (or {YY}) and {MM} in the pattern, or numbers would come back.'
	}
	return null
}

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})$/

function yearAndMonth(day: string): { year: string; month: string } {
	const match = dayPattern.exec(day)
	if (!match) {
		throw new Error(`Not a calendar day (YYYY-MM-DD): ${day}`)
	}
	return { year: match[1] as string, month: match[2] as string }
}

/** The counter's period for an issue day: all time, its year, or its month. */
export function periodOf(reset: NumberingReset, day: string): string {
	const { year, month } = yearAndMonth(day)
	return reset === 'never' ? 'all' : reset === 'yearly' ? year : `${year}-${month}`
}

/** The number for an issue day and counter (the pattern must parse). */
export function formatNumber(pattern: string, day: string, counter: number): string {
	const parsed = parsePattern(pattern)
	if (!parsed.ok) {
		throw new Error(parsed.message)
	}
	const { year, month } = yearAndMonth(day)
	return parsed.parts
		.map((part) => {
			switch (part.kind) {
				case 'text':
					return part.text
				case 'year':
					return year
				case 'shortYear':
					return year.slice(2)
				case 'month':
					return month
				case 'counter':
					return String(counter).padStart(part.width, '0')
			}
			return ''
		})
		.join('')
}

/**
 * What every number of a pattern looks like with its digits blurred: each run of digits (from
 * tokens or text) is one `#`. A number always has its pattern's shape, so two patterns of
 * different shapes can never give the same number; two of one shape might
 * (`INV-{counter}` and `INV-1{counter}` both give INV-12).
 */
export function shapeOf(pattern: string): string {
	const parsed = parsePattern(pattern)
	if (!parsed.ok) {
		return pattern
	}
	// Text between tokens never holds braces, so `{n}` stands for a digit.
	const blurred = parsed.parts.map((part) => (part.kind === 'text' ? part.text.replace(/\d/g, '{n}') : '{n}')).join('')
	return blurred.replace(/(\{n\})+/g, '{n}')
}
