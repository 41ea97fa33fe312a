import { createRequire } from 'node:module'
import createDOMPurify, { type WindowLike } from 'dompurify'

const svgNamespace = 'http://www.w3.org/2000/svg'
const xlinkNamespace = 'http://www.w3.org/1999/xlink'
const xmlNamespace = 'http://www.w3.org/XML/1998/namespace'
const xmlnsNamespace = 'http://www.w3.org/2000/xmlns/'

const defaultMaxBytes = 256 * 1024
/**
 * Sanitising is synchronous and blocks the event loop, and jsdom's costs grow faster than the
 * input: 20 000 levels of <g> take tens of seconds to parse (and overflow the serializer's
 * recursion), 20 000 attributes on one element take seconds to strip. These shapes are refused
 * before parsing; real icons stay far below all three limits.
 */
const maxDepth = 128
const maxElements = 10_000
const maxAttributesPerElement = 256

/** Checked again after DOMPurify, by local name, so a prefix (`<svg:script>`) or a case trick cannot slip past. */
const forbiddenElements = new Set([
	'script',
	'foreignobject',
	'iframe',
	'embed',
	'object',
	'handler',
	'listener',
	'animate',
	'set',
])
const animationElements = new Set(['animate', 'set', 'animatecolor', 'animatemotion', 'animatetransform'])

const fragmentReference = /^#[\w.:-]+$/
const rasterDataUri = /^data:image\/(?:png|jpeg|gif|webp);base64,[a-z0-9+/=\s]*$/i
/** Anything that could make a renderer fetch or run something; checked on values with whitespace and controls removed. */
const dangerousScheme = /(?:javascript|vbscript|livescript|data|file|https?|ftps?|blob|filesystem|jar|mhtml|wss?):/i
/** Markup whose content is not tags; removed before counting depth so a `<g>` inside a comment does not count. */
const nonTagMarkup = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<\?[\s\S]*?\?>/g
/** One start, end or empty-element tag of well-formed XML, where attribute values are always quoted and never hold `<`. */
const xmlTag = /<(\/?)[^\s/>!?]+(?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*\s*(\/?)>/g
const fragmentUrl = /url\(\s*(['"]?)#[\w.:-]*\1\s*\)/gi
/** CSS that loads or runs something; escapes are refused wholesale because they can spell any of these. */
const dangerousCss =
	/url\s*\(|@import|image-set|image\s*\(|cross-fade|element\s*\(|src\s*\(|expression\s*\(|-moz-binding|behavior|\\|<|javascript:|https?:|file:/i

/*
 * jsdom is loaded without its type declarations so that the server does not need @types/jsdom:
 * once installed, it puts the DOM library into the whole server program (vitest's optional types
 * import it even if nothing else does), and the browser's fetch types then clash with Node's
 * (Uint8Array request bodies stop type-checking). These are the few DOM members used here.
 */
type DomNode = {
	readonly nodeType: number
	readonly childNodes: ArrayLike<DomNode>
	readonly textContent: string | null
	removeChild(child: DomNode): unknown
}
type DomAttr = { readonly namespaceURI: string | null; readonly localName: string; readonly value: string }
type DomElement = DomNode & {
	readonly namespaceURI: string | null
	readonly localName: string
	readonly attributes: ArrayLike<DomAttr>
	getAttribute(name: string): string | null
	removeAttributeNode(attribute: DomAttr): unknown
	querySelectorAll(selectors: string): ArrayLike<DomElement>
	contains(other: DomNode): boolean
	remove(): void
}
type DomFragment = { readonly firstElementChild: DomElement | null; readonly childElementCount: number }
type SvgWindow = {
	DOMParser: new () => {
		parseFromString(text: string, type: 'image/svg+xml'): { doctype: unknown; documentElement: DomElement | null }
	}
	XMLSerializer: new () => { serializeToString(node: DomElement): string }
}
const elementNode = 1
const textNode = 3

let purifier: { window: SvgWindow; purify: ReturnType<typeof createDOMPurify> } | undefined

/** One jsdom window for the process: building one costs milliseconds and it holds no per-call state. */
function getPurifier() {
	if (!purifier) {
		const { JSDOM } = createRequire(import.meta.url)('jsdom') as { JSDOM: new (html: string) => { window: SvgWindow } }
		const { window } = new JSDOM('')
		purifier = { window, purify: createDOMPurify(window as unknown as WindowLike) }
	}
	return purifier
}

/**
 * Returns sanitised SVG markup, or null when the input must be refused (too big, not an SVG,
 * has DTD/entities, unparseable). The result is meant to be shown as an image (data URI, <img>),
 * never inlined into a page.
 */
export function sanitizeSvg(input: string | Uint8Array, options?: { maxBytes?: number }): string | null {
	const maxBytes = options?.maxBytes ?? defaultMaxBytes
	const text = decode(input, maxBytes)
	if (text === null) {
		return null
	}
	// A DTD is the only way to declare entities (XXE, billion laughs); no image needs one, so refuse rather than strip.
	if (/<!(?!--|\[CDATA\[)/i.test(text)) {
		return null
	}
	if (isTooComplex(text)) {
		return null
	}
	try {
		return sanitizeParsed(text)
	} catch {
		// jsdom or DOMPurify giving up on some input means the output could not be vouched for.
		return null
	}
}

export function svgDataUri(svg: string): string {
	return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`
}

function sanitizeParsed(text: string): string | null {
	const { window, purify } = getPurifier()
	const parsed = new window.DOMParser().parseFromString(text, 'image/svg+xml')
	// Without the SVG namespace a browser shows an XML error instead of an image, so there is nothing to rescue.
	if (parsed.doctype || !isSvgRoot(parsed.documentElement)) {
		return null
	}
	const fragment = purify.sanitize(parsed.documentElement as never, {
		USE_PROFILES: { svg: true, svgFilters: true },
		// DOMPurify leaves <use> out because of external references; enforceInvariants allows only #fragments.
		ADD_TAGS: ['use'],
		FORBID_TAGS: [...forbiddenElements],
		ALLOW_DATA_ATTR: false,
		// Children of a removed element are dropped with it, not hoisted into the image.
		KEEP_CONTENT: false,
		RETURN_DOM_FRAGMENT: true,
	}) as unknown as DomFragment
	const root = fragment.firstElementChild
	if (!root || fragment.childElementCount !== 1 || !isSvgRoot(root)) {
		return null
	}
	enforceInvariants(root)
	const output = new window.XMLSerializer().serializeToString(root)
	// The browser will parse the output as XML; make sure that gives back a single <svg>.
	const reparsed = new window.DOMParser().parseFromString(output, 'image/svg+xml')
	if (reparsed.doctype || !isSvgRoot(reparsed.documentElement)) {
		return null
	}
	return output
}

function isTooComplex(text: string): boolean {
	let depth = 0
	let elements = 0
	for (const [tag, closing, selfClosing] of text.replace(nonTagMarkup, '').matchAll(xmlTag)) {
		if (closing) {
			depth--
			continue
		}
		elements++
		if (!selfClosing) {
			depth++
		}
		if (depth > maxDepth || elements > maxElements || countAttributes(tag) > maxAttributesPerElement) {
			return true
		}
	}
	return false
}

function countAttributes(tag: string): number {
	return tag.match(/=\s*["']/g)?.length ?? 0
}

function decode(input: string | Uint8Array, maxBytes: number): string | null {
	if (typeof input === 'string') {
		if (input.length > maxBytes || Buffer.byteLength(input, 'utf8') > maxBytes) {
			return null
		}
		return input.replace(/^\uFEFF/, '')
	}
	if (input.byteLength > maxBytes) {
		return null
	}
	try {
		return new TextDecoder('utf-8', { fatal: true }).decode(input)
	} catch {
		return null
	}
}

function isSvgRoot(element: DomElement | null): element is DomElement {
	return element?.namespaceURI === svgNamespace && element.localName === 'svg'
}

/**
 * A second, independent pass over what DOMPurify kept, enforcing the rules this module promises
 * whatever DOMPurify's defaults are: SVG elements only, no scripting, and no reference that
 * leaves the document.
 */
function enforceInvariants(root: DomElement) {
	for (const node of Array.from(root.querySelectorAll('*'))) {
		// A descendant of an element removed earlier in this loop is already gone.
		if (root.contains(node) && !isAllowedElement(node)) {
			node.remove()
		}
	}
	for (const element of [root, ...Array.from(root.querySelectorAll('*'))]) {
		for (const attribute of Array.from(element.attributes)) {
			if (!isAllowedAttribute(element, attribute)) {
				element.removeAttributeNode(attribute)
			}
		}
	}
	removeStrayNodes(root)
}

/** Comments, processing instructions and CDATA carry nothing an icon needs; only elements and text stay. */
function removeStrayNodes(parent: DomNode) {
	for (const child of Array.from(parent.childNodes)) {
		if (child.nodeType === elementNode) {
			removeStrayNodes(child)
		} else if (child.nodeType !== textNode) {
			parent.removeChild(child)
		}
	}
}

function isAllowedElement(element: DomElement): boolean {
	const name = element.localName.toLowerCase()
	if (element.namespaceURI !== svgNamespace || forbiddenElements.has(name)) {
		return false
	}
	if (name === 'style') {
		return isSafeCss(element.textContent ?? '')
	}
	if (animationElements.has(name)) {
		// Animating href or a handler re-creates what the attribute pass removes.
		const target = (element.getAttribute('attributeName') ?? '').toLowerCase().replace(/^.*:/, '').trim()
		return target !== 'href' && !target.startsWith('on') && target !== 'style'
	}
	return true
}

function isAllowedAttribute(element: DomElement, attribute: DomAttr): boolean {
	// Declarations other than these two are dropped. The XLink one must stay under its usual prefix:
	// without it the serializer invents `ns1:href`, which no sanitiser (this one included) accepts again.
	if (attribute.namespaceURI === xmlnsNamespace) {
		return (
			(attribute.localName === 'xmlns' && attribute.value === svgNamespace) ||
			(attribute.localName === 'xlink' && attribute.value === xlinkNamespace)
		)
	}
	if (
		attribute.namespaceURI !== null &&
		attribute.namespaceURI !== xlinkNamespace &&
		attribute.namespaceURI !== xmlNamespace
	) {
		return false
	}
	const name = attribute.localName.toLowerCase()
	if (name.startsWith('on') || name === 'base') {
		return false
	}
	const value = attribute.value.trim()
	if (name === 'href') {
		return fragmentReference.test(value) || (element.localName.toLowerCase() === 'image' && rasterDataUri.test(value))
	}
	// Presentation attributes (fill, filter, mask, cursor…) take url() just like style does.
	if ((name === 'style' || /url\s*\(/i.test(value)) && !isSafeCss(value)) {
		return false
	}
	// biome-ignore lint/suspicious/noControlCharactersInRegex: browsers ignore these inside a scheme, so they are removed before the check.
	return !dangerousScheme.test(value.replace(/[\s\u0000-\u001f]/g, ''))
}

function isSafeCss(css: string): boolean {
	return !dangerousCss.test(css.replace(fragmentUrl, ''))
}
