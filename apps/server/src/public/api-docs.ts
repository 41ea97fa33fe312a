import path from 'node:path'
import { serveStatic } from '@hono/node-server/serve-static'
import type { Hono } from 'hono'
// Not the package's index: that evaluates the 1.4 MB browser bundle, most of a second of every start.
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js'
import type { AppEnv } from '#src/lib/context.ts'

const swaggerDir = getAbsoluteFSPath()

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Blocksmith API reference</title>
<link rel="icon" type="image/svg+xml" href="/favicon.svg">
<link rel="stylesheet" href="/api/docs/assets/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>`

// An external file, not an inline script, so the page runs under the strict CSP.
const init = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui', deepLinking: true });`

/** The rendered API reference at /api/docs, served from our own files (no CDN). */
export function mountApiDocs(app: Hono<AppEnv>): void {
	app.get('/api/docs', (c) => c.html(page))
	app.get('/api/docs/init.js', (c) => c.body(init, 200, { 'content-type': 'text/javascript; charset=utf-8' }))
	app.use(
		'/api/docs/assets/*',
		serveStatic({
			root: path.relative(process.cwd(), swaggerDir),
			rewriteRequestPath: (requestPath) => requestPath.replace(/^\/api\/docs\/assets/, ''),
		}),
	)
}
