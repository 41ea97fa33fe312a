import { randomUUID } from 'node:crypto'
import { readdirSync } from 'node:fs'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import Papa from 'papaparse'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { accounts, invitations, members, organizations } from '#src/core/auth/auth.schema.ts'
import { createGate, finishedExport, openLink, readArchive } from '#src/test/exports.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { until } from '#src/test/until.ts'
import { workspaceDatabases, workspaceRows, workspaces } from '#src/workspaces/workspaces.schema.ts'
import { organizationExports } from './exports.schema.ts'

// The organization export from start to download: a job builds one ZIP (the organization, its
// members and pending invitations, every database as CSV and schema, local and mirrored), the
// progress moves step by step, the member who asked gets an e-mail whose link downloads the
// archive without a session, and the manifest lists what the database holds. A part that fails
// fails the export with a sentence and leaves no file behind.

let t: TestApp
const gate = createGate()
let failFor: string | null = null
let tempSeen: string[] = []

beforeAll(async () => {
	t = await createTestApp()
	t.services.exports.register(gate.part)
	t.services.exports.register({
		label: 'A part that breaks',
		run: async ({ organizationId }) => {
			if (organizationId === failFor) {
				tempSeen = readdirSync(tempDir())
				throw new Error('disk on fire: /secret/path')
			}
		},
	})
})
afterAll(async () => {
	await t.close()
})

const tempDir = () => path.join(t.dataDir, 'tmp')
const sorted = (ids: string[]) => [...ids].sort()

async function orgOf(token: string): Promise<string> {
	const details = await t.request('GET', '/dashboard/users/get_org_details', { token })
	return details.body.id as string
}

/** A Notion workspace mirrored into the organization: its credentials must never reach the archive. */
async function mirroredNotionDatabase(orgId: string) {
	const workspaceId = randomUUID()
	const databaseId = randomUUID()
	const credentials = `sealed-notion-credentials-${randomUUID()}`
	await t.db.insert(workspaces).values({
		id: workspaceId,
		organizationId: orgId,
		tool: 'notion',
		name: 'Acme Notion',
		externalId: randomUUID(),
		credentials,
	})
	await t.db.insert(workspaceDatabases).values({
		id: databaseId,
		organizationId: orgId,
		workspaceId,
		externalId: randomUUID(),
		// The same name as a local database: the paths keep both apart by id.
		name: 'Clients',
		properties: [{ id: 'title', name: 'Name', type: 'title' }],
	})
	const now = new Date()
	await t.db.insert(workspaceRows).values(
		['Mirrored Ltd', 'Notion Co'].map((title) => ({
			id: randomUUID(),
			organizationId: orgId,
			databaseId,
			externalId: randomUUID(),
			values: { title },
			title,
			createdTime: now,
			lastEditedTime: now,
		})),
	)
	return { databaseId, credentials }
}

describe('an export', () => {
	test('is built step by step, mailed, downloaded without a session, and holds what the database holds', async () => {
		const owner = await t.signUp({ name: 'Olive Owner' })
		const orgId = await orgOf(owner.token)
		const sample = await t.request('POST', '/dashboard/workspaces/sample', { token: owner.token })
		expect(sample.status).toBe(201)
		const invited = await t.request('POST', '/dashboard/team_invites', {
			token: owner.token,
			json: { email: 'pending@example.com', role: 'admin' },
		})
		expect(invited.status).toBe(201)
		const notion = await mirroredNotionDatabase(orgId)

		gate.arm(orgId)
		const started = await t.request('POST', '/dashboard/exports', { token: owner.token })
		expect(started.status).toBe(202)
		expect(started.body).toMatchObject({
			status: 'queued',
			requestedBy: { name: 'Olive Owner', email: owner.email },
			downloadUrl: null,
			expiresAt: null,
		})
		const total = started.body.progress.total as number
		// The core's two parts, the gate, the breaking part, and whatever features registered.
		expect(total).toBe(t.services.exports.deps.contributors.length)
		const gateStep = t.services.exports.deps.contributors.indexOf(gate.part)

		const running = await until(
			'the export to reach the gate',
			() => t.request('GET', `/dashboard/exports/${started.body.id}`, { token: owner.token }),
			(response) => response.body.progress?.step === gate.part.label,
		)
		expect(running.body).toMatchObject({ status: 'running', progress: { done: gateStep, total } })
		expect(gateStep).toBeGreaterThanOrEqual(2)
		gate.release()

		const ready = await finishedExport(t, owner.token, started.body.id)
		expect(ready).toMatchObject({ status: 'ready', error: null, progress: { done: total, total, step: null } })
		const expiresIn = new Date(ready.expiresAt as string).getTime() - Date.now()
		expect(expiresIn).toBeGreaterThan((t.config.exports.linkDays - 0.01) * 86_400_000)
		expect(expiresIn).toBeLessThanOrEqual(t.config.exports.linkDays * 86_400_000)
		expect(ready.downloadUrl).toMatch(
			new RegExp(`^http://localhost:3000/api/exports/${ready.id}/download\\?token=[A-Za-z0-9_-]{43}$`),
		)

		const mail = await t.waitForMail(owner.email, /Your export of .+ is ready/)
		expect(mail.text).toContain('Hello Olive Owner')
		expect(mail.text).toContain(`${(ready.expiresAt as string).slice(0, 16).replace('T', ' ')} UTC`)
		expect(mail.links).toContain(ready.downloadUrl)

		// The link as a browser opens it: no session, asking for compression it does not get.
		const download = await openLink(t, ready.downloadUrl as string, { 'accept-encoding': 'gzip, br' })
		expect(download.status).toBe(200)
		const [organization] = await t.db.select().from(organizations).where(eq(organizations.id, orgId))
		const day = new Date().toISOString().slice(0, 10)
		expect(Object.fromEntries(download.headers)).toMatchObject({
			'content-type': 'application/zip',
			'content-disposition': `attachment; filename="${organization?.slug}-export-${day}.zip"`,
			'cache-control': 'private, no-store',
			'content-length': String(ready.byteSize),
		})
		expect(download.headers.get('content-encoding')).toBeNull()
		expect(download.bytes.byteLength).toBe(ready.byteSize)

		const { files, manifest } = await readArchive(download.bytes)
		// The manifest last, listing every other file.
		expect([...files.keys()].at(-1)).toBe('manifest.json')
		expect(sorted(manifest.files)).toEqual(sorted([...files.keys()].filter((name) => name !== 'manifest.json')))
		expect(manifest.organization).toEqual({ id: orgId, name: organization?.name, slug: organization?.slug })

		// Every object, checked against the database.
		const memberIds = await t.db.select({ id: members.id }).from(members).where(eq(members.organizationId, orgId))
		const pendingIds = await t.db
			.select({ id: invitations.id })
			.from(invitations)
			.where(and(eq(invitations.organizationId, orgId), eq(invitations.status, 'pending')))
		const databaseIds = await t.db
			.select({ id: workspaceDatabases.id })
			.from(workspaceDatabases)
			.where(eq(workspaceDatabases.organizationId, orgId))
		const rowIds = await t.db
			.select({ id: workspaceRows.id })
			.from(workspaceRows)
			.where(eq(workspaceRows.organizationId, orgId))
		expect(manifest.objects.organization).toEqual([orgId])
		expect(sorted(manifest.objects.members ?? [])).toEqual(sorted(memberIds.map((row) => row.id)))
		expect(pendingIds).toHaveLength(1)
		expect(manifest.objects.invitations).toEqual(pendingIds.map((row) => row.id))
		expect(databaseIds.length).toBeGreaterThan(3)
		expect(sorted(manifest.objects.databases ?? [])).toEqual(sorted(databaseIds.map((row) => row.id)))
		expect(rowIds.length).toBeGreaterThan(20)
		expect(sorted(manifest.objects.rows ?? [])).toEqual(sorted(rowIds.map((row) => row.id)))

		expect(JSON.parse(String(files.get('organization.json')))).toMatchObject({ id: orgId, slug: organization?.slug })
		expect(JSON.parse(String(files.get('members.json')))).toEqual([
			expect.objectContaining({ name: 'Olive Owner', email: owner.email, role: 'owner' }),
		])
		expect(JSON.parse(String(files.get('invitations.json')))).toEqual([
			expect.objectContaining({ email: 'pending@example.com', role: 'admin', invitedBy: 'Olive Owner' }),
		])
		const membersCsv = Papa.parse<string[]>(String(files.get('members.csv')).replace(/^\uFEFF/, ''), {
			skipEmptyLines: true,
		}).data
		expect(membersCsv).toEqual([
			['Name', 'E-mail', 'Role', 'Joined'],
			['Olive Owner', owner.email, 'owner', expect.stringMatching(/^\d{4}-\d\d-\d\dT/)],
		])

		// A local database's CSV holds its rows (titles from SQL), and its schema file its properties.
		const [clients] = await t.db
			.select()
			.from(workspaceDatabases)
			.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
			.where(
				and(
					eq(workspaceDatabases.organizationId, orgId),
					eq(workspaces.tool, 'local'),
					eq(workspaceDatabases.name, 'Clients'),
				),
			)
		const localId = clients?.workspace_databases.id as string
		const csv = files.get(`databases/Clients-${localId}.csv`)
		expect(csv, `databases/Clients-${localId}.csv among ${[...files.keys()].join(', ')}`).toBeDefined()
		const table = Papa.parse<Record<string, string>>(String(csv).replace(/^\uFEFF/, ''), {
			header: true,
			skipEmptyLines: true,
		}).data
		const titleProperty = clients?.workspace_databases.properties.find((p) => p.type === 'title')
		const titles = await t.db
			.select({ title: workspaceRows.title })
			.from(workspaceRows)
			.where(eq(workspaceRows.databaseId, localId))
		expect(titles.length).toBeGreaterThan(1)
		expect(sorted(table.map((row) => row[titleProperty?.name as string] as string))).toEqual(
			sorted(titles.map((row) => row.title)),
		)
		const schema = JSON.parse(String(files.get(`databases/Clients-${localId}.json`)))
		expect(schema).toMatchObject({ id: localId, tool: 'local', name: 'Clients' })
		expect(schema.properties).toEqual(clients?.workspace_databases.properties)

		// The mirrored Notion database, of the same name, beside it; its token nowhere.
		const mirrored = String(files.get(`databases/Clients-${notion.databaseId}.csv`))
		expect(mirrored).toContain('Mirrored Ltd')
		expect(mirrored).toContain('Notion Co')
		const everything = [...files.values()].map((bytes) => bytes.toString('latin1')).join('\n')
		expect(everything).not.toContain(notion.credentials)
		const [password] = await t.db
			.select({ hash: accounts.password })
			.from(accounts)
			.where(eq(accounts.userId, owner.userId))
		expect(password?.hash?.length).toBeGreaterThan(20)
		expect(everything).not.toContain(password?.hash)

		// Stored under the organization's prefix; the temporary file is gone.
		const [record] = await t.db.select().from(organizationExports).where(eq(organizationExports.id, ready.id))
		expect(record?.storageKey).toBe(`exports/${orgId}/${ready.id}`)
		expect((await t.services.storage.get(`exports/${orgId}/${ready.id}`))?.byteSize).toBe(ready.byteSize)
		expect(readdirSync(tempDir()).filter((name) => name.includes(ready.id))).toEqual([])

		const list = await t.request('GET', '/dashboard/exports', { token: owner.token })
		expect(list.status).toBe(200)
		expect(list.body.exports).toEqual([expect.objectContaining({ id: ready.id, status: 'ready' })])
	})

	test('a part that throws fails the export with a sentence, keeps no file, and a new export may start', async () => {
		const owner = await t.signUp()
		const orgId = await orgOf(owner.token)
		failFor = orgId
		const started = await t.request('POST', '/dashboard/exports', { token: owner.token })
		expect(started.status).toBe(202)
		const failed = await finishedExport(t, owner.token, started.body.id)
		failFor = null
		expect(failed).toMatchObject({ status: 'failed', downloadUrl: null, expiresAt: null, byteSize: null })
		expect(failed.error).toContain('A part that breaks')
		expect(failed.error).not.toContain('/secret/path')
		// The archive was being written while the part ran; nothing of it is left.
		expect(tempSeen.filter((name) => name.startsWith(`export-${failed.id}-`))).toHaveLength(1)
		expect(readdirSync(tempDir()).filter((name) => name.includes(failed.id))).toEqual([])
		expect(await t.services.storage.get(`exports/${orgId}/${failed.id}`)).toBeNull()

		const again = await t.request('POST', '/dashboard/exports', { token: owner.token })
		expect(again.status).toBe(202)
		expect((await finishedExport(t, owner.token, again.body.id)).status).toBe('ready')
	})
})
