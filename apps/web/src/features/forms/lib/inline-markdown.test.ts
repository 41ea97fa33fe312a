import { render } from '@testing-library/react'
import { createElement } from 'react'
import { describe, expect, it } from 'vitest'
import { inlineMarkdown, safeHref } from './inline-markdown.ts'

// The paragraph's markup: bold and links only, never HTML, never a script address, whatever the
// owner (or someone who got into their account) types.

function html(text: string): string {
	const { container } = render(createElement('p', null, ...inlineMarkdown(text)))
	return (container.firstChild as HTMLElement).innerHTML
}

function links(text: string): HTMLAnchorElement[] {
	const { container } = render(createElement('p', null, ...inlineMarkdown(text)))
	return Array.from(container.querySelectorAll('a'))
}

describe('inlineMarkdown', () => {
	it('makes **bold** and [links](…) that open in a new tab without the opener', () => {
		expect(html('Read **this** first')).toBe('Read <strong class="font-semibold">this</strong> first')
		const [link] = links('See [our terms](https://example.com/terms?a=1&b=2) now')
		expect(link?.getAttribute('href')).toBe('https://example.com/terms?a=1&b=2')
		expect(link?.textContent).toBe('our terms')
		expect(link?.getAttribute('target')).toBe('_blank')
		expect(link?.getAttribute('rel')).toBe('noopener noreferrer')
		expect(links('[Write](mailto:hello@example.com)')[0]?.getAttribute('href')).toBe('mailto:hello@example.com')
		expect(links('[plain](http://example.com)')[0]?.getAttribute('href')).toBe('http://example.com/')
	})

	it('puts bold inside a link and a link inside bold', () => {
		expect(links('[**Big** deal](https://a.example)')[0]?.innerHTML).toBe(
			'<strong class="font-semibold">Big</strong> deal',
		)
		expect(html('**see [here](https://a.example)**')).toContain('<strong class="font-semibold">see <a')
	})

	it('never links javascript:, data:, relative or other addresses, keeping only the words', () => {
		for (const address of [
			'javascript:alert(1)',
			'JaVaScRiPt:alert(1)',
			'data:text/html;base64,PHNjcmlwdD4=',
			'vbscript:msgbox(1)',
			'/relative/path',
			'//evil.example/x',
			'ftp://example.com/file',
			'file:///etc/passwd',
		]) {
			const text = `[click me](${address})`
			expect(links(text), address).toHaveLength(0)
			expect(html(text), address).not.toContain('<a')
		}
		// Refused, the words stay and the address goes.
		expect(html('[click me](javascript:void0)')).toBe('click me')
		expect(html('[click me](/relative)')).toBe('click me')
		// Spaces or line breaks inside an address (a way round naive checks) make it no link at all.
		expect(links('[x](java\tscript:alert(1))')).toHaveLength(0)
		expect(links('[x](java\nscript:alert(1))')).toHaveLength(0)
		expect(safeHref('https://example.com')).toBe('https://example.com/')
		expect(safeHref(' javascript:alert(1)')).toBeNull()
	})

	it('shows HTML as text, never as markup', () => {
		expect(html('<script>alert(1)</script><img src=x onerror=alert(1)>')).toBe(
			'&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;',
		)
		expect(html('**<b>x</b>**')).toBe('<strong class="font-semibold">&lt;b&gt;x&lt;/b&gt;</strong>')
		expect(links('[<img src=x onerror=alert(1)>](https://a.example)')[0]?.innerHTML).toBe(
			'&lt;img src=x onerror=alert(1)&gt;',
		)
		const [quoted] = links('[x](https://a.example/"onmouseover="alert`1`)')
		expect(quoted?.getAttribute('onmouseover')).toBeNull()
		expect(quoted?.getAttribute('href')).toBe('https://a.example/%22onmouseover=%22alert%601%60')
	})

	it('leaves unbalanced or empty markers as they were typed', () => {
		expect(html('**bold without end')).toBe('**bold without end')
		expect(html('a ** b')).toBe('a ** b')
		expect(html('****')).toBe('****')
		expect(html('**line\nbreak**')).toBe('**line\nbreak**')
		expect(html('[no address]')).toBe('[no address]')
		expect(html('[half](https://a.example')).toBe('[half](https://a.example')
		expect(html('[](https://a.example)')).toBe('[](https://a.example)')
		expect(html('3 * 4 = 12')).toBe('3 * 4 = 12')
	})

	it('takes a backslash before a marker as the marker itself', () => {
		expect(html('\\*\\*not bold\\*\\*')).toBe('**not bold**')
		expect(html('\\[not](https://a.example)')).toBe('[not](https://a.example)')
		expect(html('a \\ b')).toBe('a \\ b')
	})

	it('stays fast on long hostile input', () => {
		const started = performance.now()
		// Openers without closers, scanned from each one: nothing matches, so each comes back as its one text.
		for (const hostile of ['['.repeat(5000), '*'.repeat(5000), '[a]('.repeat(1250), `**a${' b'.repeat(2400)}`]) {
			expect(inlineMarkdown(hostile)).toEqual([hostile])
		}
		expect(performance.now() - started).toBeLessThan(500)
	})
})
