import { describe, expect, it } from 'vitest'
import { readPortalLocation } from './location.ts'
import { parseRoute, portalHref } from './router.tsx'

describe('the portal router', () => {
	it('reads each kind of path under /p/{slug}', () => {
		const base = '/p/acme'
		expect(parseRoute('/p/acme', '', base)).toEqual({ name: 'home' })
		expect(parseRoute('/p/acme/', '', base)).toEqual({ name: 'home' })
		expect(parseRoute('/p/acme/sign-in', '', base)).toEqual({ name: 'sign-in', token: null })
		expect(parseRoute('/p/acme/sign-in', '?token=abc', base)).toEqual({ name: 'sign-in', token: 'abc' })
		expect(parseRoute('/p/acme/projects', '', base)).toEqual({ name: 'page', pageId: 'projects' })
		expect(parseRoute('/p/acme/projects/row%201', '', base)).toEqual({
			name: 'row',
			pageId: 'projects',
			rowId: 'row 1',
		})
		expect(parseRoute('/p/acme/_forms/f1', '', base)).toEqual({ name: 'form', formId: 'f1' })
		expect(parseRoute('/p/acme/a/b/c', '', base)).toEqual({ name: 'not-found' })
		// The slug as typed in another case is still this portal.
		expect(parseRoute('/p/ACME/projects', '', base)).toEqual({ name: 'page', pageId: 'projects' })
	})

	it('reads paths at the root of a custom domain', () => {
		expect(parseRoute('/', '', '')).toEqual({ name: 'home' })
		expect(parseRoute('/sign-in', '?token=t', '')).toEqual({ name: 'sign-in', token: 't' })
		expect(parseRoute('/invoices/r9', '', '')).toEqual({ name: 'row', pageId: 'invoices', rowId: 'r9' })
	})

	it('builds links under the base, escaping each segment', () => {
		expect(portalHref('/p/acme', 'projects', 'a/b')).toBe('/p/acme/projects/a%2Fb')
		expect(portalHref('', 'projects')).toBe('/projects')
	})

	it('takes the portal from the page the server wrote, else from the path', () => {
		const block = document.createElement('script')
		block.type = 'application/json'
		block.id = 'blocksmith-portal'
		block.textContent = JSON.stringify({ slug: 'acme', basePath: '' })
		document.head.append(block)
		expect(readPortalLocation(document, '/projects')).toEqual({ slug: 'acme', basePath: '' })
		block.remove()
		expect(readPortalLocation(document, '/p/acme/projects')).toEqual({ slug: 'acme', basePath: '/p/acme' })
	})
})
