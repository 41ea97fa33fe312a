import type { Page } from 'playwright-core'
import { toast } from '../charts/charts-steps.ts'

// Steps the time journeys share: a database mapped from /time's first run as a new user does,
// and the timer as a user reaches it (the bar on /time, the running timer in the app's frame).

export { createSampleWorkspace, toast } from '../charts/charts-steps.ts'

/**
 * /time's first run: the database named `name` chosen and its suggested mapping saved without
 * changes; lands on the tracker with the timer.
 */
export async function mapSuggested(page: Page, name: string): Promise<void> {
	await page.goto('/time')
	await page.getByRole('heading', { level: 2, name: 'Where should your time go?' }).waitFor()
	await page.getByRole('button', { name: `Use this database for ${name}`, exact: true }).click()
	const dialog = page.getByRole('dialog', { name: `Track time in ${name}` })
	await dialog.getByRole('button', { name: 'Save and start tracking' }).click()
	await toast(page, `${name} is ready for time tracking.`).waitFor()
	await timerBar(page).waitFor()
}

/** The timer bar on /time. */
export function timerBar(page: Page) {
	return page.getByRole('form', { name: 'Timer' })
}

/** The running timer in the app's frame (the sidebar on a desktop, the header on a phone). */
export function headerTimer(page: Page) {
	return page.getByRole('region', { name: 'Running timer' })
}

/** The timer bar's clock ("0:00:04"). */
function elapsed(page: Page) {
	return timerBar(page).getByRole('timer', { name: 'Elapsed time' })
}

/** Picks a project by name in the project picker of `scope` (the timer bar, or an entry dialog). */
async function pickProject(page: Page, project: string, scope = timerBar(page)): Promise<void> {
	await scope.getByRole('button', { name: /^(Choose a project|Project: )/ }).click()
	const picker = page.getByRole('dialog', { name: 'Projects' })
	await picker.getByRole('searchbox', { name: 'Search projects' }).fill(project)
	await picker.getByRole('button', { name: project, exact: true }).click()
	await scope.getByRole('button', { name: `Project: ${project}`, exact: true }).waitFor()
}

/** Types what the timer is for, picks its project when given, and starts it: the clock runs. */
export async function startTimer(page: Page, description: string, project?: string): Promise<void> {
	const bar = timerBar(page)
	await bar.getByRole('textbox', { name: 'What are you working on?' }).fill(description)
	if (project) {
		await pickProject(page, project)
	}
	await bar.getByRole('button', { name: 'Start', exact: true }).click()
	await bar.getByRole('button', { name: 'Stop', exact: true }).waitFor()
	await isRunning(page)
}

/** Waits until the timer bar's clock shows more than 0:00:00 (it counts from the server's start). */
export async function isRunning(page: Page): Promise<void> {
	await elapsed(page)
		.filter({ hasNotText: /^0:00:00$/ })
		.waitFor()
}

/** The entries list's row of the entry described `description` (its name is a button). */
export function entryRow(page: Page, description: string) {
	return page.getByRole('listitem').filter({ has: page.getByRole('button', { name: description, exact: true }) })
}
