import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Context, Hono } from 'hono'
import type { AppEnv } from '#src/lib/context.ts'
import type { PageRender } from '#src/lib/page-render.ts'

/** What the web app needs to know before its first render; nothing secret. */
export type ClientConfig = {
	analyticsScriptUrl: string | null
	sessionRefreshIntervalSeconds: number
	/** "Continue with Notion" on the sign-in and sign-up pages: the Notion OAuth settings are there. */
	isNotionSignInEnabled: boolean
	/** Days an organization's deletion can be undone (DELETION_GRACE_DAYS): the delete dialog names the date. */
	deletionGraceDays: number
}

/**
 * The config goes into the page as a JSON data block: it is not executed, so the strict CSP
 * (no inline scripts) allows it, and the app reads it without a second request.
 */
function withClientConfig(html: string, config: ClientConfig): string {
	const json = JSON.stringify(config).replaceAll('<', '\\u003c')
	return html.replace('</head>', () => `<script type="application/json" id="blocksmith-config">${json}</script></head>`)
}

/** A page whose head and data the server writes (e.g. the public form page). */
export type ServerPage = {
	path: string
	/** The built HTML file the page starts from: a page with its own small entry (e.g. form.html). */
	template: string
	render: (c: Context) => Promise<PageRender>
}

// The default head tags of index.html that a server-rendered page replaces with its own.
const defaultHeadTags = [
	/<title>[\s\S]*?<\/title>/,
	/<meta\s+name="description"[\s\S]*?\/>/,
	/<link\s+rel="icon"[^>]*>/,
]

/** The template's empty root element, which a page's server-written body fills. */
const emptyRoot = '<div id="root"></div>'

/**
 * The page's own head and data, in place of the defaults; data as a JSON block like the config;
 * its body, if any, inside the root element. Inserted by functions, never as replacement strings:
 * a `$&` or `$'` in a title would otherwise pull parts of the template into the page.
 */
export function withPage(html: string, page: { head: string; data: Record<string, unknown>; body?: string }): string {
	let result = html
	for (const tag of defaultHeadTags) {
		result = result.replace(tag, '')
	}
	// The browser takes the first theme colour: a page with its own (a form's accent) drops the default.
	if (page.head.includes('<meta name="theme-color"')) {
		result = result.replace(/<meta\s+name="theme-color"[^>]*>/, '')
	}
	const json = JSON.stringify(page.data).replaceAll('<', '\\u003c')
	result = result.replace(
		'</head>',
		() => `${page.head}<script type="application/json" id="blocksmith-page">${json}</script></head>`,
	)
	const { body } = page
	return body ? result.replace(emptyRoot, () => `<div id="root">${body}</div>`) : result
}

/** What the web layer asks of portals (decision 038): which portal, if any, a custom domain is. */
export type PortalHosts = {
	findByHost: (host: string | undefined) => Promise<{ slug: string } | null>
}

/**
 * The portal visitor's page: portal.html with where the portal is, so the app calls the right
 * API (`/api/portal/{slug}`) and builds links under the right base, also on a custom domain where
 * the path says nothing of the slug.
 */
function withPortal(html: string, portal: { slug: string; basePath: string }): string {
	const json = JSON.stringify(portal).replaceAll('<', '\\u003c')
	return html.replace('</head>', () => `<script type="application/json" id="blocksmith-portal">${json}</script></head>`)
}

/**
 * Sent with every portal page: a client portal is private, never for search engines. app.ts also
 * reads it to keep a portal page unframable on a custom domain, where its path may look like a
 * published form's (which may be framed).
 */
const portalRobots = 'noindex, nofollow'

export function isPortalPage(response: Response): boolean {
	return response.headers.get('x-robots-tag') === portalRobots
}

/** `/p/{slug}` and everything under it; the slug as typed (the API lowercases and checks it). */
const portalPath = /^\/p\/([^/]+)(?:\/.*)?$/

/** Paths the API owns; anything else a browser asks for is a route of the web app. */
const apiPrefixes = ['/api/', '/auth/', '/dashboard/']

function isApiPath(pathname: string): boolean {
	return apiPrefixes.some((prefix) => pathname.startsWith(prefix)) || pathname === '/healthz' || pathname === '/readyz'
}

/**
 * Serves the built web app: hashed assets with long caching, and index.html for every other
 * GET so the client router can take over. Unknown API paths never get here.
 */
export function mountWebApp(
	app: Hono<AppEnv>,
	distDir: string,
	clientConfig: ClientConfig,
	pages: ServerPage[] = [],
	portalHosts?: PortalHosts,
): void {
	const templates = new Map<string, string>()
	const loadTemplate = (name: string): string | undefined => {
		const file = path.join(distDir, name)
		if (!templates.has(name) && existsSync(file)) {
			templates.set(name, withClientConfig(readFileSync(file, 'utf8'), clientConfig))
		}
		return templates.get(name)
	}
	const loadIndex = () => loadTemplate('index.html')
	const notBuilt = 'The web app is not built. Run `npm start` (it builds it) or `npm run -w @blocksmith/web build`.'

	// Asset names carry a content hash: a changed file is a new name, so browsers keep them for good.
	app.use('/assets/*', async (c, next) => {
		await next()
		if (c.res.status === 200) {
			c.res.headers.set('cache-control', 'public, max-age=31536000, immutable')
		}
	})
	app.use('/assets/*', serveStatic({ root: distDir }))
	// Top-level files of the build (favicon, robots.txt, a web manifest, …); dotfiles and the
	// build's own .vite folder stay private.
	app.get('/:file{[^./][^/]*\\.[a-zA-Z0-9]+}', serveStatic({ root: distDir }))

	const servePortal = (c: Context, portal: { slug: string; basePath: string }) => {
		const html = loadTemplate('portal.html')
		if (html === undefined) {
			return c.text(notBuilt, 503)
		}
		// A member's data is fetched by the app with its bearer token; the page itself holds nothing
		// private, but which portal a domain is may change: revalidate every time.
		c.header('cache-control', 'no-cache')
		c.header('x-robots-tag', portalRobots)
		return c.html(withPortal(html, portal))
	}

	// A portal's custom domain is all portal: every page path there (the dashboard's, a form's,
	// `/p/…` included) is the portal's app at `/`. Before the other pages, which would answer first.
	// The API, assets and top-level files pass through as on the main host.
	if (portalHosts) {
		app.get('*', async (c, next) => {
			if (isApiPath(c.req.path) || /\.[a-zA-Z0-9]+$/.test(c.req.path)) {
				return next()
			}
			const portal = await portalHosts.findByHost(c.req.header('host'))
			return portal ? servePortal(c, { slug: portal.slug, basePath: '' }) : next()
		})
	}
	// An unknown or disabled slug gets the page too: the app shows "no portal here" from the API's
	// 404, so the page never tells which slugs exist.
	app.get('/p/*', (c, next) => {
		const slug = portalPath.exec(c.req.path)?.[1]
		if (!slug) {
			return next()
		}
		let decoded = slug
		try {
			decoded = decodeURIComponent(slug)
		} catch {
			// A broken escape: the API answers 404 for it like any unknown slug.
		}
		return servePortal(c, { slug: decoded, basePath: `/p/${slug}` })
	})

	for (const page of pages) {
		app.get(page.path, async (c) => {
			const html = loadTemplate(page.template)
			if (html === undefined) {
				return c.text(notBuilt, 503)
			}
			const rendered = await page.render(c)
			if ('redirect' in rendered) {
				return c.redirect(rendered.redirect, rendered.status ?? 301)
			}
			c.header('cache-control', 'no-store')
			return c.html(withPage(html, rendered), rendered.status as 200)
		})
	}

	app.get('*', async (c, next) => {
		// A missing file (/missing.js, /assets/old-hash.js) is a 404, not the app: a browser
		// must never run index.html as a script or style.
		if (isApiPath(c.req.path) || /\.[a-zA-Z0-9]+$/.test(c.req.path)) {
			return next()
		}
		const html = loadIndex()
		if (html === undefined) {
			return c.text(notBuilt, 503)
		}
		c.header('cache-control', 'no-cache')
		return c.html(html)
	})
}
