// What the SVG sanitiser's tests check its output with, shared by svg.test.ts and
// svg-without-dompurify.test.ts: the hostile corpus, and checks of the text and of the tree a
// browser would build from it.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { expect } from 'vitest'

const corpusDir = new URL('../lib/svg-corpus/', import.meta.url)
export const corpus = readdirSync(corpusDir)
	.filter((name) => name.endsWith('.svg'))
	.sort()
	.map((name) => ({ name, source: readFileSync(new URL(name, corpusDir), 'utf8') }))

/** Input that must be refused outright rather than cleaned. */
export const refused = new Set(['xxe.svg', 'billion-laughs.svg'])

export const svgNamespace = 'http://www.w3.org/2000/svg'
const rasterDataUri = /^data:image\/(?:png|jpeg|gif|webp);base64,/i

// Loaded untyped on purpose, as in svg.ts, so the server program needs no @types/jsdom (and no DOM library).
type TestNode = { nodeType: number; nodeName: string; childNodes: ArrayLike<TestNode>; textContent: string | null }
export type TestElement = TestNode & {
	namespaceURI: string | null
	localName: string
	attributes: ArrayLike<{ namespaceURI: string | null; localName: string; name: string; value: string }>
	getAttribute(name: string): string | null
	querySelector(selectors: string): TestElement | null
	querySelectorAll(selectors: string): ArrayLike<TestElement>
}
type TestWindow = {
	DOMParser: new () => {
		parseFromString(text: string, type: 'image/svg+xml'): { doctype: unknown; documentElement: TestElement }
	}
	XMLSerializer: new () => { serializeToString(node: TestElement): string }
}
const { JSDOM } = createRequire(import.meta.url)('jsdom') as { JSDOM: new (html: string) => { window: TestWindow } }
const { window } = new JSDOM('')

export function parseSvg(svg: string) {
	return new window.DOMParser().parseFromString(svg, 'image/svg+xml')
}

export function all(root: TestElement, selectors: string): TestElement[] {
	return Array.from(root.querySelectorAll(selectors))
}

/** Comments (8) and processing instructions (7) anywhere below `node`. */
export function hasStrayNodes(node: TestNode): boolean {
	return Array.from(node.childNodes).some(
		(child) => child.nodeType === 7 || child.nodeType === 8 || hasStrayNodes(child),
	)
}

/** The namespace declarations are the only place a URL may legitimately remain. */
function withoutNamespaceDeclarations(svg: string): string {
	return svg.replace(/\sxmlns(?::[\w-]+)?\s*=\s*("[^"]*"|'[^']*')/g, '')
}

export function assertCleanText(svg: string) {
	const text = withoutNamespaceDeclarations(svg)
	expect(text).not.toMatch(/<script/i)
	expect(text).not.toMatch(/\son\w+\s*=/i)
	expect(text).not.toMatch(/javascript:/i)
	expect(text).not.toMatch(/foreignObject/i)
	expect(text).not.toMatch(/<\/?[\w:]*(?:iframe|embed|object)\b/i)
	expect(text).not.toMatch(/https?:|file:/i)
	expect(text).not.toMatch(/<!ENTITY|<!DOCTYPE/i)
	for (const match of text.matchAll(/href\s*=\s*("([^"]*)"|'([^']*)')/gi)) {
		const value = match[2] ?? match[3] ?? ''
		expect(value.startsWith('#') || rasterDataUri.test(value), `href="${value}"`).toBe(true)
	}
}

/** Parses the output the way a browser loading it as an image would, and checks the tree, not the text. */
export function assertCleanTree(svg: string, options?: { isRootPrefixed?: boolean }) {
	const document = parseSvg(svg)
	expect(document.doctype).toBeNull()
	const root = document.documentElement
	expect(root.localName).toBe('svg')
	expect(root.namespaceURI).toBe(svgNamespace)
	if (!options?.isRootPrefixed) {
		expect(root.getAttribute('xmlns')).toBe(svgNamespace)
	}
	const elements = [root, ...all(root, '*')]
	for (const element of elements) {
		expect(element.namespaceURI, element.nodeName).toBe(svgNamespace)
		expect(['script', 'foreignobject', 'iframe', 'embed', 'object', 'animate', 'set']).not.toContain(
			element.localName.toLowerCase(),
		)
		for (const attribute of Array.from(element.attributes)) {
			if (attribute.namespaceURI === 'http://www.w3.org/2000/xmlns/') {
				continue
			}
			const name = attribute.localName.toLowerCase()
			expect(name.startsWith('on'), `${element.localName} ${attribute.name}`).toBe(false)
			if (name === 'href') {
				expect(attribute.value.startsWith('#') || rasterDataUri.test(attribute.value), attribute.value).toBe(true)
			} else {
				expect(attribute.value).not.toMatch(/(?:javascript|data|https?|file):/i)
			}
		}
	}
	expect(hasStrayNodes(root)).toBe(false)
	return root
}

export function read(name: string): string {
	return readFileSync(new URL(name, corpusDir), 'utf8')
}
