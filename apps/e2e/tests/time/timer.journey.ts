import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { until } from '../../../server/src/test/until.ts'
import { api, assertNoProblems, newPage, useBrowser, waitForHome, watchedPage } from '../../fixtures.ts'
import { uniqueEmail } from '../../http-api.ts'
import {
	createSampleWorkspace,
	entryRow,
	headerTimer,
	isRunning,
	mapSuggested,
	startTimer,
	timerBar,
	toast,
} from './time-steps.ts'

// The main story on the sample workspace: a new user maps its Time entries database as
// suggested, starts the timer on a project, finds it still running after a reload, on another
// screen and in another tab, stops it from the app's frame, and the database's row has the
// range, the hours, the project and the person. Then time added by hand with a typed duration,
// edited, deleted and brought back with Undo (its row too), and an entry continued.

const browser = useBrowser()

type Entry = {
	id: string
	databaseId: string
	userId: string
	startedAt: string
	endedAt: string | null
	description: string | null
	project: string | null
	rowId: string | null
	delivery: string
}
type Property = { id: string; name: string; relationDatabaseId?: string | null }
type Row = { id: string; title: string; values: Record<string, unknown> }
type DateValue = { start: string; end: string | null }

function seconds(entry: Pick<Entry, 'startedAt' | 'endedAt'>): number {
	assert.ok(entry.endedAt, 'the entry has ended')
	return (Date.parse(entry.endedAt) - Date.parse(entry.startedAt)) / 1000
}

async function signUp(page: Page, name: string): Promise<string> {
	await page.goto('/register')
	await page.getByLabel('Name').fill(name)
	await page.getByLabel('E-mail').fill(uniqueEmail('timer'))
	await page.getByLabel('Password').fill('hours well spent')
	await page.getByRole('button', { name: 'Create account' }).click()
	await waitForHome(page, name)
	const token = await page.evaluate(() => localStorage.getItem('blocksmith.token'))
	assert.ok(token, 'signed in')
	return token
}

test('the timer on the sample Time entries: survives a reload, shows in the frame everywhere, its row is complete; manual time, edit, undo of a delete, continue', async (t) => {
	const { page, context, problems } = await newPage(browser())
	t.after(() => context.close())
	const token = await signUp(page, 'Tim Tracker')
	await createSampleWorkspace(page)
	await mapSuggested(page, 'Time entries')

	const databases = await api.callOk<{ id: string; name: string }[]>('/dashboard/local_time/databases', { token })
	const database = databases.find((candidate) => candidate.name === 'Time entries')
	assert.ok(database)
	const schema = await api.callOk<{ properties: Property[] }>(`/dashboard/local/databases/${database.id}`, { token })
	const propertyId = (name: string) => {
		const property = schema.properties.find((candidate) => candidate.name === name)
		assert.ok(property, `no ${name} property`)
		return property.id
	}
	const entries = () =>
		api.callOk<Entry[]>(`/dashboard/local_time/entries?databaseId=${database.id}&limit=200`, { token })
	const entryNamed = async (description: string) =>
		(await entries()).filter((entry) => entry.description === description)
	const rowsTitled = async (title: string) =>
		(
			await api.callOk<{ rows: Row[] }>(
				`/dashboard/local/databases/${database.id}/rows?search=${encodeURIComponent(title)}`,
				{ token },
			)
		).rows.filter((row) => row.title === title)

	// Start: a description and a project, then reloaded: the same timer runs on.
	const description = `Homepage copy ${Date.now().toString(36)}`
	await startTimer(page, description, 'Website redesign')
	await page.reload()
	await isRunning(page)
	const bar = timerBar(page)
	await bar.getByRole('button', { name: 'Stop', exact: true }).waitFor()
	assert.equal(await bar.getByRole('textbox', { name: 'What are you working on?' }).inputValue(), description)
	await bar.getByRole('button', { name: 'Project: Website redesign', exact: true }).waitFor()
	await headerTimer(page).getByText(description).waitFor()
	await headerTimer(page).getByText('Website redesign · Time entries').waitFor()

	// In the frame of another screen, and of a second tab of the same session.
	await page.goto('/forms')
	await page.getByRole('heading', { level: 1, name: 'Forms' }).waitFor()
	await headerTimer(page).getByText(description).waitFor()
	const second = await watchedPage(context)
	await second.page.goto('/charts')
	await headerTimer(second.page).getByText(description).waitFor()

	// Stopped from the frame: gone there, and from the other tab (it hears of it).
	await headerTimer(page).getByRole('button', { name: 'Stop timer' }).click()
	await headerTimer(page).waitFor({ state: 'detached' })
	await headerTimer(second.page).waitFor({ state: 'detached' })
	await second.page.close()

	await page.goto('/time')
	await entryRow(page, description).waitFor()
	await bar.getByRole('button', { name: 'Start', exact: true }).waitFor()
	const [stopped] = await until(
		'the timed entry delivered',
		() => entryNamed(description),
		(found) => found.length === 1 && found[0]?.delivery === 'delivered' && found[0].rowId !== null,
	)
	assert.ok(stopped?.endedAt && stopped.project)

	// Its row: the range from start to end, the hours, the project and the person.
	const projectsId = schema.properties.find((property) => property.name === 'Project')?.relationDatabaseId
	const projects = await api.callOk<{ rows: Row[] }>(
		`/dashboard/local/databases/${projectsId}/rows?search=${encodeURIComponent('Website redesign')}`,
		{ token },
	)
	const project = projects.rows.find((row) => row.title === 'Website redesign')
	assert.ok(project)
	assert.equal(stopped.project, project.id)
	const [row] = await rowsTitled(description)
	assert.ok(row, 'the entry is a row of Time entries')
	assert.equal(row.id, stopped.rowId)
	const when = row.values[propertyId('When')] as DateValue
	assert.equal(Date.parse(when.start), Date.parse(stopped.startedAt))
	assert.equal(Date.parse(when.end ?? ''), Date.parse(stopped.endedAt))
	const hours = row.values[propertyId('Hours')] as number
	assert.ok(Math.abs(hours - seconds(stopped) / 3600) <= 0.0001, `${hours} hours for ${seconds(stopped)} s`)
	assert.deepEqual(row.values[propertyId('Project')], [project.id])
	assert.deepEqual(row.values[propertyId('Person')], [stopped.userId])
	const people = await api.callOk<{ id: string; name: string }[]>('/dashboard/local/users', { token })
	assert.equal(people.find((person) => person.id === stopped.userId)?.name, 'Tim Tracker')

	// Time added by hand: yesterday from 09:00, for a typed 1:30.
	const manual = `Client call ${Date.now().toString(36)}`
	const yesterday = new Date(Date.now() - 24 * 3600_000).toISOString().slice(0, 10)
	await page.getByRole('button', { name: 'Add time' }).click()
	const adding = page.getByRole('dialog', { name: 'Add time' })
	await adding.getByRole('textbox', { name: 'Description' }).fill(manual)
	await adding.getByLabel('Day').fill(yesterday)
	await adding.getByLabel('Start').fill('09:00')
	await adding.getByRole('textbox', { name: 'Duration' }).fill('1:30')
	assert.equal(await adding.getByLabel('End').inputValue(), '10:30')
	await adding.getByRole('button', { name: 'Add time' }).click()
	await toast(page, 'Time added.').waitFor()
	await entryRow(page, manual).getByText('09:00–10:30').waitFor()
	await entryRow(page, manual).getByText('1:30', { exact: true }).waitFor()
	const [added] = await entryNamed(manual)
	assert.ok(added)
	assert.equal(added.startedAt, new Date(`${yesterday}T09:00:00Z`).toISOString())
	assert.equal(seconds(added), 5400)

	// Edited: another description and an end half an hour later.
	const edited = `${manual} (follow-up)`
	await entryRow(page, manual)
		.getByRole('button', { name: `Edit ${manual}` })
		.click()
	const editing = page.getByRole('dialog', { name: 'Edit entry' })
	await editing.getByRole('textbox', { name: 'Description' }).fill(edited)
	await editing.getByLabel('End').fill('11:00')
	assert.equal(await editing.getByRole('textbox', { name: 'Duration' }).inputValue(), '2:00')
	await editing.getByRole('button', { name: 'Save' }).click()
	await toast(page, 'Entry saved.').waitFor()
	await entryRow(page, edited).getByText('09:00–11:00').waitFor()
	const [editedRow] = await until(
		'the edit in the row',
		() => rowsTitled(edited),
		(found) => found.length === 1 && found[0]?.values[propertyId('Hours')] === 2,
	)
	assert.ok(editedRow)

	// Deleted: gone from the list and the database; Undo brings both back, the same row.
	await entryRow(page, edited)
		.getByRole('button', { name: `Delete ${edited}` })
		.click()
	const deleted = toast(page, 'Entry deleted.')
	await deleted.waitFor()
	await entryRow(page, edited).waitFor({ state: 'detached' })
	await until(
		'the row deleted',
		() => rowsTitled(edited),
		(found) => found.length === 0,
		20_000,
	)
	await deleted.getByRole('button', { name: 'Undo' }).click()
	await toast(page, 'Entry restored.').waitFor()
	await entryRow(page, edited).getByText('09:00–11:00').waitFor()
	const [restored] = await until(
		'the row restored',
		() => rowsTitled(edited),
		(found) => found.length === 1,
	)
	assert.equal(restored?.id, editedRow.id)
	assert.deepEqual(restored?.values, editedRow.values)

	// Continued: a new timer with the first entry's description and project.
	await entryRow(page, description)
		.getByRole('button', { name: `Continue ${description}` })
		.click()
	await bar.getByRole('button', { name: 'Stop', exact: true }).waitFor()
	await isRunning(page)
	assert.equal(await bar.getByRole('textbox', { name: 'What are you working on?' }).inputValue(), description)
	await bar.getByRole('button', { name: 'Project: Website redesign', exact: true }).waitFor()
	await headerTimer(page).getByText(description).waitFor()
	await bar.getByRole('button', { name: 'Stop', exact: true }).click()
	await bar.getByRole('button', { name: 'Start', exact: true }).waitFor()
	await until(
		'two entries of the first description',
		() => entryNamed(description),
		(found) => found.length === 2 && found.every((entry) => entry.endedAt && entry.project === project.id),
	)
	await until(
		'two rows of it',
		() => rowsTitled(description),
		(found) => found.length === 2,
	)
	await entryRow(page, description).nth(1).waitFor()
	assert.equal(await entryRow(page, description).count(), 2)

	assertNoProblems(problems)
	assertNoProblems(second.problems)
})
