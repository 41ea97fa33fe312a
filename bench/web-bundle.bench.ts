// What each route of the web app makes a browser download on its first load: the entry with
// its static imports, plus the route's lazy chunks with theirs, as the Vite manifest records
// them. Gzipped, as they travel. Fails when a route is over its budget.
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'

const root = path.resolve(import.meta.dirname, '..')
const dist = path.join(root, 'apps/web/dist')

type ManifestChunk = { file: string; isEntry?: boolean; imports?: string[]; css?: string[] }
type Manifest = Record<string, ManifestChunk>

/**
 * Budgets in KB of gzipped JavaScript per first load. The sign-in page is where most visitors
 * arrive and must stay under 120 KB: React and the router alone are about 95 KB of it, so it
 * does without the form and schema libraries. The public form page keeps the same bar. The
 * other pages were set at their size when measured plus about 10 % headroom, so a change that
 * adds a library to them is noticed.
 */
const kb = 1024
const appShell = 'src/app/layouts/app-layout.tsx'
const routes: { path: string; modules: string[]; budgetJs: number }[] = [
	{ path: '/login', modules: ['src/app/routes/login-page.tsx'], budgetJs: 120 * kb },
	{ path: '/forms/{id}', modules: ['src/app/routes/public-form-page.tsx'], budgetJs: 120 * kb },
	{ path: '/paused', modules: ['src/app/routes/paused-page.tsx'], budgetJs: 130 * kb },
	{ path: '/confirm', modules: ['src/app/routes/confirm-page.tsx'], budgetJs: 130 * kb },
	{ path: '/forgot-password', modules: ['src/app/routes/forgot-password-page.tsx'], budgetJs: 175 * kb },
	{ path: '/register', modules: ['src/app/routes/register-page.tsx'], budgetJs: 185 * kb },
	{ path: '/reset-password', modules: ['src/app/routes/reset-password-page.tsx'], budgetJs: 185 * kb },
	{
		path: '/invite/{id}',
		modules: ['src/app/layouts/data-layout.tsx', 'src/app/routes/invite-page.tsx'],
		budgetJs: 200 * kb,
	},
	{
		path: '/',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/app/routes/home-page.tsx'],
		budgetJs: 220 * kb,
	},
	{
		path: '/forms',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/app/routes/module-pages.tsx'],
		budgetJs: 220 * kb,
	},
	{
		path: '/settings',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/app/routes/settings-page.tsx'],
		budgetJs: 250 * kb,
	},
	{
		path: '/workspaces',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/workspaces/routes/workspaces-page.tsx'],
		budgetJs: 255 * kb,
	},
	{
		path: '/workspaces/{w}/databases/{d}',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/workspaces/routes/database-page.tsx'],
		budgetJs: 260 * kb,
	},
]

function gzipSize(file: string): number {
	return gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length
}

function closure(manifest: Manifest, keys: string[]): Set<string> {
	const seen = new Set<string>()
	const visit = (key: string) => {
		if (seen.has(key)) {
			return
		}
		const chunk = manifest[key]
		if (!chunk) {
			throw new Error(`${key} is not in the build manifest; is the route list in bench/web-bundle.bench.ts up to date?`)
		}
		seen.add(key)
		for (const imported of chunk.imports ?? []) {
			visit(imported)
		}
	}
	for (const key of keys) {
		visit(key)
	}
	return seen
}

function measure(manifest: Manifest, keys: Set<string>) {
	let js = 0
	const css = new Set<string>()
	for (const key of keys) {
		const chunk = manifest[key] as ManifestChunk
		js += gzipSize(chunk.file)
		for (const file of chunk.css ?? []) {
			css.add(file)
		}
	}
	let cssBytes = 0
	for (const file of css) {
		cssBytes += gzipSize(file)
	}
	return { js, css: cssBytes, files: keys.size + css.size }
}

execFileSync(process.execPath, [path.join(root, 'apps/web/scripts/build-if-stale.ts')], { stdio: 'inherit' })
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Manifest
const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry)
if (!entryKey) {
	throw new Error('The build manifest has no entry')
}
// The baseline: what every page pays before its own code, the shell (React, router, session).
const shellKeys = closure(manifest, [entryKey])
const shell = measure(manifest, shellKeys)

const rows = routes.map((route) => {
	const figures = measure(manifest, closure(manifest, [entryKey, ...route.modules]))
	return { ...route, ...figures, ratioToShell: figures.js / shell.js, isOver: figures.js > route.budgetJs }
})

const format = (bytes: number) => `${(bytes / kb).toFixed(1)} KB`
console.log(
	`\nWeb app first load, gzipped (shell = entry + its imports: ${format(shell.js)} JS, ${format(shell.css)} CSS)\n`,
)
console.log(
	`${'route'.padEnd(30)}${'JS'.padStart(10)}${'CSS'.padStart(10)}${'files'.padStart(7)}${'× shell'.padStart(9)}${'budget'.padStart(10)}`,
)
for (const row of rows) {
	console.log(
		`${row.path.padEnd(30)}${format(row.js).padStart(10)}${format(row.css).padStart(10)}${String(row.files).padStart(7)}${row.ratioToShell.toFixed(2).padStart(9)}${format(row.budgetJs).padStart(10)}${row.isOver ? '  OVER BUDGET' : ''}`,
	)
}

mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true })
writeFileSync(
	path.join(import.meta.dirname, 'results/web-bundle.json'),
	`${JSON.stringify(
		{
			date: new Date().toISOString(),
			shell: { jsBytes: shell.js, cssBytes: shell.css },
			routes: rows.map(({ path: route, js, css, files, ratioToShell, budgetJs }) => ({
				route,
				jsBytes: js,
				cssBytes: css,
				files,
				ratioToShell: Number(ratioToShell.toFixed(3)),
				budgetJsBytes: budgetJs,
			})),
		},
		null,
		2,
	)}\n`,
)

// The pages before sign-in and the public pages must never download dashboard code.
const dashboardModules =
	/^src\/(app\/layouts\/(app|data)-layout|core\/teams\/components|app\/routes\/(settings|home)-page|workspaces\/)/
const publicRoutes = [
	'/login',
	'/register',
	'/forgot-password',
	'/reset-password',
	'/confirm',
	'/forms/{id}',
	'/paused',
]
const leaks = routes
	.filter((route) => publicRoutes.includes(route.path))
	.flatMap((route) =>
		[...closure(manifest, [entryKey, ...route.modules])]
			.filter((key) => dashboardModules.test(key))
			.map((key) => `${route.path} loads ${key}`),
	)
if (leaks.length > 0) {
	console.error(`\nDashboard code on a public page:\n${leaks.join('\n')}`)
	process.exit(1)
}

const over = rows.filter((row) => row.isOver)
if (over.length > 0) {
	console.error(`\n${over.map((row) => row.path).join(', ')} over budget`)
	process.exit(1)
}
