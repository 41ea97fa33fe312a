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
	plugins: [react(), tailwindcss()],
	build: {
		outDir: 'dist',
		emptyOutDir: true,
		// bench/ reads dist/.vite/manifest.json to measure what each entry ships.
		manifest: true,
	},
	server: {
		proxy: Object.fromEntries(
			['/api', '/auth', '/dashboard', '/healthz', '/readyz'].map((prefix) => [prefix, apiTarget]),
		),
	},
})
