// Which portal this page is, for the entry (main.tsx).

/** Where the portal is: the server writes it into the page; Vite's dev server does not, so the path says. */
export function readPortalLocation(doc: Document = document, pathname = window.location.pathname) {
	try {
		const data = JSON.parse(doc.getElementById('blocksmith-portal')?.textContent ?? 'null') as {
			slug?: unknown
			basePath?: unknown
		} | null
		if (typeof data?.slug === 'string' && typeof data.basePath === 'string') {
			return { slug: data.slug, basePath: data.basePath }
		}
	} catch {
		// A damaged block: the path below.
	}
	const segment = /^\/p\/([^/]+)/.exec(pathname)?.[1] ?? ''
	let slug = segment
	try {
		slug = decodeURIComponent(segment)
	} catch {
		// Left as typed: the API answers 404.
	}
	return { slug, basePath: `/p/${segment}` }
}
