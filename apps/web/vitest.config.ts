import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

export default defineConfig({
	root: fileURLToPath(new URL('.', import.meta.url)),
	plugins: [react()],
	test: {
		environment: 'jsdom',
		include: ['src/**/*.test.{ts,tsx}', 'scripts/**/*.test.ts'],
		setupFiles: ['./src/test/setup.ts'],
		// Spies and stubbed globals are undone after each test, so no test leaks into the next.
		restoreMocks: true,
		unstubGlobals: true,
	},
})
