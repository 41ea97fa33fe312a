import type { Page } from 'playwright-core'
import type { createHttpApi } from './http-api.ts'
import { waitForMail } from './mail.ts'

// "Your data" in the screenshots (screenshots.ts, issue 20): Settings → Data of Ada's
// "Analytical Engines" with two finished exports (Charles's, then hers) and while one is being
// built; the dialog deleting the organization; the page of an organization scheduled for
// deletion (Caroline's "Comet Catalogue", exported first); and deleting an account, both when it
// can go (Augustus: his own organization goes with him, he leaves Émilie's) and when it cannot
// (Émilie, the only owner of "Principia Translations", which Augustus belongs to); and the page of
// an account left with no organization (Sophie, who joined Émilie's from its invitation and was
// removed from it).

type HttpApi = ReturnType<typeof createHttpApi>

type Export = {
	id: string
	status: string
	progress: { done: number; total: number; step: string | null }
	requestedBy: { name: string; email: string } | null
	createdAt: string
	finishedAt: string | null
	expiresAt: string | null
	byteSize: number | null
	error: string | null
	downloadUrl: string | null
}

export type SeededData = {
	/** Émilie du Châtelet: the only owner of Principia Translations, which has another member. */
	emilie: string
	/** Augustus De Morgan: a member of Principia Translations and the only one of his own organization. */
	augustus: string
	/** Caroline Herschel: the owner of Comet Catalogue, scheduled for deletion. */
	caroline: string
	/** Sophie Germain: signed up from Émilie's invitation, then removed: no organization left. */
	sophie: string
}

type Helpers = {
	/** Follows the confirmation link mailed to a new account (screenshots.ts). */
	confirmEmail: (email: string) => Promise<void>
	/** Names the organization a new account starts with (screenshots.ts). */
	renameOrganization: (token: string, name: string) => Promise<void>
}

/** Starts an export as `token`'s member and waits until it is ready. */
async function finishedExport(api: HttpApi, token: string): Promise<Export> {
	const started = await api.callOk<Export>('/dashboard/exports', { token, json: {} })
	const deadline = Date.now() + 60_000
	for (;;) {
		const current = await api.callOk<Export>(`/dashboard/exports/${started.id}`, { token })
		if (current.status === 'ready') {
			return current
		}
		if (current.status !== 'queued' && current.status !== 'running') {
			throw new Error(`the export ended ${current.status}: ${current.error}`)
		}
		if (Date.now() > deadline) {
			throw new Error('the export was not ready within 60 s')
		}
		await new Promise((resolve) => setTimeout(resolve, 300))
	}
}

export async function seedData(
	api: HttpApi,
	dataDir: string,
	team: { ada: string; charles: string },
	helpers: Helpers,
): Promise<SeededData> {
	// Ada's organization: Charles (an admin) exported it once, then Ada: a ready export and its history.
	await finishedExport(api, team.charles)
	await finishedExport(api, team.ada)

	const person = async (name: string, email: string, password: string, organization: string) => {
		const account = await api.signUp({ name, email, password })
		await helpers.confirmEmail(email)
		await helpers.renameOrganization(account.token, organization)
		return account
	}
	const emilie = await person(
		'Émilie du Châtelet',
		'emilie@example.com',
		'principia mathematica',
		'Principia Translations',
	)
	const augustus = await person('Augustus De Morgan', 'augustus@example.com', 'formal logic laws', 'Formal Logic')
	const invitation = await api.callOk<{ id: string }>('/dashboard/team_invites', {
		token: emilie.token,
		json: { email: augustus.email, role: 'member' },
	})
	const mail = await waitForMail(dataDir, augustus.email, (candidate) => candidate.subject.includes('invited you'))
	const link = new URL(mail.links.find((href) => href.includes('/invite/')) ?? '')
	await api.callOk(`/dashboard/invitations/${invitation.id}/accept`, {
		token: augustus.token,
		json: { token: link.searchParams.get('token') },
	})

	// Sophie signed up from Émilie's invitation (so Principia Translations was her only
	// organization: an account made this way gets none of its own), then Émilie removed her.
	const sophieEmail = 'sophie@example.com'
	const sophieInvitation = await api.callOk<{ id: string }>('/dashboard/team_invites', {
		token: emilie.token,
		json: { email: sophieEmail, role: 'member' },
	})
	const sophieMail = await waitForMail(dataDir, sophieEmail, (candidate) => candidate.subject.includes('invited you'))
	const sophieLink = new URL(sophieMail.links.find((href) => href.includes('/invite/')) ?? '')
	const sophie = await api.callOk<{ token: string }>(`/api/invitations/${sophieInvitation.id}/sign_up`, {
		json: { token: sophieLink.searchParams.get('token'), name: 'Sophie Germain', password: 'elastic surfaces' },
	})
	const members = await api.callOk<{ id: string; email: string }[]>('/dashboard/team_invites/all_members', {
		token: emilie.token,
	})
	await api.callOk('/dashboard/team_invites/remove_team_member', {
		token: emilie.token,
		json: { memberId: members.find((member) => member.email === sophieEmail)?.id },
	})

	// Caroline took her data, then asked for her organization to be deleted.
	const caroline = await person('Caroline Herschel', 'caroline@example.com', 'eight comets found', 'Comet Catalogue')
	await finishedExport(api, caroline.token)
	await api.callOk('/dashboard/organization/delete', { token: caroline.token, json: { name: 'Comet Catalogue' } })

	return { emilie: emilie.token, augustus: augustus.token, caroline: caroline.token, sophie: sophie.token }
}

const dataTab = '/settings?tab=data'
const profileTab = '/settings?tab=profile'

async function dataTabReady(page: Page): Promise<void> {
	await page.getByRole('heading', { level: 1, name: 'Settings' }).waitFor()
	await page.getByRole('button', { name: 'Export everything' }).waitFor()
}

/**
 * An export being built lasts a second or two on the pictures' small data, too short to catch:
 * the page is shown one as the server reports it mid-way (the list and the export's own reads
 * answer it), on top of the real history.
 */
async function showExportRunning(page: Page): Promise<void> {
	const running: Export = {
		id: '0b7c1d9e-2f4a-4c6b-9e8d-5a3f1b2c4d6e',
		status: 'running',
		// As the server reports it: eight parts (app.ts registers them after the organization's own),
		// three done (the organization, the workspace databases, the uploaded files), the forms next.
		progress: { done: 3, total: 8, step: 'Forms and answers' },
		requestedBy: { name: 'Ada Lovelace', email: 'ada@example.com' },
		createdAt: new Date().toISOString(),
		finishedAt: null,
		expiresAt: null,
		byteSize: null,
		error: null,
		downloadUrl: null,
	}
	await page.route(
		(url) => url.pathname === '/dashboard/exports',
		async (route) => {
			const response = await route.fetch()
			const list = (await response.json()) as { exports: Export[] }
			await route.fulfill({ response, json: { exports: [running, ...list.exports] } })
		},
	)
	await page.route(
		(url) => url.pathname === `/dashboard/exports/${running.id}`,
		(route) => route.fulfill({ json: running }),
	)
	await page.reload()
	await page.getByRole('progressbar', { name: 'Export progress' }).waitFor()
}

export function dataShots(data: SeededData) {
	return [
		{
			name: 'settings-data',
			caption:
				'Settings → Data, as Ada: Export everything with what the archive holds, her ready export to download, the one Charles made before it, and deleting the organization',
			path: dataTab,
			isSignedIn: true,
			ready: async (page: Page) => {
				await dataTabReady(page)
				await page.getByRole('status').filter({ hasText: 'Your export is ready' }).waitFor()
				await page.getByRole('heading', { name: 'Recent exports' }).waitFor()
			},
		},
		{
			name: 'settings-data-export-running',
			caption: 'Settings → Data while an export is being built: the part it is on and its progress',
			path: dataTab,
			isSignedIn: true,
			ready: async (page: Page) => {
				await dataTabReady(page)
				await showExportRunning(page)
			},
		},
		{
			name: 'delete-organization-dialog',
			caption:
				'Settings → Data → Delete organization: what deleting does, and the button waiting for the name, half typed',
			path: dataTab,
			isSignedIn: true,
			ready: dataTabReady,
			prepare: async (page: Page) => {
				await page.getByRole('button', { name: 'Delete organization' }).click()
				const dialog = page.getByRole('dialog', { name: 'Delete Analytical Engines?' })
				await dialog.getByRole('textbox').fill('Analytical En')
			},
			isWindowOnly: true,
		},
		{
			name: 'organization-deletion-scheduled',
			caption:
				'An organization scheduled for deletion, as its owner Caroline: the date, Restore, another organization or sign out, and her export to download',
			path: '/',
			isSignedIn: true,
			token: data.caroline,
			ready: async (page: Page) => {
				await page.getByRole('heading', { level: 1, name: /^Comet Catalogue is scheduled for deletion on / }).waitFor()
				await page.getByRole('button', { name: 'Restore organization' }).waitFor()
				await page.getByRole('status').filter({ hasText: 'Your export is ready' }).waitFor()
			},
			// The shell's first reads, sent before the organization's details say it is being deleted,
			// are refused (409 ORGANIZATION_DELETING); the page then shows instead of the modules.
			expectedProblems: [/status of 409/],
		},
		{
			name: 'no-organization',
			caption:
				'An account with no organization left, as Sophie, removed from Principia Translations: why, a new organization, an invitation’s link, or sign out',
			path: '/',
			isSignedIn: true,
			token: data.sophie,
			ready: async (page: Page) => {
				await page.getByRole('heading', { level: 1, name: "You're not in an organization any more" }).waitFor()
				await page.getByRole('button', { name: 'Create an organization' }).waitFor()
			},
			// The shell's first reads, sent before the organization's details say there is none, are
			// refused (403 NO_ORGANIZATION); the page then shows instead of the modules.
			expectedProblems: [/status of 403/],
		},
		{
			name: 'delete-account-dialog',
			caption:
				'Settings → Profile → Delete account, as Augustus: his own organization goes with him, he leaves Principia Translations; the password confirms',
			path: profileTab,
			isSignedIn: true,
			token: data.augustus,
			ready: async (page: Page) => {
				await page.getByText('Deleted with it, as you are their only member').waitFor()
			},
			prepare: async (page: Page) => {
				await page.getByRole('button', { name: 'Delete account' }).click()
				await page.getByRole('dialog', { name: 'Delete your account?' }).getByLabel('Password').fill('formal logic')
			},
			isWindowOnly: true,
		},
		{
			name: 'delete-account-blocked',
			caption:
				'Settings → Profile, as Émilie, the only owner of Principia Translations with a member: another owner first, no delete button',
			path: profileTab,
			isSignedIn: true,
			token: data.emilie,
			ready: async (page: Page) => {
				await page.getByRole('alert').filter({ hasText: 'Another owner is needed first' }).waitFor()
			},
		},
	]
}
