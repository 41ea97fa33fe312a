import type { ConditionOperator } from './form-rule-types.ts'

// What a condition's value must be before anything is compared with it, apart from the comparing
// (form-conditions.ts): the rules schema (form-logic.ts) checks it on every form the dashboard reads,
// so this part travels with the forms API while the comparing stays with the rules engine's chunk.

/** Why a condition's value cannot be compared with, or null when it can (or needs none). */
export function valueProblem(condition: { operator: ConditionOperator; value?: unknown }): string | null {
	const { operator, value } = condition
	if (operator === 'is_empty' || operator === 'is_not_empty') {
		return null
	}
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		return 'Enter a value to compare with.'
	}
	if ((operator === 'before' || operator === 'after') && (typeof value !== 'string' || !parseDate(value.trim()))) {
		return 'Enter a date as YYYY-MM-DD.'
	}
	return null
}

/** A day as written (`YYYY-MM-DD`), and the instant in ms when a time and offset came with it. */
export type DatePoint = { day: string; instant: number | null }

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})(.*)$/
const timePattern = /^T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/

// Parsed by hand rather than with Date.parse, whose handling of anything outside one exact format
// differs between engines; the same string must give the same answer in the browser and on the server.
export function parseDate(text: string): DatePoint | null {
	const day = dayPattern.exec(text)
	if (!day) {
		return null
	}
	const [, yearText, monthText, dayText, rest] = day
	const year = Number(yearText)
	const month = Number(monthText)
	const date = Number(dayText)
	if (month < 1 || month > 12 || date < 1 || date > daysInMonth(year, month)) {
		return null
	}
	if (rest === '') {
		return { day: text, instant: null }
	}
	const time = timePattern.exec(rest ?? '')
	if (!time) {
		return null
	}
	const [, hourText, minuteText, secondText, fraction, sign, offsetHourText, offsetMinuteText] = time
	const hour = Number(hourText)
	const minute = Number(minuteText)
	const second = Number(secondText ?? '0')
	const offsetMinutes = Number(offsetHourText ?? '0') * 60 + Number(offsetMinuteText ?? '0')
	if (hour > 23 || minute > 59 || second > 59 || offsetMinutes > 23 * 60 + 59) {
		return null
	}
	const instant = new Date(0)
	// setUTCFullYear, unlike Date.UTC, does not turn years 0–99 into 1900–1999.
	instant.setUTCFullYear(year, month - 1, date)
	instant.setUTCHours(hour, minute, second, Number((fraction ?? '').padEnd(3, '0').slice(0, 3)))
	return { day: text.slice(0, 10), instant: instant.getTime() - (sign === '-' ? -1 : 1) * offsetMinutes * 60_000 }
}

function daysInMonth(year: number, month: number): number {
	if (month === 2) {
		const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
		return leap ? 29 : 28
	}
	return [4, 6, 9, 11].includes(month) ? 30 : 31
}
