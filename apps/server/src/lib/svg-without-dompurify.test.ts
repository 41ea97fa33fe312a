import { describe, expect, test, vi } from 'vitest'
import { sanitizeSvg } from '#src/lib/svg.ts'
import {
	assertCleanText,
	assertCleanTree,
	corpus,
	hasStrayNodes,
	parseSvg,
	refused,
	svgNamespace,
	type TestElement,
} from '#src/test/svg-checks.ts'

// sanitizeSvg runs DOMPurify and then a second pass of its own, which enforces what the module
// promises (SVG elements only, no scripting, no reference that leaves the document) whatever
// DOMPurify's defaults are. Here DOMPurify hands back what it is given, untouched, so every
// check below holds only because of the second pass.
vi.mock('dompurify', () => ({
	default: () => ({
		sanitize: (
			node: { ownerDocument: { createDocumentFragment(): { appendChild(child: unknown): unknown } } } & {
				cloneNode(deep: boolean): unknown
			},
		) => {
			const fragment = node.ownerDocument.createDocumentFragment()
			fragment.appendChild(node.cloneNode(true))
			return fragment
		},
	}),
}))

/** The sanitised output, which must not be refused, and the tree a browser builds from it. */
function sanitized(svg: string): { root: TestElement; output: string } {
	const output = sanitizeSvg(svg)
	expect(output).not.toBeNull()
	return { root: parseSvg(output ?? '').documentElement, output: output ?? '' }
}

const svgOpen = `<svg xmlns="${svgNamespace}" xmlns:xlink="http://www.w3.org/1999/xlink">`

describe('sanitizeSvg with DOMPurify bypassed', () => {
	test('DOMPurify is out of the way: an element it would drop stays', () => {
		const { root } = sanitized(`${svgOpen}<blocksmith-mark/><rect/></svg>`)
		expect(Array.from(root.querySelectorAll('*')).map((element) => element.localName)).toEqual([
			'blocksmith-mark',
			'rect',
		])
	})

	test.each(corpus.filter(({ name }) => !refused.has(name)))('cleans $name by itself', ({ name, source }) => {
		const { output } = sanitized(source)
		assertCleanText(output)
		// DOMPurify drops a root like <svg:svg>; the second pass alone keeps its prefix.
		assertCleanTree(output, { isRootPrefixed: name === 'prefixed-root.svg' })
	})

	test.each([
		['a script', '<script>alert(1)</script>'],
		['a script under a prefix', '<svg:script xmlns:svg="http://www.w3.org/2000/svg">alert(1)</svg:script>'],
		['a script in capitals', '<SCRIPT>alert(1)</SCRIPT>'],
		['foreignObject', '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>'],
		['an element of another namespace', '<iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example"/>'],
		['handler and listener', '<handler>alert(1)</handler><listener event="click"/>'],
		['embed and object', '<embed src="https://evil.example/x"/><object data="https://evil.example/x"/>'],
		['animate and set', '<animate attributeName="fill" to="red"/><set attributeName="fill" to="red"/>'],
		['an animation of href', '<animateMotion attributeName="xlink:href" to="javascript:alert(1)"/>'],
		['an animation of a handler', '<animateTransform attributeName="onbegin" to="alert(1)"/>'],
		['an animation of style', '<animateColor attributeName=" Style " to="x"/>'],
		['a style that imports', '<style>@import url(https://evil.example/x.css); rect { fill: red }</style>'],
		['a style that loads an image', '<style>rect { fill: url(https://evil.example/x) }</style>'],
	])('removes %s, and keeps the drawing beside it', (_label, markup) => {
		const { root, output } = sanitized(`${svgOpen}${markup}<rect id="kept" width="1" height="1"/></svg>`)
		expect(Array.from(root.querySelectorAll('*')).map((element) => element.localName)).toEqual(['rect'])
		expect(root.querySelector('rect')?.getAttribute('id')).toBe('kept')
		assertCleanTree(output)
	})

	test('keeps what is harmless: a style without loads, animations of harmless attributes', () => {
		const { root } = sanitized(
			`${svgOpen}<style>rect { fill: url(#g) }</style><rect><animateTransform attributeName="transform" type="rotate"/></rect></svg>`,
		)
		expect(Array.from(root.querySelectorAll('*')).map((element) => element.localName)).toEqual([
			'style',
			'rect',
			'animateTransform',
		])
	})

	test.each([
		['an event handler', 'onclick="alert(1)"'],
		['an event handler in capitals', 'ONLOAD="alert(1)"'],
		['a javascript: link', 'href="javascript:alert(1)"'],
		['an XLink to another document', 'xlink:href="https://evil.example/sprite.svg#icon"'],
		['a link with control characters in its scheme', 'href="java&#9;script:alert(1)"'],
		['a data: link on an element that is not an image', 'href="data:image/png;base64,AAAA"'],
		['xml:base', 'xml:base="https://evil.example/"'],
		['an attribute of another namespace', 'xmlns:ev="http://www.w3.org/2001/xml-events" ev:event="click"'],
		['a fill from another document', 'fill="url(https://evil.example/x.svg#g)"'],
		['a filter with a scheme hidden by a newline', 'filter="url(&#10;javascript:alert(1))"'],
		['a style that loads', 'style="fill: url(https://evil.example/x)"'],
		['a style with an escape', 'style="fill: u\\72l(x)"'],
		['a scheme in any other attribute', 'mask="file:///etc/passwd"'],
		['a scheme split by whitespace in any other attribute', 'mask="java&#9;script:alert(1)"'],
	])('removes %s, and keeps the other attributes', (_label, attribute) => {
		const { root, output } = sanitized(`${svgOpen}<use width="1" ${attribute} id="kept"/></svg>`)
		const use = root.querySelector('use')
		expect(Array.from(use?.attributes ?? []).map((item) => item.name)).toEqual(['width', 'id'])
		assertCleanText(output)
		assertCleanTree(output)
	})

	test('keeps internal references and raster images', () => {
		const { root } = sanitized(
			`${svgOpen}<use href="#a" xlink:href="#b" fill="url(#g)" style="stroke: url('#g')"/><image href="data:image/png;base64,AAAA"/></svg>`,
		)
		const use = root.querySelector('use')
		expect(use?.getAttribute('href')).toBe('#a')
		expect(use?.getAttribute('xlink:href')).toBe('#b')
		expect(use?.getAttribute('fill')).toBe('url(#g)')
		expect(use?.getAttribute('style')).toBe("stroke: url('#g')")
		expect(root.querySelector('image')?.getAttribute('href')).toBe('data:image/png;base64,AAAA')
	})

	test('refuses an SVG image inside an image, which could carry its own scripts', () => {
		const { root } = sanitized(`${svgOpen}<image href="data:image/svg+xml;base64,PHN2Zy8+"/></svg>`)
		expect(root.querySelector('image')?.getAttribute('href')).toBeNull()
	})

	test('drops namespace declarations other than SVG and XLink', () => {
		const { root } = sanitized(
			`<svg xmlns="${svgNamespace}" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:x="https://evil.example/ns" xmlns:svg="https://evil.example/ns"/>`,
		)
		expect(Array.from(root.attributes).map((attribute) => attribute.name)).toEqual(['xmlns', 'xmlns:xlink'])
	})

	test('drops comments, processing instructions and CDATA, and keeps text', () => {
		const { root, output } = sanitized(
			`${svgOpen}<!-- <script>alert(1)</script> --><?xml-stylesheet href="https://evil.example/x.css"?><text>kept<![CDATA[<script>]]></text></svg>`,
		)
		expect(hasStrayNodes(root)).toBe(false)
		expect(root.querySelector('text')?.textContent).toBe('kept')
		expect(output).not.toContain('evil')
	})
})
