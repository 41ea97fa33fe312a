import { createRequire } from 'node:module'
import type * as CssTree from 'css-tree'

// A form author's own CSS, made safe to put in the public page. It is parsed with a real CSS
// parser (css-tree), never pattern-matched: what the browser would read as @import or url() is
// what gets found. Rules are confined to the form's root element (`html`, `body` and `:root`
// name the root itself); nothing may load a file from elsewhere (no @import, url() only with a
// data: URI); at-rules other than those that group rules are refused. The page adds paint
// containment on the root, so even `position: fixed` cannot cover anything outside the form.
// CSS nesting is refused: css-tree does not read it, and a rule it cannot read is not scoped.

/**
 * css-tree (some 270 modules) is loaded by the first check rather than with the server: most
 * starts never need it. Its CommonJS build, because a check is synchronous.
 */
let loadedCssTree: typeof CssTree | undefined
function cssTree(): typeof CssTree {
	loadedCssTree ??= createRequire(import.meta.url)('css-tree') as typeof CssTree
	return loadedCssTree
}

export const customCssLimits = { maxChars: 20_000 } as const

/** At-rules whose blocks hold rules, scoped like any other rule. */
const groupingAtRules = new Set(['media', 'supports', 'container', 'layer'])
/** At-rules kept as they are: their blocks hold declarations or keyframes, not selectors. */
const keptAtRules = new Set(['keyframes', '-webkit-keyframes', 'font-face', 'property', 'counter-style'])
const rootNames = new Set(['html', 'body'])
/** Functions that take an image or font by a string as well as by url(). */
const imageFunctions = new Set(['image', 'image-set', '-webkit-image-set', 'cross-fade', '-webkit-cross-fade', 'src'])

export type CssCheck = { css: string; problems: string[] }

function isDataUri(value: string): boolean {
	return /^\s*data:(image|font)\//i.test(value)
}

/**
 * The CSS confined to `scope` (a class selector, e.g. `.bs-form`), or the problems that keep it
 * from being used, each naming its line. Empty CSS comes back empty.
 */
export function scopeCss(source: string, scope: string): CssCheck {
	const problems: string[] = []
	if (source.length > customCssLimits.maxChars) {
		return { css: '', problems: [`Custom CSS is longer than ${customCssLimits.maxChars} characters.`] }
	}
	const ast = cssTree().parse(source, {
		positions: true,
		onParseError: (error) => {
			problems.push(`Line ${(error as { line?: number }).line ?? '?'}: ${error.message.replace(/\.$/, '')}.`)
		},
	})
	const scopeSelector = cssTree().parse(scope, { context: 'selector' }) as CssTree.Selector
	const line = (node: CssTree.CssNode) => node.loc?.start.line ?? '?'

	cssTree().walk(ast, {
		enter(this: CssTree.WalkContext, node: CssTree.CssNode) {
			if (node.type === 'Atrule') {
				const name = node.name.toLowerCase()
				if (!groupingAtRules.has(name) && !keptAtRules.has(name)) {
					problems.push(
						name === 'import'
							? `Line ${line(node)}: @import is not allowed: a form's CSS cannot load other files.`
							: `Line ${line(node)}: @${node.name} is not allowed in a form's CSS.`,
					)
				}
			} else if (node.type === 'Url') {
				// An @import is refused as a whole; its address need not be told apart.
				const isImported = this.atrule?.name.toLowerCase() === 'import'
				if (!isDataUri(node.value) && !isImported) {
					problems.push(
						`Line ${line(node)}: url() can only hold a data: image or font; a form's CSS cannot load files from elsewhere.`,
					)
				}
			} else if (node.type === 'Function' && imageFunctions.has(node.name.toLowerCase())) {
				cssTree().walk(node, (inner) => {
					if (inner.type === 'String' && !isDataUri(inner.value)) {
						problems.push(`Line ${line(node)}: ${node.name}() can only hold data: images.`)
					}
				})
			} else if (node.type === 'Rule' && node.prelude.type === 'SelectorList') {
				if (insideKeyframes(this)) {
					return
				}
				node.prelude.children.forEach((selector) => {
					if (selector.type === 'Selector') {
						scopeSelectorTo(selector, scopeSelector)
					}
				})
			}
		},
	})
	if (problems.length > 0) {
		return { css: '', problems: [...new Set(problems)].slice(0, 10) }
	}
	// Never a closing tag, wherever the CSS ends up (in a string, `<\/` reads as `</`).
	return { css: cssTree().generate(ast).replaceAll('</', '<\\/'), problems: [] }
}

/** Whether the walker is inside a @keyframes block, whose "selectors" are percentages. */
function insideKeyframes(context: CssTree.WalkContext): boolean {
	const atrule = context.atrule
	return atrule !== null && atrule !== undefined && /keyframes$/i.test(atrule.name)
}

/** `a b` becomes `.scope a b`; `html a`, `body a` and `:root a` become `.scope a`. */
function scopeSelectorTo(selector: CssTree.Selector, scope: CssTree.Selector): void {
	const first = selector.children.first
	const scopeNodes = () => cssTree().clone(scope) as CssTree.Selector
	const isRoot =
		first !== null &&
		((first.type === 'TypeSelector' && rootNames.has(first.name.toLowerCase())) ||
			(first.type === 'PseudoClassSelector' && first.name.toLowerCase() === 'root'))
	if (isRoot) {
		// The root's own place: `:root` or `body` alone style the form root itself.
		selector.children.shift()
		selector.children.prependList(scopeNodes().children)
		return
	}
	selector.children.prependData({ type: 'Combinator', name: ' ' } as CssTree.Combinator)
	selector.children.prependList(scopeNodes().children)
}
