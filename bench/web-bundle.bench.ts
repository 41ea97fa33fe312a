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

/** The app's entry (the shell and the client router) and the public form page's own entry. */
const appEntry = 'index.html'
const formEntry = 'form.html'
/** The public chart page's entry: its chart is drawn by the server, the script only adds to it. */
const chartEntry = 'chart.html'
/** The client portal's visitor app (decision 038): React and its own router, nothing of the dashboard. */
const portalEntry = 'portal.html'

/**
 * Budgets in KB of gzipped JavaScript per first load. The sign-in page is where most visitors
 * arrive and must stay under 120 KB: React and the router alone are about 95 KB of it, so it
 * does without the form and schema libraries. The public form page is its own entry
 * (form.html, without the router or the session) and its budget counts JavaScript and CSS
 * together: 100 KB, against OpnForm's 323 KB. The other pages were set at their size when
 * measured plus about 10 %, so a change that adds a library to them is noticed.
 */
const kb = 1024
const appShell = 'src/app/layouts/app-layout.tsx'
type Route = {
	path: string
	/** The HTML entry the server answers this path with; the app's unless said. */
	entry?: string
	/** The route's lazy chunks, loaded after the entry. */
	modules: string[]
	budgetJs?: number
	/** A budget for JavaScript and CSS together. */
	budgetTotal?: number
}
const routes: Route[] = [
	// 123 KB since decision 008's third amendment (2026-11-26, the invoice routes): see there.
	{ path: '/login', modules: ['src/app/routes/login-page.tsx'], budgetJs: 123 * kb },
	{ path: '/forms/{id}', entry: formEntry, modules: [], budgetTotal: 100 * kb },
	// Embedded in Notion pages, many to a page: 60 KB in all is the ceiling, a few KB the aim.
	{ path: '/charts/{id}', entry: chartEntry, modules: [], budgetTotal: 60 * kb },
	// Issue 18: the portal's first load, JS and CSS, within 100 KB like the form page.
	{ path: '/p/{slug}', entry: portalEntry, modules: [], budgetTotal: 100 * kb },
	{
		// Under the dashboard's data layer since billing (issue 14), so Resume and the gate read the
		// same organization state; most visitors arrive from the dashboard with it loaded already.
		path: '/paused',
		modules: ['src/app/layouts/data-layout.tsx', 'src/app/routes/paused-page.tsx'],
		budgetJs: 185 * kb,
	},
	{
		path: '/pricing',
		modules: ['src/app/layouts/data-layout.tsx', 'src/app/routes/pricing-page.tsx'],
		budgetJs: 210 * kb,
	},
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
		// 223 KB since the running timer joined the app's frame, 224 KB with the invoice routes in the
		// shell (decision 008, 2026-11-26). 225 KB with the portal setup routes (224.5 KB measured, 223.5
		// without them: the router's three routes, and Radix's primitive in a chunk of its own).
		budgetJs: 225 * kb,
	},
	{
		path: '/forms',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/features/forms/routes/forms-page.tsx'],
		budgetJs: 258 * kb,
	},
	{
		path: '/forms/{id}/edit',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/features/forms/routes/form-builder-page.tsx'],
		// 299 KB since /invoices/settings shares the text area, native select and tabs with it: the same
		// code in more, smaller chunks (297.9 KB without that route, 2026-11-26). 301 KB since the invoice
		// editor shares the unsaved-changes guard and the save bar's leave dialog with it (299.5 KB without it).
		// 302 KB with the portal setup routes (301.3 KB measured, 300.1 without them). 305 KB with issue 19's
		// builder (304.3 KB measured, 2026-11-26): the Add menu with every new kind and content item, the
		// kinds' icons in the list and the preview's new kinds and pages; the Logic, Theme and Settings tabs
		// and each kind's own settings load after it (components/builder/lazy-editors.tsx).
		budgetJs: 305 * kb,
	},
	{
		path: '/forms/{id}/submissions',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/features/forms/routes/form-submissions-page.tsx'],
		budgetJs: 252 * kb,
	},
	{
		path: '/forms/{id}/analytics',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/features/forms/routes/form-analytics-page.tsx'],
		budgetJs: 242 * kb,
	},
	{
		// Recharts arrives with the chart, and the drop-off bars with theirs, after the page: what the
		// analytics tab costs in all.
		path: '/forms/{id}/analytics +chart',
		modules: [
			'src/app/layouts/data-layout.tsx',
			appShell,
			'src/features/forms/routes/form-analytics-page.tsx',
			'src/features/forms/components/daily-chart.tsx',
			'src/features/forms/components/drop-off-chart.tsx',
		],
		budgetJs: 362 * kb,
	},
	{
		path: '/settings',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/app/routes/settings-page.tsx'],
		// 251 KB with the portal setup routes (250.9 KB measured, 249.8 without them).
		budgetJs: 251 * kb,
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
	{
		// The timer, the entries and, before anything is mapped, the setup: one chunk of its own.
		path: '/time',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/features/time/routes/time-page.tsx'],
		budgetJs: 262 * kb,
	},
	{
		// The profile form with its choices (ISO countries and currencies, numbering, tax rates) and the PDF preview.
		path: '/invoices/settings',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/features/invoices/routes/invoice-settings-page.tsx'],
		// 276 KB with the portal setup routes (275.1 KB measured, 273.9 without them).
		budgetJs: 276 * kb,
	},
	{
		// The list: totals, filters, saved filters and the New invoice dialog (243.2 KB measured).
		path: '/invoices',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/features/invoices/routes/invoices-page.tsx'],
		budgetJs: 258 * kb,
	},
	{
		// The editor with the money core (big.js) for live totals, and the finalized document with its
		// actions (273.2 KB measured).
		path: '/invoices/{id}',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/features/invoices/routes/invoice-page.tsx'],
		budgetJs: 290 * kb,
	},
	{
		// Before any portal: the first one suggested from the workspace.
		path: '/portals',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/features/portals/routes/portals-page.tsx'],
		// 231.6 KB measured (2026-11-26).
		budgetJs: 243 * kb,
	},
	{
		// The setup form (branding, pages with their rules, access), freshness and the danger zone.
		path: '/portals/{id}',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/features/portals/routes/portal-setup-page.tsx'],
		// 263.3 KB measured (2026-11-26).
		budgetJs: 275 * kb,
	},
	{
		// Bulk invite (lines read in the browser) and the members list.
		path: '/portals/{id}/members',
		modules: ['src/app/layouts/data-layout.tsx', appShell, 'src/features/portals/routes/portal-members-page.tsx'],
		// 255.2 KB measured (2026-11-26).
		budgetJs: 268 * kb,
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
for (const entry of [appEntry, formEntry, chartEntry, portalEntry]) {
	if (!manifest[entry]?.isEntry) {
		throw new Error(`The build manifest has no entry ${entry}; see apps/web/vite.config.ts`)
	}
}
// The baseline: what every page of the app pays before its own code, the shell (React, router, session).
const shellKeys = closure(manifest, [appEntry])
const shell = measure(manifest, shellKeys)

const routeKeys = (route: Route) => closure(manifest, [route.entry ?? appEntry, ...route.modules])
const rows = routes.map((route) => {
	const figures = measure(manifest, routeKeys(route))
	const isOver =
		(route.budgetJs !== undefined && figures.js > route.budgetJs) ||
		(route.budgetTotal !== undefined && figures.js + figures.css > route.budgetTotal)
	return { ...route, ...figures, ratioToShell: figures.js / shell.js, isOver }
})

const format = (bytes: number) => `${(bytes / kb).toFixed(1)} KB`
console.log(
	`\nWeb app first load, gzipped (shell = entry + its imports: ${format(shell.js)} JS, ${format(shell.css)} CSS)\n`,
)
console.log(
	`${'route'.padEnd(30)}${'JS'.padStart(10)}${'CSS'.padStart(10)}${'files'.padStart(7)}${'× shell'.padStart(9)}${'budget'.padStart(18)}`,
)
for (const row of rows) {
	const budget = row.budgetTotal === undefined ? format(row.budgetJs ?? 0) : `${format(row.budgetTotal)} JS+CSS`
	console.log(
		`${row.path.padEnd(30)}${format(row.js).padStart(10)}${format(row.css).padStart(10)}${String(row.files).padStart(7)}${row.ratioToShell.toFixed(2).padStart(9)}${budget.padStart(18)}${row.isOver ? '  OVER BUDGET' : ''}`,
	)
}

mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true })
writeFileSync(
	path.join(import.meta.dirname, 'results/web-bundle.json'),
	`${JSON.stringify(
		{
			date: new Date().toISOString(),
			shell: { jsBytes: shell.js, cssBytes: shell.css },
			routes: rows.map(({ path: route, entry, js, css, files, ratioToShell, budgetJs, budgetTotal }) => ({
				route,
				entry: entry ?? appEntry,
				jsBytes: js,
				cssBytes: css,
				files,
				ratioToShell: Number(ratioToShell.toFixed(3)),
				...(budgetJs === undefined ? {} : { budgetJsBytes: budgetJs }),
				...(budgetTotal === undefined ? {} : { budgetTotalBytes: budgetTotal }),
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
	'/p/{slug}',
	// Not /paused: since billing (issue 14) it reads the organization through the dashboard's data
	// layer, like /invite, for members sent there from the dashboard.
]
const leaks = routes
	.filter((route) => publicRoutes.includes(route.path))
	.flatMap((route) =>
		[...routeKeys(route)].filter((key) => dashboardModules.test(key)).map((key) => `${route.path} loads ${key}`),
	)

/**
 * The form and portal pages' entries must not even carry the app's plumbing. Their shared chunks are named
 * after whichever module Rolldown picked, not after what they hold, so its files are searched
 * for a sentence each of these always contains (kept through minifying: error messages,
 * display names, storage keys).
 */
const appOnlyMarkers: { what: string; text: string }[] = [
	{ what: 'the app shell (src/main.tsx)', text: 'index.html has no #root element' },
	{ what: 'React Router', text: 'may be used only in the context of a <Router>' },
	{ what: 'TanStack Query', text: 'No QueryClient set' },
	{ what: 'the session (lib/token-store.ts)', text: 'blocksmith.token' },
	{ what: 'Radix Dialog', text: 'DialogTitle' },
	{ what: 'zod', text: 'Invalid input' },
]
for (const [route, entry] of [
	['/forms/{id}', formEntry],
	['/p/{slug}', portalEntry],
] as const) {
	const files = [...closure(manifest, [entry])].map((key) => (manifest[key] as ManifestChunk).file)
	for (const file of files) {
		const text = readFileSync(path.join(dist, file), 'utf8')
		for (const marker of appOnlyMarkers) {
			if (text.includes(marker.text)) {
				leaks.push(`${route} (${entry}) loads ${marker.what} in ${file}`)
			}
		}
	}
}
if (leaks.length > 0) {
	console.error(`\nDashboard code on a public page:\n${leaks.join('\n')}`)
	process.exit(1)
}

const over = rows.filter((row) => row.isOver)
if (over.length > 0) {
	console.error(`\n${over.map((row) => row.path).join(', ')} over budget`)
	process.exit(1)
}
