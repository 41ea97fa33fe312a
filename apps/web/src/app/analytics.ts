/** The spec's rule: no page-view analytics on these paths (a prefix match, so /forms/{id} too). */
const excludedPrefixes = ['/login', '/register', '/charts', '/forms', '/paused']

export function isAnalyticsAllowed(pathname: string): boolean {
	return !excludedPrefixes.some((prefix) => pathname.startsWith(prefix))
}

const scriptId = 'blocksmith-analytics'

/**
 * Adds the operator's analytics script on allowed paths and removes it on the others, so
 * what the page holds always matches the rule for the current path.
 */
export function syncAnalyticsScript(url: string | null, pathname: string, doc: Document = document): void {
	const existing = doc.getElementById(scriptId)
	if (!url || !isAnalyticsAllowed(pathname)) {
		existing?.remove()
		return
	}
	if (existing) {
		return
	}
	const script = doc.createElement('script')
	script.id = scriptId
	script.src = url
	script.defer = true
	doc.head.appendChild(script)
}
