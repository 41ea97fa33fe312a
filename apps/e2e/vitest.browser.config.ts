import { fileURLToPath } from 'node:url'
import { playwright } from '@vitest/browser-playwright'
import { defineConfig } from 'vitest/config'
import { chromiumFlags, findChromium } from './chromium.ts'

// The shared modules' own test suites, run again in Chromium: the public form page runs the
// logic, file and thank-you modules in the visitor's browser, the server runs them to check the
// answers, and the same rules must give the same results in both (issue 6). Run by
// run-journeys.ts before the journeys; the Node run is the contracts workspace's own.

export default defineConfig({
	root: fileURLToPath(new URL('../../packages/contracts', import.meta.url)),
	test: {
		include: [
			'src/form-logic.test.ts',
			'src/form-rules-pages.test.ts',
			'src/form-calc.test.ts',
			'src/form-files.test.ts',
			'src/form-thanks.test.ts',
		],
		browser: {
			enabled: true,
			headless: true,
			provider: playwright({ launchOptions: { executablePath: findChromium().path, args: chromiumFlags } }),
			instances: [{ browser: 'chromium' }],
		},
	},
})
