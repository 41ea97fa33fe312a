import assert from 'node:assert/strict'
import { after, before } from 'node:test'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { chromiumFlags, findChromium } from './chromium.ts'
import { type Account, createHttpApi, randomClientIp } from './http-api.ts'
import { type Mail, waitForMail as waitForMailIn } from './mail.ts'

function requiredEnv(name: string): string {
	const value = process.env[name]
	if (!value) {
		throw new Error(
			`${name} is not set: run the journeys with \`npm run -w @blocksmith/e2e test\`, which starts the server`,
		)
	}
	return value
}

/** Where the server under test listens, e.g. http://localhost:41234 (no trailing slash). */
export const baseUrl = requiredEnv('BASE_URL')

/** The server's data folder; mail lands in its `mail/` folder. */
const dataDir = requiredEnv('DATA_DIR')

/** The runner's stand-in analytics script (analytics-stub.ts), set as the server's ANALYTICS_SCRIPT_URL. */
export const analyticsUrl = requiredEnv('ANALYTICS_URL')

/** The server's API, called directly (another device): accounts to start from, sessions revoked elsewhere. */
export const api = createHttpApi(baseUrl)

const actionTimeoutMs = 60_000

/** Where the web app keeps the bearer token (apps/web/src/lib/token-store.ts). */
const tokenStorageKey = 'blocksmith.token'

/** A headless Chromium with a fresh temporary profile; close it in an `after` hook. */
async function launchBrowser(): Promise<Browser> {
	return chromium.launch({ executablePath: findChromium().path, headless: true, args: chromiumFlags })
}

/** One browser for the journeys of a file: launched before them, closed after. Call at the top level. */
export function useBrowser(): () => Browser {
	let browser: Browser | undefined
	before(async () => {
		browser = await launchBrowser()
	})
	after(async () => {
		await browser?.close()
	})
	return () => {
		if (!browser) {
			throw new Error('the browser is not launched yet: use it inside a test')
		}
		return browser
	}
}

type ContextOptions = {
	/** Start signed in as this account: its token is in localStorage before the first page loads. */
	account?: Pick<Account, 'token'>
	viewport?: { width: number; height: number }
	/** Another server than the shared one (a journey's own, started with other settings). */
	baseUrl?: string
}

/**
 * A browser context of its own (own storage, own client address), resolving paths against
 * baseUrl (or the server given). Its pages report problems through `watchedPage`.
 */
export async function newContext(browser: Browser, options: ContextOptions = {}): Promise<BrowserContext> {
	const origin = options.baseUrl ?? baseUrl
	const context = await browser.newContext({
		baseURL: origin,
		viewport: options.viewport ?? { width: 1280, height: 800 },
		locale: 'en-US',
		timezoneId: 'UTC',
		extraHTTPHeaders: { 'x-forwarded-for': randomClientIp() },
		...(options.account
			? {
					storageState: {
						cookies: [],
						origins: [{ origin, localStorage: [{ name: tokenStorageKey, value: options.account.token }] }],
					},
				}
			: {}),
	})
	// Generous: on a busy shared CI machine a page can take many seconds to settle, and a journey
	// that waits for a condition loses nothing by waiting longer when the condition is met early.
	context.setDefaultTimeout(actionTimeoutMs)
	// Chromium logs most CSP violations to the console too; the event catches the rest (e.g. report-only).
	await context.exposeBinding('__reportCspViolation', ({ page }, text: string) => {
		problemsByPage.get(page)?.push(`CSP violation on ${page.url()}: ${text}`)
	})
	await context.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (event) => {
			const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation
			report(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline code'}`)
		})
	})
	return context
}

const problemsByPage = new WeakMap<Page, string[]>()

/**
 * A new tab in `context`, with the console errors, uncaught exceptions and CSP violations seen
 * on it so far. Journeys assert there are none: a script the CSP blocked or a render that
 * threw often leaves a page that still "looks" loaded.
 */
export async function watchedPage(context: BrowserContext): Promise<{ page: Page; problems: string[] }> {
	const page = await context.newPage()
	const problems: string[] = []
	problemsByPage.set(page, problems)
	page.on('console', (message) => {
		if (message.type() === 'error') {
			// A failed request's message does not name the URL; its location does.
			const where = message.location().url || page.url()
			problems.push(`console error on ${where}: ${message.text()}`)
		}
	})
	page.on('pageerror', (error) => {
		problems.push(`uncaught exception on ${page.url()}: ${error.message}`)
	})
	return { page, problems }
}

export type JourneyPage = { page: Page; context: BrowserContext; problems: string[] }

/** One tab in a context of its own. */
export async function newPage(browser: Browser, options: ContextOptions = {}): Promise<JourneyPage> {
	const context = await newContext(browser, options)
	return { context, ...(await watchedPage(context)) }
}

/**
 * Fails on any problem but the expected ones, e.g. the 401 a revoked token earns: the
 * browser logs every failed request as a console error, even one the app handles.
 */
export function assertNoProblems(problems: string[], expected: RegExp[] = []): void {
	assert.deepEqual(
		problems.filter((problem) => !expected.some((pattern) => pattern.test(problem))),
		[],
	)
}

/** The console error Chromium logs for a request answered with `status` (the app may handle it fine). */
export function failedRequest(status: number): RegExp {
	return new RegExp(`Failed to load resource: the server responded with a status of ${status}\\b`)
}

/** Waits until the page shows `pathAndQuery` (e.g. '/login?next=%2Fsettings'), without sleeping. */
export async function waitForPath(page: Page, pathAndQuery: string): Promise<void> {
	await page.waitForURL((url) => `${url.pathname}${url.search}` === pathAndQuery)
}

export function pathOf(page: Page): string {
	const url = new URL(page.url())
	return `${url.pathname}${url.search}`
}

/** Signs in through the form on the page showing it (/login, or the invitation page). */
export async function signInWithForm(page: Page, email: string, password: string): Promise<void> {
	await page.getByLabel('E-mail').fill(email)
	await page.getByLabel('Password').fill(password)
	await page.getByRole('button', { name: 'Sign in' }).click()
}

/** The signed-in home page, greeting `name` by first name. */
export async function waitForHome(page: Page, name: string): Promise<void> {
	await page.getByRole('heading', { level: 1, name: `Welcome, ${name.split(' ')[0]}` }).waitFor()
	assert.equal(pathOf(page), '/')
}

/** Waits for the first mail to `to` that matches (mail goes out from a background job). */
export async function waitForMail(to: string, matches?: (mail: Mail) => boolean, timeoutMs?: number): Promise<Mail> {
	return waitForMailIn(dataDir, to, matches, timeoutMs)
}

/** The one link of `mail` that goes to `pathname` on our server (or `server`), relative (for page.goto). */
export function linkIn(mail: Mail, pathname: string, server: string = baseUrl): string {
	const link = mail.links.map((href) => new URL(href)).find((url) => url.pathname.startsWith(pathname))
	assert.ok(link, `no ${pathname} link in "${mail.subject}": ${mail.links.join(', ')}`)
	assert.equal(link.origin, new URL(server).origin, 'the link points at another site')
	return `${link.pathname}${link.search}`
}
