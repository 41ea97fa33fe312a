import type { ChildProcess } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { chromiumFlags, findChromium } from './chromium.ts'
import { createHttpApi, randomClientIp } from './http-api.ts'
import { waitForMail } from './mail.ts'
import { buildWebIfStale, repoDir, type ServerUnderTest, startServer } from './server-process.ts'

// Screenshots of every main screen, light and dark, for design review and the docs. Run by
// hand (not part of `npm test`):
//   npm run -w @blocksmith/e2e screenshots
// It starts its own server on a fresh database, fills it with a small team, and writes PNGs
// to docs/screenshots/.

const outDir = path.join(repoDir, 'docs/screenshots')
const desktop = { width: 1280, height: 800 }
const phone = { width: 390, height: 844 }
const themes = ['light', 'dark'] as const
type Theme = (typeof themes)[number]

// Real browsers' user agents, so the sessions list shows what a user would see.
const userAgents = {
	desktop: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
	mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
	iphone:
		'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
}

type Shot = {
	/** File name without the theme and extension, e.g. 'settings-members'. */
	name: string
	/** One line for docs/screenshots/README.md. */
	caption: string
	path: string
	isSignedIn: boolean
	/** Ready when this shows (a heading, usually). */
	ready: (page: Page) => Promise<void>
	/** Anything to do before the picture (open a dialog). */
	prepare?: (page: Page) => Promise<void>
	viewports?: ('desktop' | 'phone')[]
	phoneThemes?: Theme[]
}

function heading(name: string, level = 1) {
	return async (page: Page) => {
		await page.getByRole('heading', { level, name }).first().waitFor()
	}
}

const children = new Set<ChildProcess>()
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
	process.on(signal, () => {
		for (const child of children) {
			child.kill('SIGTERM')
		}
	})
}

const chromiumFound = findChromium()
if (chromiumFound.problem) {
	console.error(`No screenshots: ${chromiumFound.problem}.`)
	process.exit(1)
}
if (!(await buildWebIfStale(children))) {
	console.error('No screenshots: the web app did not build.')
	process.exit(1)
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'blocksmith-screenshots-'))
let server: ServerUnderTest | undefined
let browser: Browser | undefined
let exitCode = 0
try {
	server = await startServer({ dataDir, children })
	const { baseUrl } = server
	const api = createHttpApi(baseUrl)

	// The team in the pictures: Ada owns "Analytical Engines", Charles is a member, Grace is invited.
	const ada = await api.signUp(
		{ name: 'Ada Lovelace', email: 'ada@example.com', password: 'notes on the engine' },
		{ 'user-agent': userAgents.mac },
	)
	const confirmation = await waitForMail(dataDir, ada.email, (mail) => mail.subject === 'Confirm your e-mail address')
	const confirmToken = new URL(confirmation.links.find((link) => link.includes('/confirm')) ?? '').searchParams.get(
		'token',
	)
	await api.callOk('/api/confirm_user', { json: { token: confirmToken } })
	const org = await api.callOk<{ id: string }>('/dashboard/users/get_org_details', { token: ada.token })
	await api.callOk('/api/auth/organization/update', {
		token: ada.token,
		json: { organizationId: org.id, data: { name: 'Analytical Engines' } },
	})
	await api.signIn(ada.email, ada.password, { 'user-agent': userAgents.iphone })
	// The browser's own session, named like a desktop Chrome.
	const browserToken = await api.signIn(ada.email, ada.password, { 'user-agent': userAgents.desktop })

	const charles = await api.signUp({
		name: 'Charles Babbage',
		email: 'charles@example.com',
		password: 'difference engine',
	})
	const charlesInvite = await api.callOk<{ id: string }>('/dashboard/team_invites', {
		token: ada.token,
		json: { email: charles.email, role: 'admin' },
	})
	const charlesMail = await waitForMail(dataDir, charles.email, (mail) => mail.subject.includes('invited you'))
	const charlesLink = new URL(charlesMail.links.find((link) => link.includes('/invite/')) ?? '')
	await api.callOk(`/dashboard/invitations/${charlesInvite.id}/accept`, {
		token: charles.token,
		json: { token: charlesLink.searchParams.get('token') },
	})
	await api.callOk('/dashboard/team_invites', {
		token: ada.token,
		json: { email: 'grace@example.com', role: 'member' },
	})
	const graceMail = await waitForMail(dataDir, 'grace@example.com', (mail) => mail.subject.includes('invited you'))
	const graceLink = new URL(graceMail.links.find((link) => link.includes('/invite/')) ?? '')

	const shots: Shot[] = [
		{ name: 'login', caption: 'Sign in', path: '/login', isSignedIn: false, ready: heading('Sign in') },
		{
			name: 'register',
			caption: 'Create an account',
			path: '/register',
			isSignedIn: false,
			ready: heading('Create your account'),
		},
		{
			name: 'forgot-password',
			caption: 'Ask for a password reset link',
			path: '/forgot-password',
			isSignedIn: false,
			ready: heading('Reset your password'),
		},
		{
			name: 'home',
			caption: 'Home after signing in: the modules',
			path: '/',
			isSignedIn: true,
			ready: async (page) => {
				await heading('Welcome, Ada')(page)
				await page.getByText(/Trial · \d+ days? left/).waitFor()
			},
		},
		{
			name: 'forms',
			caption: 'A module page (Forms), before any workspace is connected',
			path: '/forms',
			isSignedIn: true,
			ready: heading('Forms'),
		},
		{
			name: 'settings-profile',
			caption: 'Settings → Profile',
			path: '/settings?tab=profile',
			isSignedIn: true,
			ready: async (page) => {
				await heading('Settings')(page)
				await page.getByLabel('Name').first().waitFor()
			},
		},
		{
			name: 'settings-security',
			caption: 'Settings → Password & sessions, with three sessions',
			path: '/settings?tab=security',
			isSignedIn: true,
			ready: async (page) => {
				await heading('Settings')(page)
				await page.getByText('This device').waitFor()
			},
		},
		{
			name: 'settings-members',
			caption: 'Settings → Members: two members and a pending invitation',
			path: '/settings?tab=members',
			isSignedIn: true,
			ready: async (page) => {
				await page.getByRole('cell', { name: 'grace@example.com' }).waitFor()
				await page.getByText('charles@example.com').waitFor()
			},
		},
		{
			name: 'settings-members-invite',
			caption: 'Settings → Members with the invite dialog open over the pending invitation',
			path: '/settings?tab=members',
			isSignedIn: true,
			ready: async (page) => {
				await page.getByRole('cell', { name: 'grace@example.com' }).waitFor()
				await page.getByText('charles@example.com').waitFor()
			},
			prepare: async (page) => {
				await page.getByRole('button', { name: 'Invite' }).click()
				const dialog = page.getByRole('dialog', { name: 'Invite a teammate' })
				await dialog.getByLabel('E-mail').fill('alan@example.com')
			},
		},
		{
			name: 'invite',
			caption: 'The invitation link, opened signed out by someone without an account',
			path: `${graceLink.pathname}${graceLink.search}`,
			isSignedIn: false,
			ready: heading('Join Analytical Engines'),
		},
		{
			name: 'not-found',
			caption: 'An unknown page (404)',
			path: '/no-such-page',
			isSignedIn: false,
			ready: heading('Page not found'),
		},
		{
			name: 'paused',
			caption: 'Subscription paused',
			path: '/paused',
			isSignedIn: false,
			ready: heading('Your subscription is paused'),
		},
		{
			name: 'public-form',
			caption: 'A public form link (/forms/abc) that is not published',
			path: '/forms/abc',
			isSignedIn: false,
			ready: heading("This form isn't available", 2),
		},
	]
	const phoneShots = new Set(['home', 'login'])

	browser = await chromium.launch({ executablePath: chromiumFound.path, headless: true, args: chromiumFlags })
	mkdirSync(outDir, { recursive: true })
	const written: { file: string; caption: string }[] = []
	for (const shot of shots) {
		const variants: { theme: Theme; viewport: 'desktop' | 'phone' }[] = themes.map((theme) => ({
			theme,
			viewport: 'desktop',
		}))
		if (phoneShots.has(shot.name)) {
			variants.push({ theme: 'light', viewport: 'phone' })
		}
		for (const { theme, viewport } of variants) {
			const file = `${shot.name}${viewport === 'phone' ? '-phone' : ''}-${theme}.png`
			const problems = await capture(browser, baseUrl, shot, {
				theme,
				viewport: viewport === 'phone' ? phone : desktop,
				token: shot.isSignedIn ? browserToken : undefined,
				file: path.join(outDir, file),
			})
			if (problems.length > 0) {
				console.error(`${file}: ${problems.join('; ')}`)
				exitCode = 1
			}
			const size = Math.round(statSync(path.join(outDir, file)).size / 1024)
			console.log(`${file}  ${size} KB`)
			const where = viewport === 'phone' ? `, phone (${phone.width}×${phone.height})` : ''
			written.push({ file, caption: `${shot.caption} — ${theme}${where}` })
		}
	}
	writeFileSync(
		path.join(outDir, 'README.md'),
		[
			'# Screenshots',
			'',
			'Every main screen of the web app, light and dark, at 1280×800 (phone: 390×844), taken from the',
			'real app on a fresh database by `npm run -w @blocksmith/e2e screenshots`',
			'([apps/e2e/screenshots.ts](../../apps/e2e/screenshots.ts)). Run it again after a UI change.',
			'',
			...written.map(({ file, caption }) => `- [${file}](${file}) — ${caption}`),
			'',
		].join('\n'),
	)
} catch (error) {
	console.error(error)
	exitCode = 1
} finally {
	await browser?.close()
	const problem = await server?.stop()
	if (problem) {
		console.error(problem)
		exitCode = 1
	}
	rmSync(dataDir, { recursive: true, force: true })
}
process.exit(exitCode)

/** One screenshot in a fresh context; resolves to the console errors and CSP violations seen. */
async function capture(
	browser: Browser,
	baseUrl: string,
	shot: Shot,
	options: { theme: Theme; viewport: { width: number; height: number }; token: string | undefined; file: string },
): Promise<string[]> {
	const localStorage: { name: string; value: string }[] = [{ name: 'blocksmith.theme', value: options.theme }]
	if (options.token) {
		localStorage.push({ name: 'blocksmith.token', value: options.token })
	}
	const context = await browser.newContext({
		baseURL: baseUrl,
		viewport: options.viewport,
		colorScheme: options.theme,
		reducedMotion: 'reduce',
		locale: 'en-US',
		timezoneId: 'UTC',
		userAgent: userAgents.desktop,
		extraHTTPHeaders: { 'x-forwarded-for': randomClientIp() },
		storageState: { cookies: [], origins: [{ origin: baseUrl, localStorage }] },
	})
	const problems: string[] = []
	try {
		const page = await context.newPage()
		page.on('console', (message) => {
			if (message.type() === 'error') {
				problems.push(message.text())
			}
		})
		page.on('pageerror', (error) => problems.push(error.message))
		await page.goto(shot.path)
		await shot.ready(page)
		await shot.prepare?.(page)
		// Lazy chunks, fonts and queries settle before the picture.
		await page.waitForLoadState('networkidle')
		await page.evaluate(() => document.fonts.ready)
		await page.screenshot({ path: options.file, fullPage: true, animations: 'disabled', caret: 'hide' })
	} finally {
		await context.close()
	}
	return problems
}
