import { describe, expect, test } from 'vitest'
import { checkSequence, formatNumber, parsePattern, periodOf, shapeOf } from './invoice-numbering.ts'

function messageOf(pattern: string): string {
	const parsed = parsePattern(pattern)
	if (parsed.ok) {
		throw new Error(`${pattern} parsed`)
	}
	return parsed.message
}

describe('invoice numbering patterns', () => {
	test('tokens are filled with the issue day and the counter', () => {
		expect(formatNumber('INV-{YYYY}-{counter:4}', '2026-03-09', 7)).toBe('INV-2026-0007')
		expect(formatNumber('CN/{YY}{MM}/{counter:3}', '2026-03-09', 12)).toBe('CN/2603/012')
		expect(formatNumber('{counter}', '2026-12-31', 1)).toBe('1')
		// Past its width a counter grows instead of being cut.
		expect(formatNumber('INV-{counter:4}', '2026-01-01', 12345)).toBe('INV-12345')
		expect(formatNumber('A #{counter:2}.{YYYY}', '1999-01-01', 3)).toBe('A #03.1999')
	})

	test('bad patterns say what is wrong', () => {
		expect(messageOf('INV-{YYYY}')).toMatch(/Add \{counter\}/)
		expect(messageOf('INV-{year}-{counter}')).toMatch(/Unknown token \{year\}/)
		expect(messageOf('INV-{counter:0}')).toMatch(/Unknown token \{counter:0\}/)
		expect(messageOf('INV-{counter:11}')).toMatch(/Unknown token/)
		expect(messageOf('INV-{counter')).toMatch(/without its "\}"/)
		expect(messageOf('INV}-{counter}')).toMatch(/without its "\{"/)
		expect(messageOf('{counter}-{counter}')).toMatch(/once/)
		expect(messageOf('INV€{counter}')).toMatch(/letters, digits/)
		expect(messageOf('')).toMatch(/Enter a pattern/)
		expect(messageOf(`${'A'.repeat(60)}{counter}`)).toMatch(/at most 60/)
	})

	test('a counter that restarts needs the period in the pattern', () => {
		expect(checkSequence('INV-{counter}', 'never')).toBeNull()
		expect(checkSequence('INV-{counter}', 'yearly')).toMatch(/every year/)
		expect(checkSequence('INV-{YY}-{counter}', 'yearly')).toBeNull()
		expect(checkSequence('INV-{YYYY}-{counter}', 'monthly')).toMatch(/every month/)
		expect(checkSequence('INV-{MM}-{counter}', 'monthly')).toMatch(/every month/)
		expect(checkSequence('INV-{YYYY}{MM}-{counter}', 'monthly')).toBeNull()
		expect(checkSequence('INV-{oops}', 'never')).toMatch(/Unknown token/)
	})

	test('periods: all time, the year, the month', () => {
		expect(periodOf('never', '2026-03-09')).toBe('all')
		expect(periodOf('yearly', '2026-03-09')).toBe('2026')
		expect(periodOf('monthly', '2026-03-09')).toBe('2026-03')
		expect(() => periodOf('yearly', '2026-3-9')).toThrow(/YYYY-MM-DD/)
	})

	test('two patterns of different shapes never give the same number; of one shape they may', () => {
		expect(shapeOf('INV-{YYYY}-{counter:4}')).not.toBe(shapeOf('CN-{YYYY}-{counter:4}'))
		expect(shapeOf('INV-{counter}')).toBe(shapeOf('INV-1{counter}'))
		expect(formatNumber('INV-{counter}', '2026-01-01', 12)).toBe(formatNumber('INV-1{counter}', '2026-01-01', 2))
		expect(shapeOf('INV-{YYYY}{counter}')).toBe(shapeOf('INV-{counter:6}'))
		expect(shapeOf('INV-{YYYY}-{counter}')).not.toBe(shapeOf('INV-{YYYY}/{counter}'))
		// Every number has its pattern's shape (digits blurred), whatever the day and counter.
		for (const pattern of ['INV-{YYYY}-{counter:4}', 'X9{counter}Y', 'A{MM}{counter:2}#', 'CN{YY}.{counter}']) {
			for (const counter of [1, 9, 10, 12345]) {
				const number = formatNumber(pattern, '2026-11-05', counter)
				expect(number.replace(/\d+/g, '{n}'), `${pattern} ${counter}`).toBe(shapeOf(pattern))
			}
		}
	})
})
