import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { api, assertNoProblems, newPage, useBrowser } from '../../fixtures.ts'

// A CSV file becomes a database: read in the browser, its column types guessed and shown before
// anything is sent, imported as typed values, and exported again as CSV.

const browser = useBrowser()

const header = ['Name', 'Rate', 'Started', 'Active', 'Skills', 'Email']
const skillSets = ['Design, Writing', 'Code', 'Code, Research', 'Design', 'Writing, Research, Code']

type Contractor = { name: string; rate: number; started: string; active: boolean; skills: string; email: string }

const contractors: Contractor[] = Array.from({ length: 30 }, (_, index) => {
	const number = String(index + 1).padStart(2, '0')
	return {
		name: `Contractor ${number}`,
		rate: index % 4 === 1 ? 72.5 + index : 60 + ((index * 5) % 50),
		started: `2026-01-${number}`,
		active: index % 3 !== 0,
		skills: skillSets[index % skillSets.length] ?? 'Code',
		email: `contractor${number}@example.com`,
	}
})

function csvField(value: string): string {
	return /[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value
}

function csvText(): string {
	const lines = contractors.map((row) =>
		[row.name, String(row.rate), row.started, row.active ? 'yes' : 'no', row.skills, row.email].map(csvField).join(','),
	)
	return `${[header.join(','), ...lines].join('\n')}\n`
}

/** One line of CSV into its fields (quoted fields, doubled quotes; no line breaks inside). */
function parseCsvLine(line: string): string[] {
	const fields: string[] = []
	let field = ''
	let isQuoted = false
	for (let index = 0; index < line.length; index++) {
		const char = line[index]
		if (isQuoted) {
			if (char === '"' && line[index + 1] === '"') {
				field += '"'
				index++
			} else if (char === '"') {
				isQuoted = false
			} else {
				field += char
			}
		} else if (char === '"') {
			isQuoted = true
		} else if (char === ',') {
			fields.push(field)
			field = ''
		} else {
			field += char
		}
	}
	fields.push(field)
	return fields
}

function toast(page: Page, text: string) {
	return page.locator('[data-sonner-toast]').filter({ hasText: text })
}

test('a CSV file is imported with its guessed types into a new database, and exported again', async (t) => {
	const folder = mkdtempSync(path.join(tmpdir(), 'blocksmith-csv-'))
	t.after(() => rmSync(folder, { recursive: true, force: true }))
	const file = path.join(folder, 'Contractors.csv')
	writeFileSync(file, csvText())

	const account = await api.signUp({ name: 'Carla Csv' })
	const { page, context, problems } = await newPage(browser(), { account })
	t.after(() => context.close())

	// A local workspace of its own, made from the empty state.
	await page.goto('/workspaces')
	await page.getByRole('heading', { level: 2, name: 'Start with data' }).waitFor()
	await page.getByRole('button', { name: 'New local workspace' }).click()
	const create = page.getByRole('dialog', { name: 'New local workspace' })
	await create.getByLabel('Name').fill('Freelance desk')
	await create.getByRole('button', { name: 'Create workspace' }).click()
	await toast(page, 'Freelance desk is ready').waitFor()
	await page.getByRole('heading', { level: 2, name: 'Freelance desk' }).waitFor()
	await page.getByRole('heading', { level: 3, name: 'No databases yet' }).waitFor()

	// Choosing the file shows the preview with a type per column, before anything is sent.
	await page.getByRole('button', { name: 'Import CSV' }).click()
	const dialog = page.getByRole('dialog', { name: 'Import a CSV file' })
	await dialog.getByLabel(/Choose a CSV file/).setInputFiles(file)
	const preview = dialog.getByRole('table', { name: 'Preview of the first rows' })
	await preview.waitFor()
	assert.equal(await dialog.getByLabel('Database name').inputValue(), 'Contractors')
	const titleColumn = preview.getByRole('columnheader').nth(0)
	assert.equal(await titleColumn.getByRole('textbox').inputValue(), 'Name')
	assert.ok(await titleColumn.getByRole('radio', { name: 'Title column' }).isChecked(), 'Name is not the title')
	await titleColumn.getByText('Title', { exact: true }).waitFor()
	for (const [index, name, type] of [
		[2, 'Rate', 'Number'],
		[3, 'Started', 'Date'],
		[4, 'Active', 'Checkbox'],
		[5, 'Skills', 'Multi-select'],
		[6, 'Email', 'E-mail'],
	] as const) {
		const select = preview.getByRole('combobox', { name: `Type of column ${index} (${name})` })
		assert.equal((await select.textContent())?.trim(), type, `column ${name} was guessed wrong`)
	}
	await dialog.getByText('Showing 20 of 30 rows.').waitFor()
	assert.equal(await preview.getByRole('row').count(), 21, 'a header and 20 preview rows')

	await dialog.getByRole('button', { name: 'Import 30 rows' }).click()
	await dialog.getByText('30 rows are in Contractors.').waitFor()
	await dialog.getByRole('button', { name: 'Close' }).first().click()
	await dialog.waitFor({ state: 'detached' })

	// The workspace lists the new database with its 30 rows.
	const databases = page.getByRole('table', { name: 'Databases of Freelance desk' })
	const listed = databases
		.getByRole('row')
		.filter({ has: page.getByRole('link', { name: 'Contractors', exact: true }) })
	await listed.getByRole('cell').nth(1).filter({ hasText: /^30$/ }).waitFor()
	await listed.getByRole('link', { name: 'Contractors', exact: true }).click()
	await page.getByRole('heading', { level: 1, name: 'Contractors' }).waitFor()
	await page.getByRole('navigation', { name: 'Pages' }).getByText('Rows 1–30 of 30').waitFor()

	// One row, read back as the table shows it: every value typed.
	const sample = contractors[6]
	assert.ok(sample)
	const table = page.getByRole('table', { name: 'Rows of Contractors' })
	await table.getByRole('button', { name: `Name of ${sample.name}: ${sample.name}`, exact: true }).waitFor()
	await table.getByRole('button', { name: `Rate of ${sample.name}: ${sample.rate}`, exact: true }).waitFor()
	await table.getByRole('button', { name: `Started of ${sample.name}: Jan 7, 2026`, exact: true }).waitFor()
	await table.getByRole('checkbox', { name: `Active of ${sample.name}`, checked: sample.active }).waitFor()
	await table.getByRole('button', { name: `Skills of ${sample.name}: ${sample.skills}`, exact: true }).waitFor()
	await table.getByRole('button', { name: `Email of ${sample.name}: ${sample.email}`, exact: true }).waitFor()

	// Export: the file has the header and the 30 rows, with the values as imported.
	const downloading = page.waitForEvent('download')
	await page.getByRole('button', { name: 'Export CSV' }).click()
	const download = await downloading
	assert.equal(download.suggestedFilename(), 'Contractors.csv')
	const downloaded = await download.path()
	const lines = readFileSync(downloaded, 'utf8')
		.replace(/^\uFEFF/, '')
		.split(/\r?\n/)
		.filter((line) => line !== '')
	assert.deepEqual(parseCsvLine(lines[0] ?? ''), header)
	assert.equal(lines.length, 31, 'the header and 30 rows')
	const exported = new Map(
		lines
			.slice(1)
			.map((line) => parseCsvLine(line))
			.map((fields) => [fields[0], fields]),
	)
	assert.equal(exported.size, 30)
	for (const row of contractors) {
		assert.deepEqual(exported.get(row.name), [
			row.name,
			String(row.rate),
			row.started,
			String(row.active),
			row.skills,
			row.email,
		])
	}
	assertNoProblems(problems)
})
