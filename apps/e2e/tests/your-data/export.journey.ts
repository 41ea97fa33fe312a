import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import { readZip } from '../../../server/src/test/zip.ts'
import { api, assertNoProblems, baseUrl, linkIn, newPage, useBrowser, waitForMail } from '../../fixtures.ts'
import { answeredFormWithFile, dataTab, joinedMember, manifestOf, rowIdsOf } from './data-steps.ts'

// Taking everything along (issue 20): an owner exports the organization from Settings → Data,
// follows its progress, and downloads one ZIP whose manifest names the form, its answer and the
// database's rows; the mailed link downloads it too, without signing in. A member has no export.

const browser = useBrowser()

test('an owner exports everything, downloads the ZIP, and the mailed link downloads it signed out', async (t) => {
	const owner = await api.signUp({ name: 'Olga Export' })
	const organization = "Olga Export's workspace"
	const seeded = await answeredFormWithFile(api, baseUrl, owner.token)
	const rowIds = await rowIdsOf(api, owner.token, seeded.database.id)
	assert.ok(rowIds.length > 1, 'the sample rows and the answer’s row')

	const tab = await newPage(browser(), { account: owner })
	t.after(() => tab.context.close())
	const { page } = tab
	await page.goto(dataTab)
	await page.getByRole('button', { name: 'Export everything' }).click()
	// The export answers queued at once: its progress shows before the job is done.
	const progress = page.getByRole('progressbar', { name: 'Export progress' })
	await progress.waitFor()
	// While it runs, no second one can be started (read at one moment: the export may end any time).
	const isStartable = await page.evaluate(() => {
		const button = Array.from(document.querySelectorAll('button')).find(
			(one) => one.textContent?.trim() === 'Export everything',
		)
		return document.querySelector('[role="progressbar"]') !== null && button?.disabled === false
	})
	assert.equal(isStartable, false, 'a second export can be started while one runs')
	const ready = page.getByRole('status').filter({ hasText: 'Your export is ready' })
	await ready.waitFor()
	await progress.waitFor({ state: 'detached' })
	assert.match((await ready.textContent()) ?? '', /The link works until/)

	const [download] = await Promise.all([
		page.waitForEvent('download'),
		ready.getByRole('link', { name: 'Download' }).click(),
	])
	assert.match(download.suggestedFilename(), /\.zip$/)
	const downloaded = await readFile(await download.path())
	const files = await readZip(downloaded)
	const manifest = manifestOf(files)
	assert.equal(manifest.format, 'blocksmith-export/1')
	assert.equal(manifest.organization.name, organization)
	assert.ok(manifest.objects.forms?.includes(seeded.form.id), 'the form is in the manifest')
	assert.ok(manifest.objects.submissions?.includes(seeded.submissionId), 'the answer is in the manifest')
	assert.ok(manifest.objects.databases?.includes(seeded.database.id), 'the database is in the manifest')
	assert.deepEqual(
		[...(manifest.objects.rows ?? [])].filter((id) => rowIds.includes(id)).sort(),
		[...rowIds].sort(),
		'every row of the database is in the manifest',
	)
	// The manifest lists every file the archive holds, and the answer's file is there as sent.
	assert.deepEqual([...files.keys()].filter((name) => name !== 'manifest.json').sort(), [...manifest.files].sort())
	const attached = [...files.entries()].filter(([name]) => name.endsWith(`/${seeded.file.name}`))
	assert.equal(attached.length, 1, `the answer's file: ${manifest.files.join(', ')}`)
	assert.deepEqual(attached[0]?.[1], seeded.file.bytes)

	// The mail's link downloads the same archive without a session (it is opened from the mailbox).
	const mail = await waitForMail(
		owner.email,
		(candidate) => candidate.subject === `Your export of ${organization} is ready`,
	)
	const link = linkIn(mail, '/api/exports/')
	const mailed = await fetch(`${baseUrl}${link}`)
	assert.equal(mailed.status, 200)
	assert.equal(mailed.headers.get('content-type'), 'application/zip')
	assert.deepEqual(Buffer.from(await mailed.arrayBuffer()), downloaded)
	// A link with another token opens nothing.
	const forged = await fetch(`${baseUrl}${link.replace(/token=[^&]+/, 'token=forged')}`)
	assert.equal(forged.status, 404)
	await forged.body?.cancel()

	// The export stays in the card after a reload, ready to download again.
	await page.reload()
	await ready.getByRole('link', { name: 'Download' }).waitFor()
	assertNoProblems(tab.problems)
})

test('a member sees who can export and no button to export or delete', async (t) => {
	const owner = await api.signUp({ name: 'Otto Owner' })
	const organization = "Otto Owner's workspace"
	const member = await joinedMember(api, waitForMail, owner, 'Mia Member')
	const tab = await newPage(browser(), { account: member })
	t.after(() => tab.context.close())
	const { page } = tab
	await page.goto(dataTab)
	await page
		.getByText(`An owner or admin of ${organization} can export everything it has, and an owner can delete it.`)
		.waitFor()
	assert.equal(await page.getByRole('button', { name: 'Export everything' }).count(), 0)
	assert.equal(await page.getByRole('button', { name: 'Delete organization' }).count(), 0)
	// The API agrees: a member starting an export is refused.
	const refused = await api.call('/dashboard/exports', { token: member.token, json: {} })
	assert.equal(refused.status, 403)
	assertNoProblems(tab.problems)
})
