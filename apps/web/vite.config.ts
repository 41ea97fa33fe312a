import { fileURLToPath } from 'node:url'
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// During `npm run dev` the API server runs on its default port; these are the paths it owns
// (apps/server/src/public/web.ts), everything else is Vite's.
const apiTarget = 'http://localhost:3000'

export default defineConfig({
	// Pinned to this folder so the build is the same whether run from here, the repo root or scripts/.
	root: fileURLToPath(new URL('.', import.meta.url)),
	plugins: [
		react(),
		tailwindcss(),
		{
			// On the dev server, /p/{slug}/… is the portal's page, as the API server answers it
			// (apps/server/src/public/web.ts); the app reads the slug from the path.
			name: 'portal-pages',
			configureServer(server) {
				server.middlewares.use((req, _res, next) => {
					if (req.url?.startsWith('/p/')) {
						req.url = '/portal.html'
					}
					next()
				})
			},
		},
	],
	build: {
		outDir: 'dist',
		// Every browser the app supports has <link rel="modulepreload">; the polyfill would be one
		// more chunk on every entry's first load once there are three entries.
		modulePreload: { polyfill: false },
		emptyOutDir: true,
		// bench/ reads dist/.vite/manifest.json to measure what each entry ships.
		manifest: true,
		rolldownOptions: {
			input: {
				// The dashboard and every page the client router serves.
				index: fileURLToPath(new URL('index.html', import.meta.url)),
				// The public form page (/forms/{id}): its own small entry, so visitors never download
				// the dashboard's shell, router or data libraries (design/architecture.md §6).
				form: fileURLToPath(new URL('form.html', import.meta.url)),
				// The public chart page (/charts/{id}, Notion's /embed): the chart comes drawn in the HTML,
				// the entry is a few kilobytes of plain DOM code, no React and no ECharts.
				chart: fileURLToPath(new URL('chart.html', import.meta.url)),
				// The client portal's visitor app (/p/{slug}, a portal's own domain): React and its own small
				// router, none of the dashboard's libraries (decision 038).
				portal: fileURLToPath(new URL('portal.html', import.meta.url)),
			},
			output: {
				codeSplitting: {
					// Left alone, Rolldown cuts what two entries and many lazy routes share into many
					// small chunks (React apart from the shell, the router in pieces), and each cut costs
					// gzip context: a kilobyte or two on every first load. These groups keep each library
					// whole. The form and portal pages share only the React group: the other two never reach them.
					groups: [
						// Vite's preload helper (lazy chunks with their imports) rides with React: the app and the form
						// page both need it, and alone it was one more file on every first load, /login included.
						{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]|vite[\\/]preload-helper/ },
						{ name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
						{
							name: 'ui',
							test: /src[\\/]components[\\/]ui[\\/](cn|button|spinner)\.tsx?$|node_modules[\\/](clsx|tailwind-merge|class-variance-authority)[\\/]/,
						},
					],
				},
			},
		},
	},
	server: {
		proxy: Object.fromEntries(
			['/api', '/auth', '/dashboard', '/healthz', '/readyz'].map((prefix) => [prefix, apiTarget]),
		),
	},
})
