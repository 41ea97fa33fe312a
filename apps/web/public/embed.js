// Blocksmith form embeds, for pages that show a form: put this script on the page once, then
//   <iframe data-blocksmith-form src="https://…/forms/ID" style="width:100%;border:0"></iframe>
// grows and shrinks with the form, and
//   <button data-blocksmith-popup="https://…/forms/ID">Contact us</button>
// opens the form over the page. Plain JavaScript, no dependencies: it runs on other people's sites.
;(() => {
	const script = document.currentScript
	const origin = new URL(script?.src ?? '', window.location.href).origin

	// The form page reports its height; only frames of ours showing it are resized.
	window.addEventListener('message', (event) => {
		const data = event.data
		if (event.origin !== origin || !data || data.type !== 'blocksmith:form-height' || typeof data.height !== 'number') {
			return
		}
		for (const frame of document.querySelectorAll('iframe[data-blocksmith-form]')) {
			if (frame.contentWindow === event.source) {
				frame.style.height = `${Math.ceil(data.height)}px`
			}
		}
	})

	function openPopup(url, opener) {
		const overlay = document.createElement('div')
		overlay.setAttribute('role', 'dialog')
		overlay.setAttribute('aria-modal', 'true')
		overlay.setAttribute('aria-label', opener.textContent?.trim() || 'Form')
		overlay.style.cssText =
			'position:fixed;inset:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;background:rgba(15,15,20,.55);padding:16px'
		const frame = document.createElement('iframe')
		frame.src = url
		frame.title = opener.textContent?.trim() || 'Form'
		frame.style.cssText =
			'width:100%;max-width:680px;height:min(88vh,900px);border:0;border-radius:12px;background:#fff'
		const close = document.createElement('button')
		close.type = 'button'
		close.textContent = '×'
		close.setAttribute('aria-label', 'Close')
		close.style.cssText =
			'position:fixed;top:12px;right:16px;width:40px;height:40px;border:0;border-radius:20px;background:#fff;font-size:24px;line-height:1;cursor:pointer'
		const dismiss = () => {
			overlay.remove()
			document.removeEventListener('keydown', onKey)
			opener.focus()
		}
		const onKey = (event) => {
			if (event.key === 'Escape') {
				dismiss()
			}
		}
		close.addEventListener('click', dismiss)
		overlay.addEventListener('click', (event) => {
			if (event.target === overlay) {
				dismiss()
			}
		})
		document.addEventListener('keydown', onKey)
		overlay.append(frame, close)
		document.body.append(overlay)
		close.focus()
	}

	document.addEventListener('click', (event) => {
		const opener = event.target instanceof Element ? event.target.closest('[data-blocksmith-popup]') : null
		const url = opener?.getAttribute('data-blocksmith-popup')
		// Only forms of this server: the script is not a way to frame anything else.
		if (!opener || !url || new URL(url, window.location.href).origin !== origin) {
			return
		}
		event.preventDefault()
		openPopup(url, opener)
	})
})()
