import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react'

// The portal's own router: four kinds of path under the portal's base (`/p/{slug}`, or nothing
// on a custom domain), on the History API. React Router would cost the page about a third of
// its budget for what fits in this file.

export type Route =
	| { name: 'home' }
	| { name: 'sign-in'; token: string | null }
	| { name: 'page'; pageId: string }
	| { name: 'row'; pageId: string; rowId: string }
	| { name: 'form'; formId: string }
	| { name: 'invoices' }
	| { name: 'not-found' }

function decode(segment: string): string {
	try {
		return decodeURIComponent(segment)
	} catch {
		return segment
	}
}

export const formsSegment = '_forms'
export const invoicesSegment = '_invoices'

/** What a location inside the portal shows; `basePath` is stripped first. */
export function parseRoute(pathname: string, search: string, basePath: string): Route {
	const base = basePath.toLowerCase()
	let rest = pathname
	if (base && rest.toLowerCase().startsWith(base)) {
		rest = rest.slice(base.length)
	}
	const segments = rest.split('/').filter(Boolean).map(decode)
	if (segments.length === 0) {
		return { name: 'home' }
	}
	if (segments.length === 1 && segments[0] === 'sign-in') {
		return { name: 'sign-in', token: new URLSearchParams(search).get('token') }
	}
	// `_forms` and `_invoices` can never be pages: page ids are lowercase letters, digits and dashes.
	if (segments.length === 1 && segments[0] === invoicesSegment) {
		return { name: 'invoices' }
	}
	if (segments.length === 2 && segments[0] === formsSegment) {
		return { name: 'form', formId: segments[1] as string }
	}
	if (segments.length === 1) {
		return { name: 'page', pageId: segments[0] as string }
	}
	if (segments.length === 2) {
		return { name: 'row', pageId: segments[0] as string, rowId: segments[1] as string }
	}
	return { name: 'not-found' }
}

/** A path inside the portal, from its segments. */
export function portalHref(basePath: string, ...segments: string[]): string {
	const tail = segments.map(encodeURIComponent).join('/')
	return `${basePath}/${tail}`
}

/**
 * A mailed link's token, taken out of the address before the app renders or calls anything, so
 * that no request (nor an error report) carries it in its Referer or URL, and the history never
 * keeps it. Null when the page is not a sign-in link.
 */
export function takeTokenFromAddress(): string | null {
	const url = new URL(window.location.href)
	const token = url.searchParams.get('token')
	if (!token || !/\/sign-in\/?$/.test(url.pathname)) {
		return null
	}
	url.searchParams.delete('token')
	window.history.replaceState(null, '', url.pathname + url.search + url.hash)
	return token
}

const listeners = new Set<() => void>()

function subscribe(listener: () => void): () => void {
	listeners.add(listener)
	window.addEventListener('popstate', listener)
	return () => {
		listeners.delete(listener)
		window.removeEventListener('popstate', listener)
	}
}

const readLocation = () => window.location.pathname + window.location.search

/** The current path and query, re-rendered on every navigation. */
export function useLocation(): { pathname: string; search: string } {
	const href = useSyncExternalStore(subscribe, readLocation, readLocation)
	const queryAt = href.indexOf('?')
	return queryAt === -1
		? { pathname: href, search: '' }
		: { pathname: href.slice(0, queryAt), search: href.slice(queryAt) }
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
	if (options.replace) {
		window.history.replaceState(null, '', to)
	} else {
		window.history.pushState(null, '', to)
		// A new page starts at its top, as a link to another document would.
		window.scrollTo?.(0, 0)
	}
	for (const listener of listeners) {
		listener()
	}
}

/** An anchor that navigates inside the portal without reloading it; modified clicks open tabs as usual. */
export function Link({ href, onClick, ...props }: AnchorHTMLAttributes<HTMLAnchorElement> & { href: string }) {
	const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
		onClick?.(event)
		if (
			event.defaultPrevented ||
			event.button !== 0 ||
			event.metaKey ||
			event.ctrlKey ||
			event.shiftKey ||
			event.altKey
		) {
			return
		}
		event.preventDefault()
		navigate(href)
	}
	return <a href={href} onClick={handleClick} {...props} />
}
