import type { ChildProcess } from 'node:child_process'
import { globSync, mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createFakeNotion } from '../server/src/test/fake-notion/fake-notion.ts'
import { startAnalyticsStub } from './analytics-stub.ts'
import { findChromium } from './chromium.ts'
import { buildWebIfStale, runNode, type ServerUnderTest, startServer } from './server-process.ts'

// Runs the browser journeys against the real thing: the built web app served by the real
// server on a fresh embedded database, driven by headless Chromium; before them, the shared
// modules' unit suites in Chromium. Usage:
//   npm run -w @blocksmith/e2e test [-- <journey files or globs, relative to apps/e2e>]

const e2eDir = import.meta.dirname
const isRequired = process.env.E2E_REQUIRED === '1' || process.env.E2E_REQUIRED === 'true'
// Each journey file is its own process with its own Chromium; two at a time keeps a small
// CI machine busy without starving the server they all talk to.
const concurrency = process.env.E2E_CONCURRENCY ?? '2'

const chromium = findChromium()
if (chromium.problem) {
	if (isRequired) {
		console.error(`Browser journeys are required (E2E_REQUIRED=1) but there is ${chromium.problem}.`)
		process.exit(1)
	}
	console.log(`Browser journeys skipped: ${chromium.problem}.`)
	process.exit(0)
}

const patterns = process.argv.length > 2 ? process.argv.slice(2) : ['tests/**/*.journey.ts']
const journeys = [...new Set(patterns.flatMap((pattern) => globSync(pattern, { cwd: e2eDir })))].sort()
if (journeys.length === 0) {
	console.error(`No journeys match ${patterns.join(' ')} in ${e2eDir}.`)
	process.exit(1)
}

const children = new Set<ChildProcess>()
// Ctrl-C or a CI cancel: let the children wind down and fall through to the clean-up below.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		for (const child of children) {
			child.kill('SIGTERM')
		}
	})
}

// The shared modules' own suites run in Chromium first (vitest.browser.config.ts), with the
// whole set only: a run of chosen journeys is about those journeys.
if (process.argv.length <= 2) {
	const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs')
	const code = await runNode([vitest, 'run', '--config', 'vitest.browser.config.ts'], e2eDir, process.env, children)
	if (code !== 0) {
		console.error('The shared modules failed their tests in Chromium.')
		process.exit(1)
	}
}

if (!(await buildWebIfStale(children))) {
	console.error('Browser journeys not run: the web app did not build.')
	process.exit(1)
}

const failures: string[] = []
const dataDir = mkdtempSync(path.join(tmpdir(), 'blocksmith-e2e-'))
const analytics = await startAnalyticsStub()
// Notion cannot be reached from here: the journeys connect the fake Notion API instead, through
// the same OAuth screens and official SDK the product uses with Notion.
const notion = await createFakeNotion({ seed: true, oauth: { clientId: 'e2e-client', clientSecret: 'e2e-secret' } })
let server: ServerUnderTest | undefined
try {
	server = await startServer({
		dataDir,
		analyticsScriptUrl: analytics.url,
		notion: { apiBaseUrl: notion.url, clientId: 'e2e-client', clientSecret: 'e2e-secret' },
		children,
	})
	const code = await runNode(
		['--test', '--test-reporter=spec', '--test-timeout=180000', `--test-concurrency=${concurrency}`, ...journeys],
		e2eDir,
		{
			...process.env,
			BASE_URL: server.baseUrl,
			DATA_DIR: dataDir,
			CHROMIUM_PATH: chromium.path,
			ANALYTICS_URL: analytics.url,
			FAKE_NOTION_URL: notion.url,
		},
		children,
	)
	if (code !== 0) {
		failures.push('some journeys failed')
	}
} catch (error) {
	failures.push(error instanceof Error ? error.message : String(error))
} finally {
	const problem = await server?.stop()
	if (problem) {
		failures.push(problem)
	}
	await analytics.close()
	await notion.close()
	rmSync(dataDir, { recursive: true, force: true })
}

if (failures.length > 0) {
	console.error(`Browser journeys failed: ${failures.join('; ')}.`)
	process.exit(1)
}
