import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { LandingPage } from '#src/app/landing-page.tsx'
import '#src/styles.css'

const root = document.getElementById('root')
if (!root) {
	throw new Error('index.html has no #root element')
}

createRoot(root).render(
	<StrictMode>
		<LandingPage />
	</StrictMode>,
)
