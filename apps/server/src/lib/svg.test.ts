import { describe, expect, test } from 'vitest'
import { sanitizeSvg, svgDataUri } from '#src/lib/svg.ts'
import {
	all,
	assertCleanText,
	assertCleanTree,
	corpus,
	parseSvg,
	read,
	refused,
	svgNamespace,
} from '#src/test/svg-checks.ts'

describe('sanitizeSvg on the hostile corpus', () => {
	test('the corpus is there', () => {
		expect(corpus.length).toBeGreaterThanOrEqual(15)
	})

	test.each(corpus)('$name', ({ name, source }) => {
		const output = sanitizeSvg(source)
		if (refused.has(name)) {
			expect(output).toBeNull()
			return
		}
		// Everything else is cleaned rather than refused, so the checks below have something to inspect.
		if (name !== 'prefixed-root.svg') {
			expect(output).not.toBeNull()
		}
		if (output !== null) {
			assertCleanText(output)
			assertCleanTree(output)
			// Idempotent: cleaning the cleaned output changes nothing.
			expect(sanitizeSvg(output)).toBe(output)
		}
	})

	test('bytes are handled like text', () => {
		for (const { source } of corpus) {
			expect(sanitizeSvg(new TextEncoder().encode(source))).toBe(sanitizeSvg(source))
		}
	})

	test('drawing survives next to what was removed', () => {
		const onload = sanitizeSvg(read('onload-root.svg')) ?? ''
		expect(onload).toContain('<circle')
		const styles = assertCleanTree(sanitizeSvg(read('style-attribute-url.svg')) ?? '')
		const rects = all(styles, 'rect')
		expect(rects).toHaveLength(5)
		expect(rects[4]?.getAttribute('fill')).toBe('url(#g)')
		expect(rects[4]?.getAttribute('style')).toBe("stroke:url('#g')")
		const imports = assertCleanTree(sanitizeSvg(read('style-import.svg')) ?? '')
		expect(all(imports, 'style').map((style) => style.textContent)).toEqual(['rect { fill: red }'])
		const images = assertCleanTree(sanitizeSvg(read('image-metadata.svg')) ?? '')
		expect(all(images, 'image[href]').map((image) => image.getAttribute('href'))).toEqual([
			expect.stringMatching(/^data:image\/png;base64,/),
		])
	})
})

describe('sanitizeSvg keeps an ordinary logo', () => {
	const source = read('benign.svg')
	const output = sanitizeSvg(source) ?? ''

	test('with its shapes, gradients and internal references', () => {
		expect(output).toContain('<path')
		expect(output).toContain('<linearGradient')
		expect(output).toMatch(/<use href="#block"/)
		expect(output).toMatch(/<use xlink:href="#block"/)
		expect(output.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
		const root = assertCleanTree(output)
		const original = parseSvg(source).documentElement
		for (const selector of ['path', 'rect', 'circle', 'stop', 'use', 'linearGradient', 'radialGradient', 'clipPath']) {
			expect(all(root, selector).length, selector).toBe(all(original, selector).length)
		}
		expect(root.getAttribute('viewBox')).toBe('0 0 64 64')
		expect(root.querySelector('path')?.getAttribute('d')).toBe('M8 20 L32 8 L56 20 L32 32 Z')
		expect(root.querySelector('g')?.getAttribute('clip-path')).toBe('url(#clip)')
		expect(root.querySelector('text')?.textContent).toBe('bs & co')
	})
})

describe('sanitizeSvg refuses', () => {
	const rect = '<rect width="1" height="1"/>'
	const huge = `<svg xmlns="${svgNamespace}">${rect.repeat(Math.ceil((256 * 1024) / rect.length) + 1)}</svg>`

	test('input over 256 KiB, as text and as bytes', () => {
		expect(huge.length).toBeGreaterThan(256 * 1024)
		expect(sanitizeSvg(huge)).toBeNull()
		expect(sanitizeSvg(new TextEncoder().encode(huge))).toBeNull()
	})

	test('input over a smaller cap, counted in bytes rather than characters', () => {
		const small = `<svg xmlns="${svgNamespace}"><text>${'é'.repeat(60)}</text></svg>`
		expect(small.length).toBeLessThan(128)
		expect(sanitizeSvg(small, { maxBytes: 128 })).toBeNull()
		expect(sanitizeSvg(small, { maxBytes: 256 })).not.toBeNull()
	})

	test.each([
		['empty', ''],
		['plain text', 'hello'],
		['HTML', '<html><body><svg xmlns="http://www.w3.org/2000/svg"/></body></html>'],
		['SVG without its namespace', '<svg viewBox="0 0 1 1"><rect width="1" height="1"/></svg>'],
		['another XML root', '<feed xmlns="http://www.w3.org/2005/Atom"/>'],
		['unclosed', '<svg xmlns="http://www.w3.org/2000/svg"><g></svg>'],
		['two roots', '<svg xmlns="http://www.w3.org/2000/svg"/><svg xmlns="http://www.w3.org/2000/svg"/>'],
		['a DOCTYPE without entities', '<!DOCTYPE svg><svg xmlns="http://www.w3.org/2000/svg"/>'],
		['an ENTITY inside a comment-looking trick', '<svg xmlns="http://www.w3.org/2000/svg"><!ENTITY x "y"></svg>'],
	])('%s', (_label, input) => {
		expect(sanitizeSvg(input)).toBeNull()
	})

	test('shapes that would make jsdom slow: deep nesting, many elements, many attributes', () => {
		const nested = (depth: number) => `<svg xmlns="${svgNamespace}">${'<g>'.repeat(depth)}${'</g>'.repeat(depth)}</svg>`
		expect(sanitizeSvg(nested(100))).not.toBeNull()
		expect(sanitizeSvg(nested(200))).toBeNull()
		// A <g> inside a comment or CDATA is not a tag and does not count.
		expect(sanitizeSvg(`<svg xmlns="${svgNamespace}"><!--${'<g>'.repeat(500)}--></svg>`)).not.toBeNull()
		const started = Date.now()
		expect(sanitizeSvg(nested(30_000))).toBeNull()
		expect(sanitizeSvg(`<svg xmlns="${svgNamespace}">${'<g/>'.repeat(20_000)}</svg>`)).toBeNull()
		const attributes = Array.from({ length: 1000 }, (_, index) => `a${index}="1"`).join(' ')
		expect(sanitizeSvg(`<svg xmlns="${svgNamespace}"><g ${attributes}/></svg>`)).toBeNull()
		expect(Date.now() - started).toBeLessThan(1000)
	})

	test('bytes that are not UTF-8', () => {
		const bytes = new Uint8Array([...new TextEncoder().encode(`<svg xmlns="${svgNamespace}"><text>`), 0xff, 0xfe])
		expect(sanitizeSvg(bytes)).toBeNull()
	})
})

describe('svgDataUri', () => {
	test('round-trips through base64', () => {
		const svg = sanitizeSvg(read('benign.svg')) ?? ''
		const uri = svgDataUri(svg)
		expect(uri.startsWith('data:image/svg+xml;base64,')).toBe(true)
		const decoded = Buffer.from(uri.slice('data:image/svg+xml;base64,'.length), 'base64').toString('utf8')
		expect(decoded).toBe(svg)
	})

	test('keeps non-ASCII text intact', () => {
		const svg = `<svg xmlns="${svgNamespace}"><text>Blöcke — 積み木 ✓</text></svg>`
		const decoded = Buffer.from(svgDataUri(svg).split(',')[1] ?? '', 'base64').toString('utf8')
		expect(decoded).toBe(svg)
	})
})
