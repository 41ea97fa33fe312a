import { and, eq, inArray } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { AppError } from '#src/lib/errors.ts'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import type { ContentBlock } from './connector.ts'
import { contentFileUrl, readRowContent, refreshContent } from './workspaces.content.ts'
import { workspaceDatabases, workspaceRowContent, workspaceRows } from './workspaces.schema.ts'

// Page content of mirrored Notion rows, end to end: the app reads the fake Notion's blocks
// through the official SDK after a flagged database's sync, reads them again when a page is
// edited, never for unflagged databases, follows pages of children and nested blocks, drops the
// content with its row, and renews an expired hosted file's URL.

let t: TestApp
let fake: Awaited<ReturnType<typeof createFakeNotion>>
let demo: ReturnType<typeof fake.seed>
const HOUR = 3_600_000

beforeAll(async () => {
	fake = await createFakeNotion()
	demo = fake.seed()
	t = await createTestApp({
		LOG_LEVEL: 'silent',
		NOTION_API_BASE_URL: fake.url,
		NOTION_REQUESTS_PER_SECOND: '40',
		// Syncs run when a test asks for them.
		SYNC_INTERVAL_SECONDS: '3600',
	})
})
afterAll(async () => {
	fake?.useRealClock()
	await t?.close()
	await fake?.close()
})

type Database = { id: string; name: string; sync: { state: string; lastSyncedAt: string | null } }

async function databases(token: string, workspaceId: string): Promise<Database[]> {
	return (await t.request('GET', `/dashboard/notion/databases?workspaceId=${workspaceId}`, { token })).body
}

/** A new organization with the fake connected and its databases synced once. */
async function connected() {
	const account = await t.signUp()
	const response = await t.request('POST', '/dashboard/workspaces', {
		token: account.token,
		json: { tool: 'notion', method: 'token', token: fake.token },
	})
	expect(response.status).toBe(201)
	const workspaceId = response.body.workspace.id as string
	const list = await until(
		'the first sync',
		() => databases(account.token, workspaceId),
		(found) => found.length >= 4 && found.every((d) => d.sync.state === 'idle' && d.sync.lastSyncedAt !== null),
	)
	const byName = new Map(list.map((database) => [database.name, database.id]))
	const projects = byName.get('Projects') ?? ''
	const [record] = await t.db.select().from(workspaceDatabases).where(eq(workspaceDatabases.id, projects))
	return { token: account.token, workspaceId, byName, projects, orgId: record?.organizationId ?? '' }
}

async function flag(databaseId: string, on: boolean) {
	await t.db.update(workspaceDatabases).set({ mirrorContent: on }).where(eq(workspaceDatabases.id, databaseId))
}

async function syncNow(token: string, databaseId: string) {
	const before = await lastSynced(databaseId)
	const response = await t.request('POST', `/dashboard/notion/databases/${databaseId}/sync`, { token })
	expect(response.status).toBe(202)
	await until(
		'the sync',
		() => lastSynced(databaseId),
		(at) => at !== null && (before === null || at > before),
	)
}

async function lastSynced(databaseId: string): Promise<number | null> {
	const [record] = await t.db.select().from(workspaceDatabases).where(eq(workspaceDatabases.id, databaseId))
	return record?.syncState === 'idle' && record.lastSyncedAt ? record.lastSyncedAt.getTime() : null
}

/** The mirrored content of a database's rows, by the rows' Notion ids. */
async function contentOf(databaseId: string) {
	const stored = await t.db
		.select({ externalId: workspaceRows.externalId, blocks: workspaceRowContent.blocks, row: workspaceRows.id })
		.from(workspaceRowContent)
		.innerJoin(workspaceRows, eq(workspaceRows.id, workspaceRowContent.rowId))
		.where(eq(workspaceRows.databaseId, databaseId))
	return new Map(stored.map((item) => [item.externalId, { rowId: item.row, blocks: item.blocks as ContentBlock[] }]))
}

async function rowIdOf(databaseId: string, externalId: string): Promise<string> {
	const [row] = await t.db
		.select({ id: workspaceRows.id })
		.from(workspaceRows)
		.where(and(eq(workspaceRows.databaseId, databaseId), eq(workspaceRows.externalId, externalId)))
	return row?.id ?? ''
}

/** The page or block ids whose children were listed since the last reset. */
function childrenListed(): string[] {
	return fake
		.requests()
		.filter((entry) => entry.route === 'GET /v1/blocks/:id/children')
		.map((entry) => entry.path.split('/')[3] ?? '')
}

const paragraph = (content: string) => ({ type: 'paragraph', paragraph: { rich_text: [{ text: { content } }] } })

describe('page content of mirrored rows', () => {
	test('a run reads a bounded batch, newest edits first, and the next run goes on; a read in the minute of the edit is done again', async () => {
		const { projects } = await connected()
		const deps = t.services.workspaces.deps
		// First in the file: no page has been edited yet, so none is read twice. Not flagged: nothing is read.
		expect(await refreshContent(deps, projects, 2)).toEqual({ read: 0, more: false })
		await flag(projects, true)
		const total = demo.pages.projects.length
		const first = await refreshContent(deps, projects, 2)
		expect(first).toEqual({ read: 2, more: true })
		expect((await contentOf(projects)).size).toBe(2)
		let runs = 1
		for (let result = first; result.more; runs++) {
			result = await refreshContent(deps, projects, 2)
		}
		expect(runs).toBe(Math.ceil(total / 2))
		expect((await contentOf(projects)).size).toBe(total)
		fake.resetRequests()
		expect(await refreshContent(deps, projects, 2)).toEqual({ read: 0, more: false })
		expect(childrenListed()).toEqual([])

		// Edited just now (Notion's edit times are whole minutes): read, and read again by the next run, since
		// the first read may have missed a later edit of that same minute.
		const edited = demo.pages.projects[5] ?? demo.pages.projects[0] ?? ''
		fake.setPageContent(edited, [paragraph('Fresh')])
		await t.db
			.update(workspaceRows)
			.set({ lastEditedTime: new Date(fake.now()) })
			.where(and(eq(workspaceRows.databaseId, projects), eq(workspaceRows.externalId, edited)))
		expect(await refreshContent(deps, projects, 2)).toEqual({ read: 1, more: false })
		expect((await contentOf(projects)).get(edited)?.blocks).toEqual([{ type: 'paragraph', text: [{ text: 'Fresh' }] }])
		expect(await refreshContent(deps, projects, 2)).toEqual({ read: 1, more: false })
		expect(childrenListed()).toEqual([edited, edited])
		// Its edit moved back past the minute, so the other tests' runs find nothing to read again.
		fake.setClock(Date.now() - 10 * 60_000)
		fake.setPageContent(edited, [paragraph('Fresh')])
		fake.useRealClock()
	})

	test('a flagged database gets every row its content after a sync; an unflagged one is never read', async () => {
		const { token, byName, projects, orgId } = await connected()
		const clients = byName.get('Clients') ?? ''
		fake.resetRequests()
		// Synced without the flag: no content read at all.
		await syncNow(token, projects)
		await syncNow(token, clients)
		expect(childrenListed()).toEqual([])

		await flag(projects, true)
		await syncNow(token, projects)
		await syncNow(token, clients)
		const content = await until(
			'content of every project',
			() => contentOf(projects),
			(found) => found.size === demo.pages.projects.length,
		)
		expect((await contentOf(clients)).size).toBe(0)
		// Only project pages (and the seeded toggle under the first one) were listed.
		const listed = childrenListed()
		expect(listed.filter((id) => demo.pages.clients.includes(id))).toEqual([])
		expect(listed.filter((id) => demo.pages.projects.includes(id)).sort()).toEqual([...demo.pages.projects].sort())

		const first = content.get(demo.pages.projects[0] ?? '')
		expect(first?.blocks.slice(0, 4)).toEqual([
			{ type: 'heading_1', text: [{ text: 'Project brief' }] },
			{
				type: 'paragraph',
				text: [
					{ text: 'Scope agreed on ' },
					{ text: '2026-01-12' },
					{ text: '; see ' },
					{ text: 'the shared folder', href: 'https://example.com/folder' },
					{ text: '.' },
				],
			},
			{ type: 'to_do', text: [{ text: 'Kick-off call' }], checked: true },
			{ type: 'to_do', text: [{ text: 'First draft' }], checked: false },
		])
		expect(first?.blocks).toContainEqual({
			type: 'toggle',
			text: [{ text: 'Details' }],
			children: [{ type: 'bulleted_list_item', text: [{ text: 'Two review rounds' }] }],
		})
		const image = first?.blocks.find((block) => block.type === 'image')
		expect(image).toMatchObject({ url: null, fileRef: { blockId: expect.any(String) }, caption: 'Moodboard' })
		expect(image?.hosted?.url).toMatch(/^http/)
		// What the portal reads: the same blocks, never Notion's signed URL.
		const forPortal = await readRowContent(t.db, orgId, first?.rowId ?? '')
		expect(forPortal?.blocks.find((block) => block.type === 'image')).toEqual({
			type: 'image',
			url: null,
			fileRef: image?.fileRef,
			caption: 'Moodboard',
		})
		expect(JSON.stringify(forPortal)).not.toContain(image?.hosted?.url ?? 'no url')
		expect(await readRowContent(t.db, 'another-org', first?.rowId ?? '')).toBeNull()
		// An empty page has empty content.
		expect(content.get(demo.pages.projects[1] ?? '')?.blocks).toEqual([])

		// Turned off: the next sync drops the content.
		await flag(projects, false)
		await syncNow(token, projects)
		await until(
			'the content dropped',
			() => contentOf(projects),
			(found) => found.size === 0,
		)
	})

	test('an edited page is read again, the others are not; children come in pages of 100 and nested', async () => {
		const { token, projects } = await connected()
		await flag(projects, true)
		await syncNow(token, projects)
		await until(
			'content of every project',
			() => contentOf(projects),
			(found) => found.size === demo.pages.projects.length,
		)
		// Any read of freshly edited pages (in the minute of their edit) is done again once: let it be.
		await refreshContent(t.services.workspaces.deps, projects)

		const edited = demo.pages.projects[2] ?? ''
		const many = Array.from({ length: 150 }, (_, index) => paragraph(`Line ${index + 1}`))
		fake.setPageContent(edited, [
			...many,
			{
				type: 'toggle',
				toggle: { rich_text: [{ text: { content: 'Level 1' } }] },
				children: [
					{
						type: 'bulleted_list_item',
						bulleted_list_item: { rich_text: [{ text: { content: 'Level 2' } }] },
						children: [paragraph('Level 3')],
					},
				],
			},
		])
		fake.resetRequests()
		await syncNow(token, projects)
		const content = await until(
			'the edited page read again',
			() => contentOf(projects),
			(found) => (found.get(edited)?.blocks.length ?? 0) > 100,
		)
		const blocks = content.get(edited)?.blocks ?? []
		expect(blocks).toHaveLength(151)
		expect(blocks[0]).toEqual({ type: 'paragraph', text: [{ text: 'Line 1' }] })
		expect(blocks[149]).toEqual({ type: 'paragraph', text: [{ text: 'Line 150' }] })
		expect(blocks[150]).toEqual({
			type: 'toggle',
			text: [{ text: 'Level 1' }],
			children: [
				{
					type: 'bulleted_list_item',
					text: [{ text: 'Level 2' }],
					children: [{ type: 'paragraph', text: [{ text: 'Level 3' }] }],
				},
			],
		})
		const listed = childrenListed()
		// Two pages of the page's children, then the toggle's and the list item's children.
		expect(listed.filter((id) => id === edited)).toHaveLength(2)
		expect(listed).toHaveLength(4)
		expect(listed.filter((id) => id !== edited && demo.pages.projects.includes(id))).toEqual([])
	})

	test('a row that leaves the mirror loses its content', async () => {
		const { token, projects } = await connected()
		await flag(projects, true)
		await syncNow(token, projects)
		await until(
			'content of every project',
			() => contentOf(projects),
			(found) => found.size === demo.pages.projects.length,
		)
		const gone = demo.pages.projects[3] ?? ''
		const rowId = await rowIdOf(projects, gone)
		fake.trashPage(gone)
		try {
			await syncNow(token, projects)
			expect(await rowIdOf(projects, gone)).toBe('')
			const left = await t.db.select().from(workspaceRowContent).where(eq(workspaceRowContent.rowId, rowId))
			expect(left).toEqual([])
			expect((await contentOf(projects)).size).toBe(demo.pages.projects.length - 1)
		} finally {
			fake.restorePage(gone)
		}
	})

	test('an expired hosted file URL is renewed from Notion, kept for the next visitor; other rows and organizations get 404', async () => {
		const { token, projects, orgId } = await connected()
		const page = demo.pages.projects[4] ?? ''
		// Read two hours ago: the file's signed URL expired an hour ago.
		fake.setClock(Date.now() - 2 * HOUR)
		fake.setPageContent(page, [
			paragraph('Attached'),
			{ type: 'file', file: { file: { name: 'plan.txt', content: 'the plan' } } },
			{ type: 'file', file: { external: { url: 'https://files.example.com/terms.pdf' } } },
		])
		await flag(projects, true)
		await syncNow(token, projects)
		const content = await until(
			'the page with a file',
			() => contentOf(projects),
			(found) => (found.get(page)?.blocks.length ?? 0) === 3,
		)
		fake.useRealClock()
		const { rowId, blocks } = content.get(page) ?? { rowId: '', blocks: [] }
		const [, hostedFile, external] = blocks
		expect(external).toEqual({ type: 'file', url: 'https://files.example.com/terms.pdf', name: 'terms.pdf' })
		expect(Date.parse(hostedFile?.hosted?.expiresAt ?? '')).toBeLessThan(Date.now())
		const blockId = hostedFile?.fileRef?.blockId ?? ''
		expect((await fetch(hostedFile?.hosted?.url ?? '')).status).toBe(403)

		const deps = t.services.workspaces.deps
		fake.resetRequests()
		const fresh = await contentFileUrl(deps, orgId, rowId, blockId)
		expect(fresh.name).toBe('plan.txt')
		expect(fresh.url).not.toBe(hostedFile?.hosted?.url)
		expect(Date.parse(fresh.expiresAt)).toBeGreaterThan(Date.now() + 30 * 60_000)
		expect(await (await fetch(fresh.url)).text()).toBe('the plan')
		expect(fake.requestCount('GET', '/v1/blocks/:id')).toBe(1)
		// Kept: the next visitor gets it without asking Notion.
		fake.resetRequests()
		expect((await contentFileUrl(deps, orgId, rowId, blockId)).url).toBe(fresh.url)
		expect(fake.requests()).toHaveLength(0)

		const code = (promise: Promise<unknown>) =>
			promise.then(
				() => 'found',
				(error: AppError) => error.code,
			)
		expect(await code(contentFileUrl(deps, 'another-org', rowId, blockId))).toBe('NOT_FOUND')
		const otherRow = (await contentOf(projects)).get(demo.pages.projects[0] ?? '')?.rowId ?? ''
		expect(await code(contentFileUrl(deps, orgId, otherRow, blockId))).toBe('NOT_FOUND')
		expect(await code(contentFileUrl(deps, orgId, rowId, 'no-such-block'))).toBe('NOT_FOUND')
		expect(
			await t.db
				.select()
				.from(workspaceRowContent)
				.where(inArray(workspaceRowContent.rowId, [rowId])),
		).toHaveLength(1)
	})
})
