import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import PostalMime, { type Address } from 'postal-mime'
import { chromiumFlags, findChromium } from './chromium.ts'

function requiredEnv(name: string): string {
	const value = process.env[name]
	if (!value) {
		throw new Error(
			`${name} is not set: run the journeys with \`npm run -w @blocksmith/e2e test\`, which starts the server`,
		)
	}
	return value
}

/**
 * Where the server under test listens, e.g. http://localhost:41234 (no trailing slash).
 * @public for journeys that call the API directly
 */
export const baseUrl = requiredEnv('BASE_URL')

/** The server's data folder; mail lands in its `mail/` folder. */
const dataDir = requiredEnv('DATA_DIR')

/** A headless Chromium with a fresh temporary profile; close it in an `after` hook. */
export async function launchBrowser(): Promise<Browser> {
	return chromium.launch({ executablePath: findChromium().path, headless: true, args: chromiumFlags })
}

export type JourneyPage = {
	page: Page
	context: BrowserContext
	/**
	 * Console errors, uncaught exceptions and CSP violations seen so far. Journeys assert it is
	 * empty: a script the CSP blocked or a render that threw often leaves a page that still
	 * "looks" loaded.
	 */
	problems: string[]
}

/** A page in its own browser context (own cookies and storage), resolving paths against baseUrl. */
export async function newPage(browser: Browser): Promise<JourneyPage> {
	const context = await browser.newContext({ baseURL: baseUrl })
	const page = await context.newPage()
	const problems: string[] = []
	page.on('console', (message) => {
		if (message.type() === 'error') {
			problems.push(`console error on ${page.url()}: ${message.text()}`)
		}
	})
	page.on('pageerror', (error) => {
		problems.push(`uncaught exception on ${page.url()}: ${error.message}`)
	})
	// Chromium also logs most violations to the console; the event catches the rest (e.g. report-only).
	await page.exposeBinding('__reportCspViolation', (_source, text: string) => {
		problems.push(`CSP violation on ${page.url()}: ${text}`)
	})
	await page.addInitScript(() => {
		document.addEventListener('securitypolicyviolation', (event) => {
			const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation
			report(`${event.effectiveDirective} blocked ${event.blockedURI || 'inline code'}`)
		})
	})
	return { page, context, problems }
}

/** @public for journeys that follow e-mailed links (confirmation, reset, invitations) */
export type Mail = {
	file: string
	to: string[]
	subject: string
	text: string
	html: string
	/** Every http(s) link in the text body, in order: confirmation, reset and invitation links. */
	links: string[]
}

function addressesOf(addresses: Address[] | undefined): string[] {
	return (addresses ?? []).flatMap((address) =>
		address.group ? address.group.map((member) => member.address) : [address.address],
	)
}

/**
 * Every mail the server has written so far (no SMTP_URL in journeys), oldest first.
 * @public
 */
export async function readMails(): Promise<Mail[]> {
	const mailDir = path.join(dataDir, 'mail')
	let names: string[]
	try {
		names = await readdir(mailDir)
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return []
		}
		throw error
	}
	// File names start with an ISO timestamp, so name order is sending order.
	const files = names.filter((name) => name.endsWith('.eml')).sort()
	return Promise.all(
		files.map(async (name) => {
			const file = path.join(mailDir, name)
			const email = await PostalMime.parse(await readFile(file))
			const text = email.text ?? ''
			return {
				file,
				to: addressesOf(email.to),
				subject: email.subject ?? '',
				text,
				html: email.html ?? '',
				links: text.match(/https?:\/\/[^\s<>"]+/g) ?? [],
			}
		}),
	)
}

/**
 * Waits for the first mail to `to` that matches; mail is sent by a background job, so it
 * appears a moment after the request that caused it. Polls instead of sleeping a fixed time.
 * @public
 */
export async function waitForMail(
	to: string,
	matches: (mail: Mail) => boolean = () => true,
	timeoutMs = 15_000,
): Promise<Mail> {
	const deadline = Date.now() + timeoutMs
	for (;;) {
		const found = (await readMails()).find(
			(mail) => mail.to.some((address) => address.toLowerCase() === to.toLowerCase()) && matches(mail),
		)
		if (found) {
			return found
		}
		if (Date.now() > deadline) {
			throw new Error(`no matching mail to ${to} within ${timeoutMs} ms`)
		}
		await new Promise((resolve) => setTimeout(resolve, 100))
	}
}
