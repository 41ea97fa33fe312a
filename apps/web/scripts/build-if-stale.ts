import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { build } from 'vite'

// `npm start` and the browser journeys call this so that a fresh checkout just works and an
// unchanged one starts at once. It fingerprints the *contents* of everything the bundle is
// made of, not mtimes: a checkout, `git stash` or copy resets mtimes without changing a byte,
// and a mtime can also move backwards (switching branches), which a "newer than" test misses.

const webDir = path.resolve(import.meta.dirname, '..')
const repoDir = path.resolve(webDir, '../..')
const distDir = path.join(webDir, 'dist')
/** The build's two pages: the app, and the public form page with its own small entry. */
const pageFiles = ['index.html', 'form.html'].map((name) => path.join(distDir, name))
const stampFile = path.join(distDir, '.build-stamp')

/** Files and folders (relative to the repo root) whose contents decide the bundle. */
const inputs = [
	'apps/web/src',
	'apps/web/public',
	'apps/web/index.html',
	'apps/web/form.html',
	'apps/web/vite.config.ts',
	'apps/web/package.json',
	'apps/web/tsconfig.json',
	'tsconfig.base.json',
	'packages/contracts/src',
	// Pins the versions of Vite, React and every other bundled dependency, including transitive ones.
	'package-lock.json',
]

function filesUnder(relativePath: string): string[] {
	const absolute = path.join(repoDir, relativePath)
	if (!existsSync(absolute)) {
		return []
	}
	if (!statSync(absolute).isDirectory()) {
		return [relativePath]
	}
	return readdirSync(absolute, { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => path.relative(repoDir, path.join(entry.parentPath, entry.name)))
}

/** A hash of every input file's path and contents, and of the VITE_* variables baked into the bundle. */
function fingerprint(): string {
	const hash = createHash('sha256')
	const files = inputs.flatMap(filesUnder).sort()
	for (const file of files) {
		hash.update(`${file.split(path.sep).join('/')}\0`)
		hash.update(
			createHash('sha256')
				.update(readFileSync(path.join(repoDir, file)))
				.digest('hex'),
		)
		hash.update('\0')
	}
	const viteEnv = Object.entries(process.env)
		.filter(([name]) => name.startsWith('VITE_'))
		.sort(([a], [b]) => a.localeCompare(b))
	hash.update(JSON.stringify(viteEnv))
	return hash.digest('hex')
}

type Stamp = { fingerprint: string; builtAt: string }

function readStamp(): Stamp | undefined {
	try {
		const stamp = JSON.parse(readFileSync(stampFile, 'utf8')) as Partial<Stamp>
		return typeof stamp.fingerprint === 'string' && typeof stamp.builtAt === 'string'
			? { fingerprint: stamp.fingerprint, builtAt: stamp.builtAt }
			: undefined
	} catch {
		return undefined
	}
}

/** Why the current build cannot be reused, or undefined when it can. */
function staleReason(current: string, stamp: Stamp | undefined): string | undefined {
	if (!pageFiles.every((file) => existsSync(file))) {
		return 'no build yet'
	}
	if (!stamp) {
		return 'the build has no stamp'
	}
	return stamp.fingerprint === current ? undefined : 'sources changed'
}

async function buildIfStale(): Promise<void> {
	// Taken before building: an edit made during the build leaves a stamp that no longer
	// matches, so the next run builds again instead of trusting a bundle of the older sources.
	const current = fingerprint()
	const stamp = readStamp()
	const reason = staleReason(current, stamp)
	if (reason === undefined && stamp) {
		console.log(`web app: reusing the build from ${stamp.builtAt} (sources unchanged)`)
		return
	}
	const started = performance.now()
	await build({ configFile: path.join(webDir, 'vite.config.ts'), root: webDir, logLevel: 'warn' })
	// Written last and atomically, so a build that failed or was interrupted has no stamp.
	const temporary = `${stampFile}.${process.pid}`
	writeFileSync(
		temporary,
		`${JSON.stringify({ fingerprint: current, builtAt: new Date().toISOString() } satisfies Stamp)}\n`,
	)
	renameSync(temporary, stampFile)
	const seconds = ((performance.now() - started) / 1000).toFixed(1)
	console.log(`web app: built in ${seconds} s (${reason})`)
}

try {
	await buildIfStale()
} catch (error) {
	console.error('web app: build failed:', error instanceof Error ? error.message : error)
	process.exit(1)
}
