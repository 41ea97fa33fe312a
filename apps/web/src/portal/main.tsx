import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { installErrorBeacon } from '#src/lib/error-beacon.ts'
import { readPortalLocation } from './location.ts'
import { PortalApp } from './portal-app.tsx'
import { takeTokenFromAddress } from './router.tsx'
import '#src/styles.css'

// The entry of portal.html, the client portal's visitor app (`/p/{slug}/…`, or a portal's own
// domain). Only React and the portal's code: no dashboard shell, router, session or data library
// (a budget of 100 KB gzipped in all, bench/web-bundle.bench.ts).

// First of all: a mailed link's token leaves the address before any request or error report.
const signInToken = takeTokenFromAddress()
installErrorBeacon()

const root = document.getElementById('root')
if (!root) {
	throw new Error('portal.html has no #root element')
}
const { slug, basePath } = readPortalLocation()
createRoot(root).render(
	<StrictMode>
		<PortalApp slug={slug} basePath={basePath} signInToken={signInToken} />
	</StrictMode>,
)
