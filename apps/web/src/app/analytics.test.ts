import { describe, expect, test } from 'vitest'
import { isAnalyticsAllowed, syncAnalyticsScript } from './analytics.ts'

describe('analytics script', () => {
	test.each([
		['/', true],
		['/settings', true],
		['/invoices', true],
		['/login', false],
		['/login/anything', false],
		['/register', false],
		['/charts', false],
		['/charts/1', false],
		['/forms', false],
		['/forms/abc', false],
		['/paused', false],
	])('on %s it is loaded: %s', (pathname, expected) => {
		expect(isAnalyticsAllowed(pathname)).toBe(expected)
	})

	test('it is added on an allowed path, kept once, and removed on an excluded one', () => {
		const url = 'https://stats.example.org/script.js'
		syncAnalyticsScript(url, '/settings')
		syncAnalyticsScript(url, '/')
		const scripts = document.head.querySelectorAll(`script[src="${url}"]`)
		expect(scripts).toHaveLength(1)
		syncAnalyticsScript(url, '/forms/abc')
		expect(document.head.querySelector(`script[src="${url}"]`)).toBeNull()
	})

	test('nothing is loaded when no URL is configured', () => {
		syncAnalyticsScript(null, '/')
		expect(document.head.querySelector('script')).toBeNull()
	})
})
