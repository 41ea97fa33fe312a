import { existsSync } from 'node:fs'
import path from 'node:path'
import { type BuildInputs, isUnchangedSince, readSources, readStamp, writeStamp } from './build-stamp.ts'

// `npm start` and the browser journeys call this so that a fresh checkout just works and an
// unchanged one starts at once: the build is reused when the stamp says its sources have not
// changed (build-stamp.ts), and Vite is loaded only when there is something to build.

const webDir = path.resolve(import.meta.dirname, '..')
const distDir = path.join(webDir, 'dist')
/** The build's pages: the app, the public form and chart pages and the portal, each with its own entry. */
const pageFiles = ['index.html', 'form.html', 'chart.html', 'portal.html'].map((name) => path.join(distDir, name))
const stampFile = path.join(distDir, '.build-stamp')

const build: BuildInputs = {
	repoDir: path.resolve(webDir, '../..'),
	inputs: [
		'apps/web/src',
		'apps/web/public',
		'apps/web/index.html',
		'apps/web/form.html',
		'apps/web/chart.html',
		'apps/web/portal.html',
		'apps/web/vite.config.ts',
		'apps/web/package.json',
		'apps/web/tsconfig.json',
		'tsconfig.base.json',
		'packages/contracts/src',
		// Pins the versions of Vite, React and every other bundled dependency, including transitive ones.
		'package-lock.json',
	],
	env: process.env,
}

async function buildIfStale(): Promise<void> {
	const hasPages = pageFiles.every((file) => existsSync(file))
	const stamp = readStamp(stampFile)
	if (hasPages && stamp && isUnchangedSince(build, stamp)) {
		console.log(`web app: reusing the build from ${stamp.builtAt} (sources unchanged)`)
		return
	}
	// Read before building: an edit made during the build leaves a stamp that no longer matches,
	// so the next run builds again instead of trusting a bundle of the older sources.
	const sources = readSources(build)
	if (hasPages && stamp && stamp.fingerprint === sources.fingerprint) {
		// Same contents, other records (a checkout, a copy): stamped again, so the next start need not read them.
		writeStamp(stampFile, { ...stamp, snapshot: sources.snapshot })
		console.log(`web app: reusing the build from ${stamp.builtAt} (sources unchanged)`)
		return
	}
	const reason = !hasPages ? 'no build yet' : !stamp ? 'the build has no stamp' : 'sources changed'
	const started = performance.now()
	const { build: viteBuild } = await import('vite')
	await viteBuild({ configFile: path.join(webDir, 'vite.config.ts'), root: webDir, logLevel: 'warn' })
	// Written last, so a build that failed or was interrupted has no stamp.
	writeStamp(stampFile, {
		fingerprint: sources.fingerprint,
		builtAt: new Date().toISOString(),
		snapshot: sources.snapshot,
	})
	const seconds = ((performance.now() - started) / 1000).toFixed(1)
	console.log(`web app: built in ${seconds} s (${reason})`)
}

try {
	await buildIfStale()
} catch (error) {
	console.error('web app: build failed:', error instanceof Error ? error.message : error)
	process.exit(1)
}
