import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Hono } from 'hono'
import type { AppEnv } from '#src/lib/context.ts'

/** What the web app needs to know before its first render; nothing secret. */
export type ClientConfig = {
	analyticsScriptUrl: string | null
	sessionRefreshIntervalSeconds: number
}

/**
 * The config goes into the page as a JSON data block: it is not executed, so the strict CSP
 * (no inline scripts) allows it, and the app reads it without a second request.
 */
function withClientConfig(html: string, config: ClientConfig): string {
	const json = JSON.stringify(config).replaceAll('<', '\\u003c')
	return html.replace('</head>', `<script type="application/json" id="blocksmith-config">${json}</script></head>`)
}

/** Paths the API owns; anything else a browser asks for is a route of the web app. */
const apiPrefixes = ['/api/', '/auth/', '/dashboard/']

function isApiPath(pathname: string): boolean {
	return apiPrefixes.some((prefix) => pathname.startsWith(prefix)) || pathname === '/healthz' || pathname === '/readyz'
}

/**
 * Serves the built web app: hashed assets with long caching, and index.html for every other
 * GET so the client router can take over. Unknown API paths never get here.
 */
export function mountWebApp(app: Hono<AppEnv>, distDir: string, clientConfig: ClientConfig): void {
	const indexFile = path.join(distDir, 'index.html')
	let indexHtml: string | undefined

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

	app.get('*', async (c, next) => {
		// A missing file (/missing.js, /assets/old-hash.js) is a 404, not the app: a browser
		// must never run index.html as a script or style.
		if (isApiPath(c.req.path) || /\.[a-zA-Z0-9]+$/.test(c.req.path)) {
			return next()
		}
		if (indexHtml === undefined) {
			if (!existsSync(indexFile)) {
				return c.text(
					'The web app is not built. Run `npm start` (it builds it) or `npm run -w @blocksmith/web build`.',
					503,
				)
			}
			indexHtml = withClientConfig(readFileSync(indexFile, 'utf8'), clientConfig)
		}
		c.header('cache-control', 'no-cache')
		return c.html(indexHtml)
	})
}
