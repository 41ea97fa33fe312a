import * as csstree from 'css-tree'
import { describe, expect, test } from 'vitest'
import { customCssLimits, scopeCss } from './scoped-css.ts'

// Custom CSS of a form: confined to the form's root, unable to load anything from elsewhere.

const scope = '.bs-form'
const ok = (css: string) => {
	const result = scopeCss(css, scope)
	expect(result.problems).toEqual([])
	return result.css
}

/** Every selector of every style rule (outside @keyframes), as written out. */
function selectorsOf(css: string): string[] {
	const selectors: string[] = []
	csstree.walk(csstree.parse(css), {
		visit: 'Rule',
		enter(this: csstree.WalkContext, node) {
			if (this.atrule && /keyframes$/.test(this.atrule.name)) {
				return
			}
			if (node.prelude.type === 'SelectorList') {
				node.prelude.children.forEach((selector) => {
					selectors.push(csstree.generate(selector))
				})
			}
		},
	})
	return selectors
}

describe('scopeCss', () => {
	test('every rule is confined to the form root; html, body and :root name the root', () => {
		const css = ok(`
			h1 { color: red }
			.field input, button[type=submit]:hover { border-radius: 0 }
			:root { --primary: #0a0 }
			body { font-size: 18px }
			html .card > p { margin: 0 }
			* { box-sizing: border-box }
			@media (max-width: 600px) { label { display: block } @supports (display: grid) { form { display: grid } } }
			@layer theme { p { color: blue } }
		`)
		expect(selectorsOf(css)).toEqual([
			'.bs-form h1',
			'.bs-form .field input',
			'.bs-form button[type=submit]:hover',
			'.bs-form',
			'.bs-form',
			'.bs-form .card>p',
			'.bs-form *',
			'.bs-form label',
			'.bs-form form',
			'.bs-form p',
		])
		expect(css).toContain('@media (max-width:600px)')
	})

	test('every selector of the output starts inside the scope, whatever the input', () => {
		const tricky = [
			'a, b, c {x:y}',
			':is(html, body) footer { display: none }',
			'html > body footer { display:none }',
			'::selection { color: red }',
			'[data-x] ~ p {}',
			'@container (min-width: 1px) { footer { display: none } }',
		]
		for (const source of tricky) {
			for (const selector of selectorsOf(ok(source))) {
				expect(selector.startsWith('.bs-form'), `${source} → ${selector}`).toBe(true)
			}
		}
	})

	test('keyframes and font faces with data: URIs are kept as they are', () => {
		const css = ok(`
			@keyframes pulse { from { opacity: 0 } 50% { opacity: .5 } to { opacity: 1 } }
			@font-face { font-family: Brand; src: url(data:font/woff2;base64,d09GMgABAAAAAA==) format('woff2') }
			.logo { background: url("data:image/png;base64,iVBORw0KGgo=") }
		`)
		expect(css).toContain('@keyframes pulse{from{opacity:0}50%{opacity:.5}to{opacity:1}}')
		expect(css).toContain('url(data:font/woff2;base64,d09GMgABAAAAAA==)')
		expect(selectorsOf(css)).toEqual(['.bs-form .logo'])
	})

	test.each([
		['@import url(https://evil.example/x.css);', /@import is not allowed/],
		['@import "x.css";', /@import is not allowed/],
		['@IMPORT "x.css";', /@import is not allowed/],
		['p { background: url(https://evil.example/track.png) }', /url\(\) can only hold a data: image/],
		['p { background: url( "//evil.example/x.png" ) }', /url\(\) can only hold a data: image/],
		['p { background: u\\rl(https://evil.example/x.png) }', /url\(\) can only hold a data: image|is expected/],
		['input[value^=a] { background: url(/steal?a) }', /url\(\) can only hold a data: image/],
		['p { background: url("data:text/html,<script>alert(1)</script>") }', /url\(\) can only hold a data: image/],
		['.a { .b { color: red } }', /Identifier is expected/],
		['p { background: image-set("https://evil.example/x.png" 1x) }', /image-set\(\) can only hold data: images/],
		['p { list-style: image("https://evil.example/x.png") }', /image\(\) can only hold data: images/],
		['@font-face { font-family: X; src: url(https://evil.example/f.woff) }', /url\(\) can only hold a data: image/],
		['@namespace svg url(http://www.w3.org/2000/svg);', /@namespace is not allowed/],
		['@scope (body) { p { color: red } }', /@scope is not allowed/],
		['@charset "utf-8";', /@charset is not allowed/],
		['@page { margin: 0 }', /@page is not allowed/],
	])('refuses %s', (source, message) => {
		const result = scopeCss(source, scope)
		expect(result.css).toBe('')
		expect(result.problems.join(' ')).toMatch(message)
		expect(result.problems[0]).toMatch(/^Line \d+: /)
	})

	test('an @import is one problem, not also one for its address', () => {
		expect(scopeCss('@import url(https://evil.example/x.css);', scope).problems).toEqual([
			"Line 1: @import is not allowed: a form's CSS cannot load other files.",
		])
	})

	test('a problem names its line', () => {
		expect(scopeCss('p { color: red }\n\n@import "x.css";', scope).problems).toEqual([
			"Line 3: @import is not allowed: a form's CSS cannot load other files.",
		])
	})

	test('text that is not CSS is refused with where it went wrong', () => {
		const result = scopeCss('p { color: red; }\n}}} <script>', scope)
		expect(result.css).toBe('')
		expect(result.problems.length).toBeGreaterThan(0)
	})

	test('the output cannot close the style element it is put in', () => {
		const css = ok('p::after { content: "</style><script>alert(1)</script>" }')
		expect(css).not.toMatch(/<\/style/i)
	})

	test('too long is refused; empty is empty', () => {
		expect(scopeCss('p{}'.repeat(customCssLimits.maxChars), scope).problems).toEqual([
			`Custom CSS is longer than ${customCssLimits.maxChars} characters.`,
		])
		expect(ok('')).toBe('')
		expect(ok('/* only a comment */')).toBe('')
	})
})
