import { accessSync, constants } from 'node:fs'

const defaultChromium = '/usr/bin/chromium'

// The flags of architecture §5: no GPU, no sandbox (containers), and nothing that phones home
// or updates itself while a journey runs.
export const chromiumFlags = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
	'--no-first-run',
]

/**
 * CHROMIUM_PATH wins when set, even if it points nowhere: someone who set it wants that
 * browser, and silently falling back to another one would hide their mistake.
 */
export function findChromium(env: NodeJS.ProcessEnv = process.env): { path: string; problem?: string } {
	const candidate = env.CHROMIUM_PATH || defaultChromium
	try {
		accessSync(candidate, constants.X_OK)
		return { path: candidate }
	} catch {
		const hint = env.CHROMIUM_PATH ? 'set by CHROMIUM_PATH' : 'install the Debian package chromium or set CHROMIUM_PATH'
		return { path: candidate, problem: `no executable Chromium at ${candidate} (${hint})` }
	}
}
