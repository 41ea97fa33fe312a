import type { ChildProcess } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { deflateSync } from 'node:zlib'
import { type Browser, chromium, type Page } from 'playwright-core'
import { createFakeNotion } from '../server/src/test/fake-notion/fake-notion.ts'
import { chromiumFlags, findChromium } from './chromium.ts'
import { createHttpApi, randomClientIp } from './http-api.ts'
import { waitForMail } from './mail.ts'
import { dataShots, seedData } from './screenshots-data.ts'
import { formShots, seedFormShots } from './screenshots-forms.ts'
import { invoiceShots, seedInvoices, startShotsStripe } from './screenshots-invoices.ts'
import { portalShots, seedPortal } from './screenshots-portals.ts'
import { buildWebIfStale, repoDir, type ServerUnderTest, startServer } from './server-process.ts'

// Screenshots of every main screen, light and dark, for design review and the docs. Run by
// hand (not part of `npm test`):
//   npm run -w @blocksmith/e2e screenshots [-- <shot names>]
// With names, only those shots are taken and their lines in the README updated.
// It starts its own server on a fresh database, fills it with a small team, and writes PNGs
// to docs/screenshots/.

const outDir = path.join(repoDir, 'docs/screenshots')
const desktop = { width: 1280, height: 800 }
const phone = { width: 390, height: 844 }
// The form builder shows its live preview beside the settings from 1280 px of window; with the
// sidebar that leaves little room, so its pictures are taken wider.
const wide = { width: 1440, height: 900 }
const themes = ['light', 'dark'] as const
type Theme = (typeof themes)[number]

// Real browsers' user agents, so the sessions list shows what a user would see.
const userAgents = {
	desktop: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36',
	mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
	iphone:
		'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Mobile/15E148 Safari/604.1',
}

/** The Attachments field's limits in the pictures: three files of 2 MB, PDFs and images. */
const attachmentRules = { maxFiles: 3, maxFileBytes: 2 * 1024 * 1024, accept: ['.pdf', 'image/*'] }

const pdfBytes = Buffer.from('%PDF-1.4\n% a site plan for the screenshots\n')

const crcTable = Array.from({ length: 256 }, (_, n) => {
	let c = n
	for (let k = 0; k < 8; k++) {
		c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
	}
	return c >>> 0
})

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
	/** Which pictures: desktop in both themes unless told; a phone in the themes listed. */
	viewports?: ('desktop' | 'phone')[]
	phoneThemes?: Theme[]
	/** Console errors that belong to the screen, e.g. the 404 status of a page that is not found. */
	expectedProblems?: RegExp[]
	/** A wider desktop, for a screen whose layout changes above 1280 px. */
	desktopSize?: { width: number; height: number }
	/** Whose session, signed in: Ada's browser session unless told. */
	token?: string
	/**
	 * The window only, not the whole page: a dialog's overlay covers the window, and a full-page
	 * picture of a long page would show the rest of it uncovered.
	 */
	isWindowOnly?: boolean
	/** A picture that is no page of the app (a PDF's page): one, in no theme, named `<name>.png`. */
	image?: (browser: Browser) => Promise<Buffer>
}

function heading(name: string, level = 1) {
	return async (page: Page) => {
		await page.getByRole('heading', { level, name }).first().waitFor()
	}
}

/** The builder with its fields and its preview loaded. */
async function builderReady(page: Page) {
	await builderOf('Contact us')(page)
}

/** The builder of the form named `name`, with its fields and its preview loaded. */
function builderOf(name: string, field = 'Service') {
	return async (page: Page) => {
		await heading(name)(page)
		await page
			.getByRole('list', { name: 'Fields' })
			.getByRole('button', { name: `Edit ${field}`, exact: true })
			.waitFor()
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
// Notion's OAuth settings are there (the fake Notion's), so the pages show "Continue with Notion".
const notion = await createFakeNotion({
	seed: true,
	oauth: { clientId: 'shots-client', clientSecret: 'shots-secret' },
})
const stripe = await startShotsStripe()
let server: ServerUnderTest | undefined
let browser: Browser | undefined
let exitCode = 0
try {
	// Seeded answers go out at once instead of after the 3 s a person takes at the least; the
	// server reads this from the environment it inherits.
	process.env.FORM_MIN_FILL_SECONDS = '0'
	server = await startServer({
		dataDir,
		children,
		notion: { apiBaseUrl: notion.url, clientId: 'shots-client', clientSecret: 'shots-secret' },
		env: { STRIPE_API_BASE_URL: stripe.url },
	})
	const { baseUrl } = server
	const api = createHttpApi(baseUrl)

	// The team in the pictures: Ada owns "Analytical Engines", Charles is a member, Grace is invited.
	const ada = await api.signUp(
		{ name: 'Ada Lovelace', email: 'ada@example.com', password: 'notes on the engine' },
		{ 'user-agent': userAgents.mac },
	)
	await confirmEmail(api, dataDir, ada.email)
	await renameOrganization(api, ada.token, 'Analytical Engines')
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

	const forms = await seedForms(api, baseUrl, ada.token)
	const charts = await seedCharts(api, ada.token)
	await seedTime(api, charles.token)
	const timeReports = await seedTimeReports(api, ada.token)
	const invoices = await seedInvoices(api, ada.token, {
		logoBlobId: await uploadImage(api, baseUrl, ada.token, 'logo.png', logoPng()),
		stripeKey: stripe.apiKey,
	})
	const portal = await seedPortal(
		api,
		ada.token,
		dataDir,
		await uploadImage(api, baseUrl, ada.token, 'portal-logo.png', logoPng()),
	)
	const formsPart3 = await seedFormShots(api, baseUrl, dataDir)
	// Last: the exports of Ada's organization hold everything above.
	const yourData = await seedData(
		api,
		dataDir,
		{ ada: ada.token, charles: charles.token },
		{
			confirmEmail: (email) => confirmEmail(api, dataDir, email),
			renameOrganization: (token, name) => renameOrganization(api, token, name),
		},
	)

	// Mary owns "Celestial Mechanics", an organization of its own whose subscription she paused:
	// a trial cannot be paused, so billing starts first (the local provider takes no payment).
	const mary = await api.signUp({
		name: 'Mary Somerville',
		email: 'mary@example.com',
		password: 'mechanism of heavens',
	})
	await confirmEmail(api, dataDir, mary.email)
	await renameOrganization(api, mary.token, 'Celestial Mechanics')
	await api.callOk('/api/subscriptions/end_trial_and_bill', { token: mary.token, json: {} })
	await api.callOk('/api/subscriptions/pause_subscription', { token: mary.token, json: { resumesAt: null } })

	const shots: Shot[] = [
		{
			name: 'login',
			caption: 'Sign in: Continue with Notion, or e-mail and password',
			path: '/login',
			isSignedIn: false,
			ready: heading('Sign in'),
			viewports: ['desktop', 'phone'],
		},
		{
			name: 'login-notion-refused',
			caption: 'Sign in, back from Notion after Cancel on its consent page: what happened, and both ways in again',
			path: '/login?error=access_denied',
			isSignedIn: false,
			ready: async (page) => {
				await heading('Sign in')(page)
				await page.getByRole('alert').filter({ hasText: 'Notion access was not granted' }).waitFor()
			},
		},
		...chartShots(charts),
		{
			// Charles's: a timer running in Ada's pictures would show in every one of them.
			name: 'time',
			caption:
				'Time Tracking → Timer, as Charles: a timer running on the sample Time entries (also in the app’s sidebar or header), and his entries of the day with an overlap flagged',
			path: '/time',
			isSignedIn: true,
			token: charles.token,
			ready: async (page) => {
				await page.getByRole('button', { name: 'Stop', exact: true }).waitFor()
				await page.getByRole('region', { name: 'Today' }).getByText('Homepage wireframes').waitFor()
			},
			viewports: ['desktop', 'phone'],
		},
		...timeReportShots(timeReports),
		...invoiceShots(invoices),
		...portalShots(portal),
		{
			name: 'register',
			caption: 'Create an account: Continue with Notion, or e-mail and password',
			path: '/register',
			isSignedIn: false,
			ready: heading('Create your account'),
		},
		{
			name: 'register-errors',
			caption: 'Create an account, sent too short: one line under each field, the password hint replaced by its error',
			path: '/register',
			isSignedIn: false,
			ready: heading('Create your account'),
			prepare: async (page) => {
				await page.getByLabel('Name').fill('Alan Turing')
				await page.getByLabel('E-mail').fill('alan@')
				await page.getByLabel('Password').fill('enigma')
				await page.getByRole('button', { name: 'Create account' }).click()
				await page.getByText('Use at least 8 characters.').waitFor()
			},
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
			caption: 'Home after signing in: the trial’s banner over the modules',
			path: '/',
			isSignedIn: true,
			ready: async (page) => {
				await heading('Welcome, Ada')(page)
				await page.getByText(/Trial: \d+ days? left/).waitFor()
			},
			viewports: ['desktop', 'phone'],
		},
		{
			name: 'forms',
			caption: 'Forms: five forms on the sample workspace’s Enquiries database, four published and a draft',
			path: '/forms',
			isSignedIn: true,
			ready: async (page) => {
				await heading('Forms')(page)
				await page
					.getByRole('table', { name: 'Forms' })
					.getByRole('link', { name: 'Contact us', exact: true })
					.waitFor()
			},
			viewports: ['desktop', 'phone'],
		},
		{
			name: 'form-builder-fields',
			caption: 'Form builder → Fields, the Service field open, with the live preview beside',
			path: `/forms/${forms.contact.id}/edit`,
			isSignedIn: true,
			ready: builderReady,
			prepare: async (page) => {
				await page
					.getByRole('list', { name: 'Fields' })
					.getByRole('button', { name: 'Edit Service', exact: true })
					.click()
			},
			desktopSize: wide,
		},
		{
			name: 'form-builder-page',
			caption: 'Form builder → Page: title, description, thumbnail, favicon',
			path: `/forms/${forms.contact.id}/edit`,
			isSignedIn: true,
			ready: builderReady,
			prepare: async (page) => {
				await page.getByRole('tab', { name: 'Page' }).click()
				await page.getByLabel('Page title').waitFor()
			},
			desktopSize: wide,
		},
		{
			name: 'form-builder-settings',
			caption: 'Form builder → Settings: name, confirmation, submit label, closing, password and address',
			path: `/forms/${forms.contact.id}/edit`,
			isSignedIn: true,
			ready: builderReady,
			prepare: async (page) => {
				await page.getByRole('tab', { name: 'Settings' }).click()
				await page.getByRole('tabpanel', { name: 'Settings' }).waitFor()
			},
			desktopSize: wide,
		},
		{
			name: 'form-builder-logic',
			caption: 'Form builder → Logic: a rule that shows Budget when the service is Consulting',
			path: `/forms/${forms.draft.id}/edit`,
			isSignedIn: true,
			ready: builderOf('Project brief'),
			prepare: async (page) => {
				await page.getByRole('tab', { name: 'Logic' }).click()
				await page.getByRole('list', { name: 'Rules' }).waitFor()
			},
			desktopSize: wide,
		},
		{
			name: 'form-builder-theme',
			caption: 'Form builder → Theme: accent colour, serif font, square corners, logo, cover and custom CSS',
			path: `/forms/${forms.studio.id}/edit`,
			isSignedIn: true,
			ready: builderOf('Studio brief'),
			prepare: async (page) => {
				await page.getByRole('tab', { name: 'Theme' }).click()
				await page.getByRole('textbox', { name: 'Custom CSS' }).waitFor()
				// The logo and the cover, shown from their short-lived URLs.
				await page.waitForFunction(() =>
					Array.from(document.images).every((image) => image.complete && image.naturalWidth > 0),
				)
			},
			desktopSize: wide,
		},
		{
			name: 'form-builder-file-field',
			caption: 'Form builder → Fields, the Attachments field open with its file limits',
			path: `/forms/${forms.draft.id}/edit`,
			isSignedIn: true,
			ready: builderOf('Project brief', 'Attachments'),
			prepare: async (page) => {
				await page
					.getByRole('list', { name: 'Fields' })
					.getByRole('button', { name: 'Edit Attachments', exact: true })
					.click()
				await page.getByLabel('Accepted types').waitFor()
			},
			desktopSize: wide,
		},
		{
			name: 'form-builder-relation-notice',
			caption:
				'Form builder → Fields: a new form on the sample Projects asks its plain inputs; the Client relation, added by hand, says visitors will see every client’s name',
			path: '/forms',
			isSignedIn: true,
			ready: heading('Forms'),
			prepare: async (page) => {
				await page.getByRole('button', { name: 'New form' }).first().click()
				const dialog = page.getByRole('dialog', { name: 'New form' })
				await dialog.getByRole('radio', { name: /Use an existing database/ }).check()
				await dialog.getByRole('combobox', { name: 'Database' }).click()
				await page.getByRole('option', { name: /^Projects/ }).click()
				await dialog.getByRole('textbox', { name: 'Name' }).fill('Project intake')
				await dialog.getByRole('button', { name: /^Start from scratch/ }).click()
				await builderOf('Project intake', 'Brief')(page)
				// The "created" toast would cover the preview.
				await page.locator('[data-sonner-toast]').getByRole('button', { name: /close/i }).click()
				await page.getByRole('button', { name: 'Add', exact: true }).click()
				await page.getByRole('menuitem', { name: /^Client/ }).click()
				await page.getByText('Visitors will see the names of every row in Clients.').waitFor()
				// The new field opens with the focus in its label; closed again, the list shows whole.
				await page.getByRole('button', { name: 'Edit Client', exact: true }).click()
				await page.getByRole('group', { name: 'Client' }).getByRole('checkbox').first().waitFor()
			},
			desktopSize: wide,
		},
		{
			name: 'form-submissions',
			caption: 'A form’s submissions: delivered into the database, and one caught as spam',
			path: `/forms/${forms.contact.id}/submissions`,
			isSignedIn: true,
			ready: async (page) => {
				const table = page.getByRole('table', { name: 'Submissions to Contact us' })
				await table.getByText('Spam', { exact: true }).waitFor()
				await table.getByText('Grace Hopper').waitFor()
			},
		},
		{
			name: 'form-submissions-files',
			caption: 'A form’s submissions with files: each file a link to open it',
			path: `/forms/${forms.files.id}/submissions`,
			isSignedIn: true,
			ready: async (page) => {
				const table = page.getByRole('table', { name: `Submissions to ${forms.filesName}` })
				await table.getByRole('button', { name: 'site-plan.pdf' }).waitFor()
			},
		},
		{
			name: 'form-submissions-empty',
			caption: 'The submissions of a draft form: none yet',
			path: `/forms/${forms.draft.id}/submissions`,
			isSignedIn: true,
			ready: heading('No submissions yet', 2),
		},
		{
			name: 'form-analytics',
			caption: 'A form’s analytics: views, starts, submissions and completion over 30 days',
			path: `/forms/${forms.contact.id}/analytics`,
			isSignedIn: true,
			ready: async (page) => {
				await page.getByRole('figure', { name: 'Views and submissions per day' }).locator('svg').first().waitFor()
				// Recharts draws its areas and bars in with an animation of its own.
				await page.waitForTimeout(2000)
			},
		},
		{
			name: 'public-form',
			caption: 'A published form, as its visitors see it',
			path: `/forms/${forms.contact.id}`,
			isSignedIn: false,
			ready: heading(forms.contactTitle),
			viewports: ['desktop', 'phone'],
			phoneThemes: ['light', 'dark'],
		},
		{
			name: 'public-form-errors',
			caption: 'A published form sent with answers missing and a wrong e-mail address',
			path: `/forms/${forms.contact.id}`,
			isSignedIn: false,
			ready: heading(forms.contactTitle),
			prepare: async (page) => {
				await page.getByRole('textbox', { name: 'Email' }).fill('ada@')
				await page.getByRole('button', { name: 'Send enquiry' }).click()
				await page.getByRole('alert').filter({ hasText: 'Check these' }).waitFor()
			},
			viewports: ['desktop', 'phone'],
		},
		{
			name: 'public-form-sent',
			caption: 'A published form after sending: its confirmation message',
			path: `/forms/${forms.contact.id}`,
			isSignedIn: false,
			ready: heading(forms.contactTitle),
			prepare: async (page) => {
				await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Katherine Johnson')
				await page.getByRole('textbox', { name: 'Email' }).fill('katherine@example.com')
				await page.getByRole('textbox', { name: 'Message' }).fill('Trajectories, mostly.')
				await page.getByRole('button', { name: 'Send enquiry' }).click()
				await page.getByRole('status').filter({ hasText: forms.confirmationMessage }).waitFor()
			},
			viewports: ['desktop', 'phone'],
		},
		{
			name: 'public-form-themed',
			caption: 'A published form with a theme: accent colour, serif font, square corners, logo and cover',
			path: `/forms/${forms.studio.id}`,
			isSignedIn: false,
			ready: async (page) => {
				await heading(forms.studioTitle)(page)
				await page.waitForFunction(() =>
					Array.from(document.images).every((image) => image.complete && image.naturalWidth > 0),
				)
			},
			viewports: ['desktop', 'phone'],
		},
		{
			name: 'public-form-files',
			caption: 'A published form’s file field: one file uploaded, one refused for its type',
			path: `/forms/${forms.files.id}`,
			isSignedIn: false,
			ready: heading(forms.filesTitle),
			prepare: async (page) => {
				const attachments = page.getByRole('group', { name: 'Attachments' })
				const chooser = attachments.getByLabel(/^Choose (files|a file)$/)
				await chooser.setInputFiles({ name: 'floor-plan.pdf', mimeType: 'application/pdf', buffer: pdfBytes })
				await attachments.getByRole('button', { name: 'Remove floor-plan.pdf' }).waitFor()
				await chooser.setInputFiles({
					name: 'meeting-notes.txt',
					mimeType: 'text/plain',
					buffer: Buffer.from('Notes from our first call.'),
				})
				await attachments.getByRole('button', { name: 'Dismiss meeting-notes.txt' }).waitFor()
			},
			viewports: ['desktop', 'phone'],
		},
		{
			name: 'public-form-password',
			caption: 'A password-protected form asking for its password',
			path: `/forms/${forms.partner.id}`,
			isSignedIn: false,
			ready: heading(forms.partnerTitle),
			viewports: ['desktop', 'phone'],
		},
		...formShots(formsPart3),
		{
			name: 'public-form-unavailable',
			caption: 'A public form link (/forms/abc) that is not published',
			path: '/forms/abc',
			isSignedIn: false,
			ready: heading("This form isn't available"),
			// The server answers an unknown form's page with a 404 status, which the browser logs.
			expectedProblems: [/status of 404/],
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
			name: 'workspaces-deliveries',
			caption:
				'Workspaces → the sample workspace’s deliveries, each naming the form it came from; Delete, not Disconnect',
			path: '/workspaces',
			isSignedIn: true,
			ready: async (page) => {
				await heading('Workspaces')(page)
				await page.getByRole('tab', { name: /Deliveries/ }).waitFor()
			},
			prepare: async (page) => {
				await page.getByRole('tab', { name: /Deliveries/ }).click()
				await page.getByText('from the form Contact us').first().waitFor()
			},
		},
		{
			name: 'settings-organization',
			caption: 'Settings → Organization: your role in it, and its name',
			path: '/settings?tab=organization',
			isSignedIn: true,
			ready: async (page) => {
				await heading('Settings')(page)
				await page.getByText('You are an owner of this organization').waitFor()
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
			name: 'invite-used',
			caption: 'An invitation link already used (Charles accepted it): said once, with the way in',
			path: `${charlesLink.pathname}${charlesLink.search}`,
			isSignedIn: false,
			ready: async (page) => {
				await page.getByText('This invitation link can no longer be used').waitFor()
			},
			// The used invitation answers 410, which the page explains.
			expectedProblems: [/status of 410/],
		},
		{
			name: 'not-found',
			caption: 'An unknown page (404)',
			path: '/no-such-page',
			isSignedIn: false,
			ready: heading('Page not found'),
		},
		{
			name: 'pricing',
			caption: 'Pricing (/pricing), signed out: the plans side by side, monthly or yearly, and every limit compared',
			path: '/pricing',
			isSignedIn: false,
			ready: async (page) => {
				await heading('Plans and pricing')(page)
				await page.getByRole('heading', { level: 2, name: 'Compare the plans' }).waitFor()
			},
		},
		{
			name: 'settings-billing',
			caption:
				'Settings → Billing on the Pro trial: days left, what the team uses of each limit (the sample workspace, forms, answers, charts), no invoices yet',
			path: '/settings?tab=billing',
			isSignedIn: true,
			ready: billingReady,
		},
		{
			name: 'settings-billing-change-plan',
			caption:
				'Settings → Billing, Change plan: the three plans monthly or yearly, Business chosen over the current Pro, and what choosing it does',
			path: '/settings?tab=billing',
			isSignedIn: true,
			ready: billingReady,
			prepare: async (page) => {
				await page.getByRole('button', { name: 'Change plan', exact: true }).click()
				const dialog = page.getByRole('dialog', { name: 'Change plan' })
				// The plan's card is its label's target (the radio itself is hidden).
				await dialog
					.locator('label')
					.filter({ hasText: /^Business$/ })
					.click()
				await dialog.getByText(/^Your trial continues on Business/).waitFor()
			},
			isWindowOnly: true,
		},
		{
			name: 'paused',
			caption: '/paused for the owner of an organization whose subscription she paused: nothing lost, and Resume',
			path: '/paused',
			isSignedIn: true,
			token: mary.token,
			ready: async (page) => {
				await heading('Celestial Mechanics is paused')(page)
				await page.getByText('Your team paused the subscription until someone resumes it.').waitFor()
			},
		},
		{
			name: 'paused-nothing-to-resume',
			caption: '/paused while the subscription is not paused (on its trial): nothing to resume',
			path: '/paused',
			isSignedIn: true,
			ready: heading('Nothing to resume'),
		},
		...dataShots(yourData),
	]

	const chosen = process.argv.slice(2)
	const unknown = chosen.filter((name) => !shots.some((shot) => shot.name === name))
	if (unknown.length > 0) {
		throw new Error(`no such shots: ${unknown.join(', ')}`)
	}
	const toTake = chosen.length > 0 ? shots.filter((shot) => chosen.includes(shot.name)) : shots

	browser = await chromium.launch({ executablePath: chromiumFound.path, headless: true, args: chromiumFlags })
	mkdirSync(outDir, { recursive: true })
	const written: { file: string; caption: string }[] = []
	for (const shot of toTake) {
		if (shot.image) {
			const file = `${shot.name}.png`
			writeFileSync(path.join(outDir, file), await shot.image(browser))
			console.log(`${file}  ${Math.round(statSync(path.join(outDir, file)).size / 1024)} KB`)
			written.push({ file, caption: shot.caption })
			continue
		}
		const viewports = shot.viewports ?? ['desktop']
		const variants: { theme: Theme; viewport: 'desktop' | 'phone' }[] = viewports.flatMap((viewport) =>
			(viewport === 'phone' ? (shot.phoneThemes ?? ['light']) : themes).map((theme) => ({ theme, viewport })),
		)
		const desktopSize = shot.desktopSize ?? desktop
		for (const { theme, viewport } of variants) {
			const file = `${shot.name}${viewport === 'phone' ? '-phone' : ''}-${theme}.png`
			const problems = await capture(browser, baseUrl, shot, {
				theme,
				viewport: viewport === 'phone' ? phone : desktopSize,
				token: shot.isSignedIn ? (shot.token ?? browserToken) : undefined,
				file: path.join(outDir, file),
			})
			const unexpected = problems.filter((problem) => !shot.expectedProblems?.some((known) => known.test(problem)))
			if (unexpected.length > 0) {
				console.error(`${file}: ${unexpected.join('; ')}`)
				exitCode = 1
			}
			const size = Math.round(statSync(path.join(outDir, file)).size / 1024)
			console.log(`${file}  ${size} KB`)
			const where =
				viewport === 'phone'
					? `, phone (${phone.width}×${phone.height})`
					: shot.desktopSize
						? ` (${desktopSize.width}×${desktopSize.height})`
						: ''
			written.push({ file, caption: `${shot.caption} — ${theme}${where}` })
		}
	}
	// Some shots only: the other lines stay as they were, in the order of the shots.
	const readme = path.join(outDir, 'README.md')
	const lineOf = ({ file, caption }: { file: string; caption: string }) => `- [${file}](${file}) — ${caption}`
	const lines = new Map(written.map((entry) => [entry.file, lineOf(entry)]))
	if (chosen.length > 0 && existsSync(readme)) {
		for (const line of readFileSync(readme, 'utf8').split('\n')) {
			const file = /^- \[([^\]]+)\]/.exec(line)?.[1]
			if (file && !lines.has(file)) {
				lines.set(file, line)
			}
		}
	}
	const order = shots.map((shot) => shot.name)
	const rank = (file: string) => {
		const index = order.findIndex((name) => new RegExp(`^${name}((-phone)?-(light|dark))?\\.png$`).test(file))
		return index === -1 ? order.length : index
	}
	const sorted = [...lines].sort(([a], [b]) => rank(a) - rank(b))
	writeFileSync(
		readme,
		[
			'# Screenshots',
			'',
			'Every main screen of the web app, light and dark, at 1280×800 (phone: 390×844; the form builder, with',
			'its preview beside it: 1440×900), taken from the real app on a fresh database by',
			'`npm run -w @blocksmith/e2e screenshots` ([apps/e2e/screenshots.ts](../../apps/e2e/screenshots.ts)).',
			'Run it again after a UI change.',
			'',
			...sorted.map(([, line]) => line),
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
	await notion.close()
	await stripe.close()
	rmSync(dataDir, { recursive: true, force: true })
}
process.exit(exitCode)

/** Follows the confirmation link mailed to a new account. */
async function confirmEmail(api: HttpApi, dataDir: string, email: string): Promise<void> {
	const confirmation = await waitForMail(dataDir, email, (mail) => mail.subject === 'Confirm your e-mail address')
	const token = new URL(confirmation.links.find((link) => link.includes('/confirm')) ?? '').searchParams.get('token')
	await api.callOk('/api/confirm_user', { json: { token } })
}

/** Names the organization a new account starts with. */
async function renameOrganization(api: HttpApi, token: string, name: string): Promise<void> {
	const org = await api.callOk<{ id: string }>('/dashboard/users/get_org_details', { token })
	await api.callOk('/api/auth/organization/update', { token, json: { organizationId: org.id, data: { name } } })
}

/** Settings → Billing with its plan, the meters and the invoices loaded. */
async function billingReady(page: Page): Promise<void> {
	await heading('Settings')(page)
	await page.getByRole('heading', { level: 3, name: /^Pro plan/ }).waitFor()
	await page.getByRole('progressbar', { name: 'Forms', exact: true }).waitFor()
	await page.getByRole('heading', { level: 3, name: 'No invoices yet' }).waitFor()
}

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
		if (shot.prepare) {
			await shot.prepare(page)
			// The pointer stays where prepare clicked, and that control's hover would show in the picture.
			await page.mouse.move(0, 0)
		}
		// Lazy chunks, fonts and queries settle before the picture.
		await page.waitForLoadState('networkidle')
		await page.evaluate(() => document.fonts.ready)
		await page.screenshot({
			path: options.file,
			fullPage: !shot.isWindowOnly,
			animations: 'disabled',
			caret: 'hide',
		})
	} finally {
		await context.close()
	}
	return problems
}

type SeededCharts = Awaited<ReturnType<typeof seedCharts>>

/** The builder of the chart named `name`, with its preview drawn (or its figures or problem shown). */
function chartBuilderOf(name: string) {
	return async (page: Page) => {
		await heading(name)(page)
		const preview = page.getByRole('complementary', { name: 'Preview' })
		await preview
			.locator('[data-testid="chart-svg"] svg, table[aria-label="Chart figures"], [role="alert"]')
			.first()
			.waitFor()
		await preview.locator('[aria-busy="true"]').waitFor({ state: 'detached' })
	}
}

/** The charts module: the list, the builder with each type, sharing, dashboards and the public pages. */
function chartShots(charts: SeededCharts): Shot[] {
	const builder = (name: string, caption: string, id: string, chartName: string): Shot => ({
		name,
		caption,
		path: `/charts/${id}/edit`,
		isSignedIn: true,
		ready: chartBuilderOf(chartName),
		desktopSize: wide,
		// The builder asks both tools for the chart (its address names none); the other answers 404.
		expectedProblems: [/status of 404/],
	})
	return [
		{
			name: 'charts',
			caption: 'Charts: every chart of the organization, its database, type and whether it is published',
			path: '/charts',
			isSignedIn: true,
			ready: async (page) => {
				await heading('Charts')(page)
				await page.getByRole('table', { name: 'Charts' }).getByRole('link', { name: 'Revenue by month' }).waitFor()
			},
		},
		builder(
			'chart-builder-bar',
			'Chart builder: invoiced amounts by month, stacked by status, with its live preview',
			charts.revenue,
			'Revenue by month',
		),
		builder(
			'chart-builder-horizontal-bar',
			'Chart builder: hours logged per project as horizontal bars',
			charts.hours,
			'Hours by project',
		),
		builder(
			'chart-builder-line',
			'Chart builder: a running total of invoiced amounts',
			charts.running,
			'Running revenue',
		),
		builder('chart-builder-area', 'Chart builder: hours per week as an area', charts.weekly, 'Hours per week'),
		builder('chart-builder-donut', 'Chart builder: projects by status as a donut', charts.donut, 'Projects by status'),
		builder('chart-builder-scatter', 'Chart builder: deals by value and probability', charts.scatter, 'Deals'),
		builder(
			'chart-builder-number',
			'Chart builder: a KPI, invoiced this year against the year before',
			charts.kpi,
			'Invoiced this year',
		),
		builder('chart-builder-table', 'Chart builder: the figures as a table', charts.table, 'Invoices by client'),
		{
			...builder(
				'chart-builder-share',
				'Chart builder, Share: the public and embed links, embed options and downloads',
				charts.revenue,
				'Revenue by month',
			),
			prepare: async (page) => {
				await page.getByRole('tab', { name: 'Share' }).click()
				await page.getByRole('textbox', { name: 'Embed link' }).waitFor()
				// The clicked tab keeps the focus ring a keyboard user would see; the picture is of the panel.
				await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
			},
		},
		builder(
			'chart-builder-removed-property',
			'Chart builder: a chart whose property was deleted says so, and where to fix it',
			charts.removed,
			'Leads by stage',
		),
		{
			name: 'chart-dashboards',
			caption: 'Charts, Dashboards: several charts on one page',
			path: '/charts?view=dashboards',
			isSignedIn: true,
			ready: async (page) => {
				await heading('Charts')(page)
				await page.getByRole('table', { name: 'Dashboards' }).getByRole('link', { name: 'Studio overview' }).waitFor()
			},
		},
		{
			name: 'chart-dashboard-editor',
			caption: 'Dashboard editor: tiles dragged and sized on a 12-column grid',
			path: `/charts/dashboards/${charts.dashboard}/edit`,
			isSignedIn: true,
			ready: async (page) => {
				await heading('Studio overview')(page)
				for (const name of ['Revenue by month', 'Projects by status', 'Invoiced this year']) {
					await page.getByRole('region', { name, exact: true }).locator('svg').first().waitFor()
				}
			},
			desktopSize: wide,
		},
		{
			name: 'public-chart',
			caption: "Public chart page (/charts/{id}), in the viewer's light or dark, as Notion's /embed shows it",
			path: `/charts/${charts.revenue}`,
			isSignedIn: false,
			ready: async (page) => {
				// With the viewer's appearance both drawings are in the page; CSS shows one.
				await page.locator('.bs-chart-svg svg').filter({ visible: true }).first().waitFor()
			},
		},
		{
			name: 'public-dashboard',
			caption: 'Public dashboard page (/charts/dashboards/{id})',
			path: `/charts/dashboards/${charts.dashboard}`,
			isSignedIn: false,
			ready: async (page) => {
				await page.getByRole('heading', { level: 1, name: 'Studio overview' }).waitFor()
			},
			viewports: ['desktop', 'phone'],
		},
	]
}

/**
 * The charts in the pictures, on the sample workspace (seeded with the forms) and two small
 * databases of their own: one chart of every type, a published chart, a dashboard of four, and a
 * chart whose property was deleted.
 */
async function seedCharts(api: HttpApi, token: string) {
	type Database = { id: string; name: string; properties: { id: string; name: string; type: string }[] }
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token })
	const idOf = (database: string, property: string) => {
		const found = databases.find((candidate) => candidate.name === database)
		const id = found?.properties.find((candidate) => candidate.name === property)?.id
		if (!found || !id) {
			throw new Error(`the sample has no ${database}.${property}`)
		}
		return { databaseId: found.id, id }
	}
	const create = async (name: string, databaseId: string, config: Record<string, unknown>) =>
		(await api.callOk<{ id: string }>('/dashboard/local_charts/charts', { token, json: { name, databaseId, config } }))
			.id
	const series = (aggregation: string, property: string | null, extra: Record<string, unknown> = {}) => [
		{ id: 's1', aggregation, property, ...extra },
	]
	const x = (property: string, extra: Record<string, unknown> = {}) => ({ property, ...extra })
	const amount = idOf('Invoices', 'Amount')
	const issued = idOf('Invoices', 'Issued').id
	const invoices = amount.databaseId
	const hoursOf = idOf('Time entries', 'Hours')
	const currency = { numberFormat: { style: 'currency', currency: 'USD' } }

	// A database of deals for the scatter, and one of leads whose Stage is deleted after charting.
	const workspace = (await api.callOk<{ id: string; tool: string }[]>('/dashboard/workspaces', { token })).find(
		(candidate) => candidate.tool === 'local',
	)
	if (!workspace) {
		throw new Error('no local workspace')
	}
	const makeDatabase = async (name: string, properties: Record<string, unknown>[], rows: Record<string, unknown>[]) => {
		const database = await api.callOk<Database>('/dashboard/local/databases', {
			token,
			json: { workspaceId: workspace.id, name, properties },
		})
		const id = (property: string) => database.properties.find((candidate) => candidate.name === property)?.id ?? ''
		await api.callOk(`/dashboard/local/databases/${database.id}/rows/batch`, {
			token,
			json: {
				rows: rows.map((row) => ({
					values: Object.fromEntries(Object.entries(row).map(([key, value]) => [id(key), value])),
				})),
			},
		})
		return { database, id }
	}
	const stages = ['Lead', 'Qualified', 'Proposal', 'Won']
	const deals = await makeDatabase(
		'Deals',
		[
			{ name: 'Name', type: 'title' },
			{ name: 'Value', type: 'number', format: 'dollar' },
			{ name: 'Probability', type: 'number', format: 'percent' },
			{ name: 'Stage', type: 'select', options: stages.map((name) => ({ name })) },
		],
		Array.from({ length: 24 }, (_, index) => ({
			Name: `Deal ${index + 1}`,
			Value: 2000 + ((index * 7919) % 23) * 1100,
			Probability: Math.round((((index * 37) % 19) / 19) * 90 + 5),
			Stage: stages[index % stages.length],
		})),
	)
	const leads = await makeDatabase(
		'Leads',
		[
			{ name: 'Name', type: 'title' },
			{ name: 'Stage', type: 'select', options: stages.map((name) => ({ name })) },
		],
		stages.map((stage, index) => ({ Name: `Lead ${index + 1}`, Stage: stage })),
	)

	const revenue = await create('Revenue by month', invoices, {
		type: 'bar',
		x: x(issued, { bucket: 'month' }),
		series: series('sum', amount.id),
		breakdown: { property: idOf('Invoices', 'Status').id },
		display: { title: 'Invoiced by month', stacking: 'stacked', ...currency },
	})
	const hours = await create('Hours by project', hoursOf.databaseId, {
		type: 'bar',
		x: x(idOf('Time entries', 'Project').id, { sort: 'value_desc' }),
		series: series('sum', hoursOf.id),
		display: { orientation: 'horizontal', dataLabels: true },
	})
	const running = await create('Running revenue', invoices, {
		type: 'line',
		x: x(issued, { bucket: 'month' }),
		series: series('sum', amount.id, { transform: 'cumulative', label: 'Invoiced so far' }),
		display: { smooth: true, ...currency },
	})
	const weekly = await create('Hours per week', hoursOf.databaseId, {
		type: 'area',
		x: x(idOf('Time entries', 'When').id, { bucket: 'week' }),
		series: series('sum', hoursOf.id),
		breakdown: { property: idOf('Time entries', 'Billable').id },
		display: { stacking: 'stacked' },
	})
	const donut = await create('Projects by status', idOf('Projects', 'Status').databaseId, {
		type: 'pie',
		x: x(idOf('Projects', 'Status').id),
		series: series('count', null),
		display: { donut: true },
	})
	const scatter = await create('Deals', deals.database.id, {
		type: 'scatter',
		x: x(deals.id('Value')),
		series: series('sum', deals.id('Probability')),
		breakdown: { property: deals.id('Stage') },
		display: { xAxisTitle: 'Value', yAxisTitle: 'Probability' },
	})
	const kpi = await create('Invoiced this year', invoices, {
		type: 'number',
		series: series('sum', amount.id, { compare: 'previous_period' }),
		dateRange: { property: issued, range: 'this_year' },
		display: currency,
	})
	const table = await create('Invoices by client', invoices, {
		type: 'table',
		x: x(idOf('Invoices', 'Client').id, { sort: 'value_desc' }),
		series: [
			{ id: 's1', aggregation: 'count', property: null, label: 'Invoices' },
			{ id: 's2', aggregation: 'sum', property: amount.id, label: 'Invoiced' },
			{ id: 's3', aggregation: 'average', property: amount.id, label: 'Average' },
		],
		// In currency: the sums and averages read as money, the count stays a count.
		display: currency,
	})
	const removed = await create('Leads by stage', leads.database.id, {
		type: 'bar',
		x: x(leads.id('Stage')),
		series: series('count', null),
	})
	await api.callOk(`/dashboard/local/databases/${leads.database.id}`, {
		token,
		method: 'PATCH',
		json: { properties: leads.database.properties.filter((property) => property.name !== 'Stage') },
	})
	await api.callOk(`/dashboard/local_charts/charts/${revenue}`, {
		token,
		method: 'PATCH',
		json: {
			published: true,
			embed: { theme: 'auto', transparent: true, allowDownloads: true, showTitle: true, refreshSeconds: null },
		},
	})

	const dashboard = await api.callOk<{ id: string; tiles: { chartId: string }[] }>('/dashboard/charts/dashboards', {
		token,
		json: { name: 'Studio overview', chartIds: [kpi, revenue, donut, hours] },
	})
	await api.callOk(`/dashboard/charts/dashboards/${dashboard.id}`, {
		token,
		method: 'PATCH',
		json: {
			description: 'Invoicing and projects at a glance.',
			tiles: [
				{ chartId: kpi, x: 0, y: 0, w: 4, h: 6 },
				{ chartId: revenue, x: 4, y: 0, w: 8, h: 9 },
				{ chartId: donut, x: 0, y: 6, w: 4, h: 8 },
				{ chartId: hours, x: 4, y: 9, w: 8, h: 8 },
			],
			published: true,
		},
	})
	return { revenue, hours, running, weekly, donut, scatter, kpi, table, removed, dashboard: dashboard.id }
}

type SeededField = { id: string; label: string; kind: string; required: boolean; helpText: string | null }
type SeededForm = { id: string; fields: SeededField[] }
type HttpApi = ReturnType<typeof createHttpApi>

/**
 * Charles's time on the sample Time entries database, mapped as suggested: three entries of the
 * last hours (two overlapping) and a timer running on a project.
 */
async function seedTime(api: HttpApi, token: string) {
	type TimeDatabase = { id: string; name: string; suggested: { mapping: unknown } }
	const databases = await api.callOk<TimeDatabase[]>('/dashboard/local_time/databases', { token })
	const time = databases.find((database) => database.name === 'Time entries')
	if (!time) {
		throw new Error('the sample workspace has no Time entries database')
	}
	await api.callOk(`/dashboard/local_time/databases/${time.id}`, {
		token,
		method: 'PUT',
		json: { mapping: time.suggested.mapping },
	})
	const project = async (name: string) => {
		const projects = databases.find((database) => database.name === 'Projects')
		const page = await api.callOk<{ rows: { id: string; title: string }[] }>(
			`/dashboard/local/databases/${projects?.id}/rows?limit=200`,
			{ token },
		)
		const row = page.rows.find((candidate) => candidate.title === name) ?? page.rows[0]
		if (!row) {
			throw new Error('the sample workspace has no projects')
		}
		return row.id
	}
	const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3600_000).toISOString()
	const entries = [
		{ description: 'Sprint planning', startedAt: hoursAgo(5), duration: '1:30', tags: ['Meeting'], billable: false },
		{ description: 'Client call', startedAt: hoursAgo(4), duration: '45m', tags: ['Meeting'], billable: true },
		{
			description: 'Homepage wireframes',
			startedAt: hoursAgo(3),
			duration: '2h',
			tags: ['Deep work'],
			billable: true,
			project: await project('Website redesign'),
		},
	]
	for (const entry of entries) {
		await api.callOk('/dashboard/local_time/entries', { token, json: { databaseId: time.id, ...entry } })
	}
	await api.callOk('/dashboard/local_time/timer/start', {
		token,
		json: {
			databaseId: time.id,
			description: 'Design review',
			project: await project('Website redesign'),
			tags: ['Meeting'],
			billable: true,
		},
	})
}

type SeededTimeReports = Awaited<ReturnType<typeof seedTimeReports>>

/** Ada's timesheet, a report and its shared link: last week, so every day is filled. */
function timeReportShots(time: SeededTimeReports): Shot[] {
	const reportReady = async (page: Page) => {
		await heading(time.reportName)(page)
		await page.locator('figure[aria-label="Hours per period"] svg').first().waitFor()
		await page.getByRole('table', { name: 'Time by project' }).getByText('Total', { exact: true }).waitFor()
	}
	return [
		{
			name: 'time-timesheet',
			caption:
				'Time Tracking → Timesheet: last week by project and task, each cell typed as 1:30, 2h or 90m, with day, row and week totals',
			path: `/time/timesheet?week=${time.lastWeek}`,
			isSignedIn: true,
			ready: async (page) => {
				await page.getByRole('cell', { name: `Week total: ${time.weekTotal}`, exact: true }).waitFor()
			},
			viewports: ['desktop', 'phone'],
		},
		{
			name: 'time-report',
			caption:
				'Time Tracking → a report: last week by project, its filters saved as they change, totals with the billable amount, hours per day stacked by project, and the table',
			path: `/time/reports/${time.viewId}?tool=local`,
			isSignedIn: true,
			ready: reportReady,
			viewports: ['desktop', 'phone'],
		},
		{
			name: 'time-shared',
			caption:
				'A shared time report (/time/shared/{token}), signed out: the figures, chart and table only, in the visitor’s light or dark',
			path: time.sharedPath,
			isSignedIn: false,
			ready: reportReady,
			viewports: ['desktop', 'phone'],
			phoneThemes: ['light', 'dark'],
		},
	]
}

/**
 * Last week of Ada's time on the sample Time entries (mapped by seedTime): a row per project and
 * task, Monday to Friday from 09:00, mostly billable (Charles's timer page lists only his own);
 * rates, a report of last week by project and a link that shares it.
 */
async function seedTimeReports(api: HttpApi, adaToken: string) {
	type Database = { id: string; name: string }
	const databases = await api.callOk<Database[]>('/dashboard/local/databases', { token: adaToken })
	const idOf = (name: string) => {
		const id = databases.find((database) => database.name === name)?.id
		if (!id) {
			throw new Error(`the sample workspace has no ${name}`)
		}
		return id
	}
	const timeId = idOf('Time entries')
	const projects = await api.callOk<{ rows: { id: string; title: string }[] }>(
		`/dashboard/local/databases/${idOf('Projects')}/rows?limit=200`,
		{ token: adaToken },
	)
	const project = (name: string) => projects.rows.find((row) => row.title === name)?.id ?? null
	const rows = [
		{ project: project('Website redesign'), task: 'Wireframes', tags: ['Deep work'], billable: true },
		{ project: project('Website redesign'), task: 'Design review', tags: ['Meeting'], billable: true },
		{ project: project('Mobile app MVP'), task: 'API design', tags: ['Deep work'], billable: true },
		{ project: project('Brand guidelines'), task: 'Logo review', tags: ['Meeting'], billable: true },
		{ project: null, task: 'Weekly planning', tags: ['Admin'], billable: false },
	]
	// Monday to Friday: each day, the minutes of each row above (0 leaves its cell empty).
	const week = [
		[180, 0, 150, 0, 60],
		[135, 0, 210, 105, 0],
		[0, 60, 240, 120, 0],
		[210, 0, 120, 0, 45],
		[0, 90, 75, 150, 0],
	]
	const monday = new Date(Date.now() - (((new Date().getUTCDay() + 6) % 7) + 7) * 86_400_000)
	const lastMonday = monday.toISOString().slice(0, 10)
	let weekMinutes = 0
	for (const [day, minutes] of week.entries()) {
		let start = Date.parse(`${lastMonday}T09:00:00Z`) + day * 86_400_000
		for (const [index, length] of minutes.entries()) {
			if (length === 0) {
				continue
			}
			await api.callOk('/dashboard/local_time/entries', {
				token: adaToken,
				json: {
					databaseId: timeId,
					startedAt: new Date(start).toISOString(),
					durationSeconds: length * 60,
					...rows[index],
				},
			})
			start += length * 60_000
			weekMinutes += length
		}
	}
	await api.callOk(`/dashboard/local_time/databases/${timeId}/rates`, {
		token: adaToken,
		method: 'PUT',
		json: {
			currency: 'EUR',
			defaultRate: 9500,
			projects: [{ project: project('Mobile app MVP'), rate: 12000 }],
		},
	})
	const reportName = 'Last week by project'
	const view = await api.callOk<{ id: string }>('/dashboard/local_time/views', {
		token: adaToken,
		json: {
			databaseId: timeId,
			name: reportName,
			settings: { range: { kind: 'relative', preset: 'last_week' }, timeZone: 'UTC', weekStart: 1, groupBy: 'project' },
		},
	})
	const share = await api.callOk<{ url: string }>(`/dashboard/local_time/views/${view.id}/shares`, {
		token: adaToken,
		json: { expiresAt: new Date(Date.now() + 30 * 86_400_000).toISOString() },
	})
	return {
		lastWeek: lastMonday,
		weekTotal: `${Math.floor(weekMinutes / 60)}:${String(weekMinutes % 60).padStart(2, '0')}`,
		viewId: view.id,
		reportName,
		sharedPath: new URL(share.url).pathname,
	}
}

/**
 * The forms in the pictures, all on the sample workspace's Enquiries database: "Contact us",
 * published, answered and viewed; "Partner programme", published behind a password; "Studio
 * brief", published with a theme; "Send us files", published with a file field and answered with
 * files; and "Project brief", a draft with a rule and file limits.
 */
async function seedForms(api: HttpApi, baseUrl: string, token: string) {
	await api.callOk('/dashboard/workspaces/sample', { token, json: {} })
	const databases = await api.callOk<{ id: string; name: string }[]>('/dashboard/local/databases', { token })
	const enquiries = databases.find((database) => database.name === 'Enquiries')
	if (!enquiries) {
		throw new Error('the sample workspace has no Enquiries database')
	}
	const create = (name: string) =>
		api.callOk<SeededForm>('/dashboard/forms', { token, json: { name, databaseId: enquiries.id } })
	const update = (id: string, changes: Record<string, unknown>) =>
		api.callOk<SeededForm>(`/dashboard/forms/${id}`, { token, method: 'PATCH', json: changes })
	/** The fields of `form` named in `changes`, in that order, each changed as given. */
	const pick = (form: SeededForm, changes: Record<string, Partial<SeededField> & Record<string, unknown>>) =>
		Object.entries(changes).map(([label, change]) => {
			const field = form.fields.find((candidate) => candidate.label === label)
			if (!field) {
				throw new Error(`the form has no field "${label}"`)
			}
			return { ...field, ...change }
		})

	// Created first, so the list (most recently edited first) shows it last.
	const createdDraft = await create('Project brief')
	const draftField = (label: string) => createdDraft.fields.find((field) => field.label === label)?.id ?? label
	const draft = await update(createdDraft.id, {
		fields: createdDraft.fields.map((field) =>
			field.label === 'Attachments' ? { ...field, fileRules: attachmentRules } : field,
		),
		logic: [
			{
				id: 'r1',
				match: 'all',
				conditions: [{ fieldId: draftField('Service'), operator: 'equals', value: 'Consulting' }],
				action: 'show',
				fieldIds: [draftField('Budget')],
			},
		],
	})

	const partnerTitle = 'Partner programme application'
	const partner = await create('Partner programme')
	await update(partner.id, {
		fields: pick(partner, { Name: { required: true }, Email: { required: true }, Website: {}, Message: {} }),
		page: { pageTitle: partnerTitle, pageDescription: 'For agencies we already work with.' },
		password: 'analytical',
		published: true,
	})

	// A themed form: the studio's colour, serif type, square corners, its logo over a cover.
	const studioTitle = 'Start a project with the studio'
	const studio = await create('Studio brief')
	const logo = await uploadImage(api, baseUrl, token, 'studio-logo.png', logoPng())
	const cover = await uploadImage(api, baseUrl, token, 'studio-cover.png', coverPng())
	await update(studio.id, {
		fields: pick(studio, {
			Name: { required: true },
			Email: { required: true },
			Service: {},
			Message: { kind: 'long_text', placeholder: 'A few lines about the project' },
		}),
		page: {
			pageTitle: studioTitle,
			pageDescription: 'Tell us what you have in mind; a designer answers within a day.',
		},
		theme: {
			accentColor: '#0f766e',
			font: 'serif',
			corners: 'square',
			logo: { blobId: logo },
			cover: { blobId: cover },
			customCss: 'h1 { letter-spacing: -0.02em }',
		},
		submitLabel: 'Send brief',
		published: true,
	})

	// A form with a file field, answered with files.
	const filesName = 'Send us files'
	const filesTitle = 'Share your plans'
	const createdFiles = await create(filesName)
	const files = await update(createdFiles.id, {
		fields: pick(createdFiles, {
			Name: { required: true },
			Email: { required: true },
			Message: { kind: 'long_text' },
			Attachments: { fileRules: attachmentRules, helpText: 'Plans, sketches or photos of the site.' },
		}),
		page: { pageTitle: filesTitle, pageDescription: 'Send us what you have so far; drawings help.' },
		published: true,
	})
	const filesField = (label: string) => files.fields.find((field) => field.label === label)?.id ?? label
	const fileAnswers = [
		{
			Name: 'Margaret Hamilton',
			Email: 'margaret@example.com',
			Message: 'The plan and two photos of the site.',
			Attachments: ['site-plan.pdf', 'north-view.png', 'street-view.png'],
		},
		{ Name: 'Annie Easley', Email: 'annie@example.com', Attachments: ['brief.pdf'] },
	]
	for (const [index, answer] of fileAnswers.entries()) {
		const uploaded: { blobId: string; name: string }[] = []
		for (const name of answer.Attachments) {
			const isPdf = name.endsWith('.pdf')
			const bytes = isPdf ? pdfBytes : logoPng()
			const announced = await api.callOk<DirectUpload>(`/api/forms/${files.id}/uploads`, {
				json: {
					fieldId: filesField('Attachments'),
					filename: name,
					byteSize: bytes.byteLength,
					checksum: createHash('md5').update(bytes).digest('base64'),
					contentType: isPdf ? 'application/pdf' : 'image/png',
				},
			})
			await putUpload(baseUrl, announced, bytes)
			uploaded.push({ blobId: announced.id, name })
		}
		const page = await api.callOk<{ renderToken: string }>(`/api/forms/${files.id}`)
		await api.callOk('/api/submissions', {
			json: {
				formId: files.id,
				answers: Object.fromEntries(
					Object.entries({ ...answer, Attachments: uploaded }).map(([label, value]) => [filesField(label), value]),
				),
				idempotencyKey: `screenshot-files-${index}`,
				renderToken: page.renderToken,
			},
		})
	}

	const contactTitle = 'Work with us'
	const confirmationMessage = 'Thank you! We read every enquiry and answer within two working days.'
	const created = await create('Contact us')
	const contact = await update(created.id, {
		fields: pick(created, {
			Name: { required: true, placeholder: 'Ada Lovelace' },
			Email: { required: true, placeholder: 'ada@example.com' },
			Service: {},
			Interests: { helpText: 'Choose any that apply.' },
			Budget: { helpText: 'A rough figure in US dollars is fine.' },
			'Preferred start': {},
			Message: { kind: 'long_text', required: true, placeholder: 'What are you planning?' },
			Newsletter: { label: 'Send me the occasional newsletter' },
		}),
		page: {
			pageTitle: contactTitle,
			pageDescription: 'Tell us about your project and we will get back to you within two working days.',
		},
		confirmationMessage,
		submitLabel: 'Send enquiry',
		published: true,
	})
	const fieldId = (label: string) => contact.fields.find((field) => field.label === label)?.id ?? label

	// Answers, sent as a visitor's browser sends them; the last one fills in the hidden honeypot.
	const answers: { values: Record<string, unknown>; website?: string }[] = [
		{
			values: {
				Name: 'Grace Hopper',
				Email: 'grace@example.com',
				Service: 'Development',
				Interests: ['Website'],
				Budget: 12000,
				'Preferred start': { start: '2026-09-01' },
				Message: 'Our compiler manual needs a new home on the web, with search.',
				'Send me the occasional newsletter': true,
			},
		},
		{
			values: {
				Name: 'Alan Turing',
				Email: 'alan@example.com',
				Service: 'Consulting',
				Interests: ['SEO', 'Website'],
				Budget: 4500,
				Message: 'Could you review how people find our papers?',
			},
		},
		{
			values: {
				Name: 'Hedy Lamarr',
				Email: 'hedy@example.com',
				Service: 'Design',
				Interests: ['Branding'],
				Budget: 8000,
				'Preferred start': { start: '2026-10-15' },
				Message: 'A new identity for our radio workshop.',
				'Send me the occasional newsletter': true,
			},
		},
		{
			values: {
				Name: 'Cheap SEO',
				Email: 'seo@spam.example',
				Message: 'Rank #1 on every search engine overnight!!!',
			},
			website: 'https://spam.example',
		},
	]
	for (const [index, answer] of answers.entries()) {
		const page = await api.callOk<{ renderToken: string }>(`/api/forms/${contact.id}`)
		await api.callOk('/api/submissions', {
			json: {
				formId: contact.id,
				answers: Object.fromEntries(Object.entries(answer.values).map(([label, value]) => [fieldId(label), value])),
				idempotencyKey: `screenshot-answer-${index}`,
				renderToken: page.renderToken,
				...(answer.website ? { website: answer.website } : {}),
			},
		})
	}

	// Views and starts as the visitors' pages count them; the server writes them in batches.
	const views = 27
	const starts = 12
	for (let index = 0; index < views; index++) {
		const events = [
			{ formId: contact.id, kind: 'view' },
			...(index < starts ? [{ formId: contact.id, kind: 'start' }] : []),
		]
		await api.callOk('/api/views', { json: { events } })
	}

	// Every answer delivered and every view written before the pictures.
	const deadline = Date.now() + 30_000
	for (;;) {
		const submissions = await api.callOk<{ counts: Record<string, number> }>(
			`/dashboard/forms/${contact.id}/submissions?limit=1`,
			{ token },
		)
		const analytics = await api.callOk<{ views: number }>(`/dashboard/forms/${contact.id}/analytics`, { token })
		const withFiles = await api.callOk<{ counts: Record<string, number> }>(
			`/dashboard/forms/${files.id}/submissions?limit=1`,
			{ token },
		)
		if (!submissions.counts.pending && !withFiles.counts.pending && analytics.views >= views) {
			break
		}
		if (Date.now() > deadline) {
			throw new Error(`forms: not settled in 30 s (${JSON.stringify(submissions.counts)}, ${analytics.views} views)`)
		}
		await new Promise((resolve) => setTimeout(resolve, 500))
	}
	return {
		contact,
		contactTitle,
		confirmationMessage,
		partner,
		partnerTitle,
		draft,
		studio,
		studioTitle,
		files,
		filesName,
		filesTitle,
	}
}

type DirectUpload = { id: string; directUpload: { url: string; headers: Record<string, string> } }

/** PUTs the bytes to the signed URL a direct upload was announced with. */
async function putUpload(baseUrl: string, announced: DirectUpload, bytes: Buffer): Promise<void> {
	const url = new URL(announced.directUpload.url)
	const response = await fetch(`${baseUrl}${url.pathname}${url.search}`, {
		method: 'PUT',
		headers: { ...announced.directUpload.headers, 'x-forwarded-for': randomClientIp() },
		body: new Uint8Array(bytes),
	})
	if (!response.ok) {
		throw new Error(`PUT ${url.pathname}: ${response.status} ${await response.text()}`)
	}
}

/** Uploads an image as the dashboard does (announce with its MD5, then PUT); its blob id. */
async function uploadImage(api: HttpApi, baseUrl: string, token: string, name: string, bytes: Buffer): Promise<string> {
	const announced = await api.callOk<DirectUpload>('/dashboard/active_storage/direct_uploads', {
		token,
		json: {
			filename: name,
			byteSize: bytes.byteLength,
			checksum: createHash('md5').update(bytes).digest('base64'),
			contentType: 'image/png',
		},
	})
	await putUpload(baseUrl, announced, bytes)
	return announced.id
}

function crc32(bytes: Buffer): number {
	let c = 0xffffffff
	for (const byte of bytes) {
		c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8)
	}
	return (c ^ 0xffffffff) >>> 0
}

/** An RGB PNG drawn pixel by pixel, so the pictures need no image files of their own. */
function png(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
	const raw = Buffer.alloc((width * 3 + 1) * height)
	for (let y = 0; y < height; y++) {
		const row = y * (width * 3 + 1)
		for (let x = 0; x < width; x++) {
			raw.set(pixel(x, y), row + 1 + x * 3)
		}
	}
	const chunk = (type: string, data: Buffer) => {
		const body = Buffer.concat([Buffer.from(type, 'ascii'), data])
		const length = Buffer.alloc(4)
		length.writeUInt32BE(data.byteLength)
		const crc = Buffer.alloc(4)
		crc.writeUInt32BE(crc32(body))
		return Buffer.concat([length, body, crc])
	}
	const header = Buffer.alloc(13)
	header.writeUInt32BE(width, 0)
	header.writeUInt32BE(height, 4)
	header.set([8, 2, 0, 0, 0], 8)
	return Buffer.concat([
		Buffer.from('89504e470d0a1a0a', 'hex'),
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(raw)),
		chunk('IEND', Buffer.alloc(0)),
	])
}

/** The studio's logo: a white ring on teal. */
function logoPng(): Buffer {
	return png(128, 128, (x, y) => {
		const distance = Math.hypot(x - 63.5, y - 63.5)
		return distance > 30 && distance < 42 ? [255, 255, 255] : [15, 118, 110]
	})
}

/** The cover: a teal-to-sand gradient with soft diagonal bands. */
function coverPng(): Buffer {
	const width = 1600
	const height = 400
	return png(width, height, (x, y) => {
		const t = x / width
		const band = (Math.sin((x + y * 1.5) / 90) + 1) / 2
		const mix = (from: number, to: number) => Math.round(from + (to - from) * t + band * 14)
		return [mix(15, 233), mix(118, 213), mix(110, 178)].map((value) => Math.min(255, value)) as [number, number, number]
	})
}
