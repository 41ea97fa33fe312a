import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { installErrorBeacon } from '#src/lib/error-beacon.ts'
import { reportHeightToEmbedder } from './embedded.ts'
import { FormPage, readPageData } from './form-page.tsx'
import { applyPageTheme } from './page-theme.ts'
import './form.css'

// The entry of form.html, the public form page. Only React, the page and small pieces: no
// router, no data library, no session — visitors of a form are not users of the app, and the
// page must be quick on a phone (a budget of 100 KB gzipped in all, bench/web-bundle.bench.ts).

installErrorBeacon()
reportHeightToEmbedder()

/** The form's id or slug, from `/forms/{id}`. */
function idFromPath(pathname: string): string {
	const segment = pathname.replace(/^\/forms\//, '').split('/')[0] ?? ''
	try {
		return decodeURIComponent(segment)
	} catch {
		return segment
	}
}

const root = document.getElementById('root')
if (!root) {
	throw new Error('form.html has no #root element')
}

const initial = readPageData()
// The author's choice of light or dark wins over the visitor's system (auto follows it).
applyPageTheme(initial && 'form' in initial ? initial.form.theme.mode : 'auto')

createRoot(root).render(
	<StrictMode>
		<FormPage idOrSlug={idFromPath(window.location.pathname)} initial={initial} />
	</StrictMode>,
)
