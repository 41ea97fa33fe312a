import assert from 'node:assert/strict'
import { test } from 'node:test'
import { AxeBuilder } from '@axe-core/playwright'
import type { Page } from 'playwright-core'
import { api, linkIn, newContext, useBrowser, waitForMail } from '../../fixtures.ts'
import { uniqueEmail } from '../../http-api.ts'

// axe-core over every main screen, in the light theme and the dark one: no serious or critical
// violation anywhere (WCAG 2.x A and AA rules, best practices included). The screens are filled
// as a new team's would be: a sample workspace, a published form on it, an invitation out.

const browser = useBrowser()

type Screen = { name: string; path: string; isSignedIn: boolean; ready?: (page: Page) => Promise<void> }

const themes = ['light', 'dark'] as const

/** A team with data on every screen, and the paths of its screens. */
async function seedTeam(): Promise<{ token: string; screens: Screen[] }> {
	const owner = await api.signUp({ name: 'Alma Axe' })
	const { token } = owner
	const { workspace } = await api.callOk<{ workspace: { id: string } }>('/dashboard/workspaces/sample', {
		token,
		json: {},
	})
	const databases = await api.callOk<{ id: string; name: string }[]>('/dashboard/local/databases', { token })
	const enquiries = databases.find((database) => database.name === 'Enquiries')
	assert.ok(enquiries, 'the sample workspace has no Enquiries database')
	const form = await api.callOk<{ id: string }>('/dashboard/forms', {
		token,
		json: { name: 'Contact us', databaseId: enquiries.id },
	})
	await api.callOk(`/dashboard/forms/${form.id}`, { token, method: 'PATCH', json: { published: true } })
	const inviteeEmail = uniqueEmail('axe-invitee')
	await api.callOk('/dashboard/team_invites', { token, json: { email: inviteeEmail, role: 'member' } })
	const invitation = linkIn(await waitForMail(inviteeEmail, (mail) => mail.subject.includes('invited you')), '/invite/')

	const signedIn = (name: string, path: string, ready?: Screen['ready']): Screen => ({
		name,
		path,
		isSignedIn: true,
		...(ready ? { ready } : {}),
	})
	const signedOut = (name: string, path: string): Screen => ({ name, path, isSignedIn: false })
	const settingsTab = (tab: string) => async (page: Page) => {
		await page.getByRole('tab', { name: tab, selected: true }).waitFor()
	}
	return {
		token,
		screens: [
			signedIn('home', '/'),
			signedIn('workspaces', '/workspaces', async (page) => {
				await page.getByRole('table', { name: 'Databases of Sample workspace' }).waitFor()
			}),
			signedIn('database', `/workspaces/${workspace.id}/databases/${enquiries.id}`, async (page) => {
				await page.getByRole('table', { name: 'Rows of Enquiries' }).waitFor()
			}),
			signedIn('forms', '/forms', async (page) => {
				await page.getByRole('table', { name: 'Forms' }).waitFor()
			}),
			signedIn('form builder', `/forms/${form.id}/edit`, async (page) => {
				await page.getByRole('list', { name: 'Fields' }).waitFor()
			}),
			signedIn('form submissions', `/forms/${form.id}/submissions`),
			signedIn('form analytics', `/forms/${form.id}/analytics`),
			signedIn('charts', '/charts'),
			signedIn('invoices', '/invoices'),
			signedIn('portals', '/portals'),
			signedIn('time tracking', '/time'),
			signedIn('settings: profile', '/settings?tab=profile', settingsTab('Profile')),
			signedIn('settings: password & sessions', '/settings?tab=security', settingsTab('Password & sessions')),
			signedIn('settings: organization', '/settings?tab=organization', settingsTab('Organization')),
			signedIn('settings: members', '/settings?tab=members', settingsTab('Members')),
			signedIn('paused', '/paused'),
			signedOut('sign in', '/login'),
			signedOut('sign up', '/register'),
			signedOut('forgot password', '/forgot-password'),
			signedOut('invitation', invitation),
			signedOut('public form', `/forms/${form.id}`),
			signedOut('not found', '/no-such-page'),
		],
	}
}

/** The serious and critical violations axe finds on the page, one line each. */
async function violationsOn(page: Page): Promise<string[]> {
	const results = await new AxeBuilder({ page })
		.withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
		.analyze()
	return results.violations
		.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
		.flatMap((violation) =>
			violation.nodes.map(
				(node) =>
					`${violation.id} (${violation.impact}) at ${node.target.join(' ')}: ${node.failureSummary?.replaceAll('\n', ' ')}`,
			),
		)
}

let seeded: Promise<{ token: string; screens: Screen[] }> | undefined

for (const theme of themes) {
	// Some twenty screens, each loaded, settled and checked: more than the runner's default time on a busy machine.
	test(`every main screen has no serious or critical axe violation in the ${theme} theme`, {
		timeout: 900_000,
	}, async (t) => {
		seeded ??= seedTeam()
		const { token, screens } = await seeded
		const found: string[] = []
		for (const isSignedIn of [true, false]) {
			const context = await newContext(browser(), isSignedIn ? { account: { token } } : {})
			t.after(() => context.close())
			await context.addInitScript((chosen) => localStorage.setItem('blocksmith.theme', chosen), theme)
			const page = await context.newPage()
			await page.emulateMedia({ colorScheme: theme, reducedMotion: 'reduce' })
			for (const screen of screens.filter((candidate) => candidate.isSignedIn === isSignedIn)) {
				await page.goto(screen.path)
				await page.getByRole('heading', { level: 1 }).first().waitFor()
				await screen.ready?.(page)
				// Settled: no request for a moment (polling screens never go quiet for long, so not waited on forever).
				await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {})
				const isDark = await page.evaluate(() => document.documentElement.classList.contains('dark'))
				assert.equal(isDark, theme === 'dark', `${screen.name} is not in the ${theme} theme`)
				for (const violation of await violationsOn(page)) {
					found.push(`${screen.name} (${screen.path}): ${violation}`)
				}
			}
		}
		assert.deepEqual(found, [], `axe found serious or critical violations in the ${theme} theme`)
	})
}
