import { describe, expect, test } from 'vitest'
import { fillPlaceholders, redirectTarget } from './form-thanks.ts'

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
