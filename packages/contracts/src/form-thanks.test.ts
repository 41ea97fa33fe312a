import { describe, expect, test } from 'vitest'
import { answerText, fillPlaceholders, redirectTarget } from './form-thanks.ts'

const fields = [
	{ id: 'f1', label: 'Name' },
	{ id: 'f2', label: 'Your e-mail' },
	{ id: 'f3', label: 'Interests' },
	{ id: 'f4', label: 'Start' },
	{ id: 'f5', label: 'Newsletter' },
]
const answers = {
	f1: 'Ada',
	f2: 'ada@example.com',
	f3: ['Website', 'SEO'],
	f4: { start: '2026-12-01', end: null },
	f5: true,
}

describe('fillPlaceholders', () => {
	test('puts answers in by label, case- and space-insensitively, each shape as text', () => {
		expect(
			fillPlaceholders('Thanks, {Name}! ({ name }) {Interests} from {Start}, news: {Newsletter}', fields, answers),
		).toBe('Thanks, Ada! (Ada) Website, SEO from 2026-12-01, news: Yes')
	})

	test('files read as their names', () => {
		const files = [
			{ name: 'cv.pdf', url: null, blobId: 'b1' },
			{ name: 'photo.png', url: null, blobId: 'b2' },
		]
		expect(fillPlaceholders('Got {Name}', [{ id: 'f', label: 'Name' }], { f: files })).toBe('Got cv.pdf, photo.png')
	})

	test('an unanswered field is empty; a placeholder naming no field stays as written', () => {
		expect(fillPlaceholders('Hi {Name}, {Nmae}, {Start}', fields, { f1: 'Bo' })).toBe('Hi Bo, {Nmae}, ')
	})
})

describe('redirectTarget', () => {
	test('adds the answers as parameters named after the labels, keeping the URL’s own', () => {
		const target = redirectTarget('https://example.com/thanks?ref=form', fields, answers, true)
		const url = new URL(target ?? '')
		expect(url.searchParams.get('ref')).toBe('form')
		expect(url.searchParams.get('name')).toBe('Ada')
		expect(url.searchParams.get('your_e_mail')).toBe('ada@example.com')
		expect(url.searchParams.get('interests')).toBe('Website, SEO')
	})

	test('fills placeholders in the URL, and adds nothing unless asked', () => {
		expect(redirectTarget('https://example.com/hi/{Name}', fields, answers, false)).toBe('https://example.com/hi/Ada')
	})

	test('refuses anything but http and https', () => {
		expect(redirectTarget('javascript:alert(1)', fields, answers, true)).toBeNull()
		expect(redirectTarget('data:text/html,<script>', fields, answers, false)).toBeNull()
		expect(redirectTarget('not a url', fields, answers, false)).toBeNull()
	})
})

describe('answerText by kind', () => {
	test('each newer kind reads as people would write it', () => {
		expect(answerText(4, { kind: 'rating', scale: { max: 5 } })).toBe('4/5')
		expect(answerText(3, { kind: 'rating', scale: null })).toBe('3/5')
		expect(answerText(9, { kind: 'nps' })).toBe('9')
		expect(answerText(0, { kind: 'scale' })).toBe('0')
		expect(answerText(['B', 'A', 'C'], { kind: 'ranking' })).toBe('1. B, 2. A, 3. C')
		// Rows in the question's order, whatever order the stored answer's keys came back in.
		const matrix = { rows: ['Quality', 'Price'] }
		expect(answerText({ Price: 'Bad', Quality: 'Good' }, { kind: 'matrix', matrix })).toBe('Quality: Good; Price: Bad')
		expect(answerText({ Quality: 'Good', Price: ['Fair', 'Bad'], Taste: [] }, { kind: 'matrix' })).toBe(
			'Quality: Good; Price: Fair, Bad',
		)
		expect(answerText([{ name: 'signature.png', url: null, blobId: 'b1' }], { kind: 'signature' })).toBe(
			'signature.png',
		)
		const calculation = { decimals: 2, prefix: '€', suffix: null }
		expect(answerText(59.9, { kind: 'calculated', calculation })).toBe('€59.90')
		expect(answerText(14, { kind: 'calculated', calculation: { decimals: 0, prefix: null, suffix: ' pts' } })).toBe(
			'14 pts',
		)
	})

	test('content never has an answer; a question without a property reads like one with', () => {
		expect(answerText('anything', { kind: 'heading' })).toBe('')
		expect(answerText('Blue', { kind: 'select' })).toBe('Blue')
		const items = [
			{ id: 'h', label: 'Name', kind: 'heading' as const },
			{ id: 'q', label: 'Name', kind: 'short_text' as const },
			{ id: 'r', label: 'Stars', kind: 'rating' as const, scale: { max: 10 } },
		]
		expect(fillPlaceholders('{Name} gave {Stars}', items, { h: 'x', q: 'Ada', r: 8 })).toBe('Ada gave 8/10')
		const url = new URL(redirectTarget('https://example.com/', items, { q: 'Ada', r: 8 }, true) ?? '')
		expect([...url.searchParams.entries()]).toEqual([
			['name', 'Ada'],
			['stars', '8/10'],
		])
	})
})
