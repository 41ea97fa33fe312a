import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Hono } from 'hono'
import type { AppEnv } from '#src/lib/context.ts'

/** Paths the API owns; anything else a browser asks for is a route of the web app. */
const apiPrefixes = ['/api/', '/auth/', '/dashboard/']

function isApiPath(pathname: string): boolean {
	return apiPrefixes.some((prefix) => pathname.startsWith(prefix)) || pathname === '/healthz' || pathname === '/readyz'
}

/**
 * Serves the built web app: hashed assets with long caching, and index.html for every other
 * GET so the client router can take over. Unknown API paths never get here.
 */
export function mountWebApp(app: Hono<AppEnv>, distDir: string): void {
	const indexFile = path.join(distDir, 'index.html')
	let indexHtml: string | undefined

	app.use(
		'/assets/*',
		serveStatic({
			root: path.relative(process.cwd(), distDir),
			onFound: (_path, c) => {
				c.header('cache-control', 'public, max-age=31536000, immutable')
			},
		}),
	)
	// Top-level files of the build (favicon, robots.txt, a web manifest, …); dotfiles and the
	// build's own .vite folder stay private.
	app.get('/:file{[^./][^/]*\\.[a-zA-Z0-9]+}', serveStatic({ root: path.relative(process.cwd(), distDir) }))

	app.get('*', async (c, next) => {
		if (isApiPath(c.req.path)) {
			return next()
		}
		if (indexHtml === undefined) {
			if (!existsSync(indexFile)) {
				return c.text(
					'The web app is not built. Run `npm start` (it builds it) or `npm run -w @blocksmith/web build`.',
					503,
				)
			}
			indexHtml = readFileSync(indexFile, 'utf8')
		}
		c.header('cache-control', 'no-cache')
		return c.html(indexHtml)
	})
}
