// Links and images come from the team's rows and Notion pages: anyone who can edit those could put
// a `javascript:` URL there. Only these schemes ever become an href or a src.

const linkSchemes = new Set(['http:', 'https:', 'mailto:'])

/** The URL as an href when it is http(s) or mailto; null otherwise (the text is shown without a link). */
export function safeHref(raw: string | null | undefined): string | null {
	if (!raw) {
		return null
	}
	try {
		const url = new URL(raw.trim())
		return linkSchemes.has(url.protocol) ? url.href : null
	} catch {
		return null
	}
}

/** An image or file source: our own paths (the portal's file links) or http(s). */
export function safeSrc(raw: string | null | undefined): string | null {
	if (!raw) {
		return null
	}
	if (raw.startsWith('/') && !raw.startsWith('//')) {
		return raw
	}
	const href = safeHref(raw)
	return href && !href.startsWith('mailto:') ? href : null
}
