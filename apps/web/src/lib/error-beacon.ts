/**
 * Sends front-end errors to POST /api/log. `fetch` with keepalive is the modern beacon: it
 * survives the page unloading and, unlike sendBeacon, can send JSON.
 */
let sentThisPage = 0
const maxPerPage = 20

export function reportError(error: unknown, context: Record<string, string | number | boolean | null> = {}): void {
	if (sentThisPage >= maxPerPage) {
		return
	}
	sentThisPage += 1
	const err = error instanceof Error ? error : new Error(String(error))
	const body = JSON.stringify({
		level: 'error',
		message: err.message.slice(0, 2000),
		...(err.stack ? { stack: err.stack.slice(0, 8000) } : {}),
		url: location.href.slice(0, 2000),
		userAgent: navigator.userAgent.slice(0, 500),
		context,
	})
	void fetch('/api/log', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body,
		keepalive: true,
	}).catch(() => {})
}

export function installErrorBeacon(): void {
	window.addEventListener('error', (event) => reportError(event.error ?? event.message, { kind: 'error' }))
	window.addEventListener('unhandledrejection', (event) => reportError(event.reason, { kind: 'unhandledrejection' }))
}
