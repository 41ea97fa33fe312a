import { createElement, type ReactNode } from 'react'

// A paragraph's text as the page shows it: **bold** and [links](https://…), nothing else. The
// text becomes React nodes (strings are escaped by React), so no HTML the owner types is ever
// interpreted, and a link goes only to http, https or mailto addresses. Small on purpose: a
// Markdown library would cost the public page more than its whole budget allows.

/** Link text up to 500 characters (no brackets or line breaks), an address up to 2,000 without spaces. */
const linkPattern = /\[([^[\]\n]{1,500})\]\(([^()\s]{1,2000})\)/y
/** Bold on one line, the shortest run, starting and ending with neither a space nor a star (as in Markdown). */
const boldPattern = /\*\*([^\s*](?:[^\n]*?[^\s*])?)\*\*/y
const escapable = new Set(['\\', '*', '[', ']', '(', ')'])

const allowedProtocols = new Set(['http:', 'https:', 'mailto:'])

/** The address to link to, normalised by the URL parser; null for anything but http, https and mailto. */
export function safeHref(address: string): string | null {
	// Relative addresses would resolve against the form's own page: only absolute ones are links.
	if (!/^[a-z][a-z\d+.-]*:/i.test(address)) {
		return null
	}
	try {
		const url = new URL(address)
		return allowedProtocols.has(url.protocol) ? url.href : null
	} catch {
		return null
	}
}

type Allowed = { bold: boolean; links: boolean }

function parse(text: string, allowed: Allowed, keyPrefix: string): ReactNode[] {
	const nodes: ReactNode[] = []
	let plain = ''
	const flush = () => {
		if (plain) {
			nodes.push(plain)
			plain = ''
		}
	}
	let index = 0
	while (index < text.length) {
		const char = text[index] as string
		const next = text[index + 1]
		if (char === '\\' && next !== undefined && escapable.has(next)) {
			plain += next
			index += 2
			continue
		}
		if (allowed.bold && char === '*' && next === '*') {
			boldPattern.lastIndex = index
			const match = boldPattern.exec(text)
			if (match && (match[1] as string).trim() !== '') {
				flush()
				const key = `${keyPrefix}b${index}`
				nodes.push(
					createElement(
						'strong',
						{ key, className: 'font-semibold' },
						...parse(match[1] as string, { bold: false, links: allowed.links }, key),
					),
				)
				index = boldPattern.lastIndex
				continue
			}
		}
		if (allowed.links && char === '[') {
			linkPattern.lastIndex = index
			const match = linkPattern.exec(text)
			if (match) {
				flush()
				const key = `${keyPrefix}a${index}`
				const label = parse(match[1] as string, { bold: allowed.bold, links: false }, key)
				const href = safeHref(match[2] as string)
				if (href) {
					nodes.push(
						createElement(
							'a',
							{
								key,
								href,
								target: '_blank',
								rel: 'noopener noreferrer',
								className: 'text-link underline underline-offset-2 hover:no-underline',
							},
							...label,
						),
					)
				} else {
					// A refused address (javascript:, a relative path): the words stay, the link goes.
					nodes.push(...label)
				}
				index = linkPattern.lastIndex
				continue
			}
		}
		plain += char
		index++
	}
	flush()
	return nodes
}

/** `text` with its **bold** and [links](https://…) as React nodes; everything else stays text. */
export function inlineMarkdown(text: string): ReactNode[] {
	return parse(text, { bold: true, links: true }, 'm')
}
