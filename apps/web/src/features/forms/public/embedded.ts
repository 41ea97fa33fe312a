// When the form page is inside another page's iframe, it tells that page its height (embed.js
// listens), so the frame grows and shrinks with the form: no inner scrollbar, no gap.

export function isEmbedded(): boolean {
	try {
		return window.parent !== window
	} catch {
		return true
	}
}

export function reportHeightToEmbedder(): void {
	if (!isEmbedded() || typeof ResizeObserver === 'undefined') {
		return
	}
	const root = document.getElementById('root')
	if (!root) {
		return
	}
	let last = 0
	const report = () => {
		// The content's own height: the document and the body are at least as tall as the frame
		// (body has min-height: 100dvh), so they would let the frame grow but never shrink.
		const height = Math.ceil(root.getBoundingClientRect().height)
		if (height !== last) {
			last = height
			// The height says nothing private, and the embedding page's origin is not known here.
			window.parent.postMessage({ type: 'blocksmith:form-height', height }, '*')
		}
	}
	new ResizeObserver(report).observe(root)
	report()
}
