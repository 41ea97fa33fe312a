import { createHash, randomUUID } from 'node:crypto'
import { and, count, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invitations } from '#src/core/auth/auth.schema.ts'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import type { Db } from '#src/db/client.ts'
import { chartDashboards, charts } from '#src/features/charts/charts.schema.ts'
import { formSubmissions, forms } from '#src/features/forms/forms.schema.ts'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { publishedEnquiryForm } from '#src/test/forms.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { workspaces } from '#src/workspaces/workspaces.schema.ts'

// Each limit a module meters, reached on the small Starter plan (2 members, 2 workspaces,
// 5 forms, 1,000 answers a month, 1 GB, 10 charts, 2 dashboards): the next creation is refused
// with 402 PLAN_LIMIT_REACHED naming the limit, and nothing is made. A paused organization
// makes nothing at all (402 SUBSCRIPTION_INACTIVE).

const gigabyte = 1024 ** 3
let t: TestApp
let notion: Awaited<ReturnType<typeof createFakeNotion>>

beforeAll(async () => {
	notion = await createFakeNotion()
	t = await createTestApp({
		BILLING_TRIAL_PLAN: 'starter',
		FORM_MIN_FILL_SECONDS: '0',
		NOTION_API_BASE_URL: notion.url,
	})
})
afterAll(async () => {
	await t?.close()
	await notion?.close()
})

type Response = Awaited<ReturnType<TestApp['request']>>
type Database = { id: string; name: string }

function expectLimit(response: Response, key: string, used: number, allowed: number) {
	expect(response.status, JSON.stringify(response.body)).toBe(402)
	expect(response.body).toMatchObject({
		code: 'PLAN_LIMIT_REACHED',
		limit: { key, used, allowed, planId: 'starter', planName: 'Starter' },
	})
	expect(response.body.detail).toMatch(/Starter plan/)
}

async function orgOf(token: string): Promise<string> {
	const details = await t.request('GET', '/dashboard/users/get_org_details', { token })
	return details.body.id as string
}

async function countOf(
	db: Db,
	table: typeof forms | typeof charts | typeof chartDashboards | typeof workspaces,
	orgId: string,
) {
	const [row] = await db.select({ count: count() }).from(table).where(eq(table.organizationId, orgId))
	return row?.count ?? 0
}

/** A new account with the sample workspace (its first workspace), and the sample's databases. */
async function accountWithSample() {
	const account = await t.signUp()
	const sample = await t.request('POST', '/dashboard/workspaces/sample', { token: account.token })
	expect(sample.status).toBe(201)
	const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${sample.body.workspace.id}`, {
		token: account.token,
	})
	const databases = list.body as Database[]
	return { ...account, orgId: await orgOf(account.token), databases }
}

describe('members', () => {
	test('a pending invitation holds the second seat; the third is refused and no invitation is made', async () => {
		const owner = await t.signUp()
		const orgId = await orgOf(owner.token)
		const first = await t.request('POST', '/dashboard/team_invites', {
			token: owner.token,
			json: { email: `mate-${randomUUID()}@example.com`, role: 'member' },
		})
		expect(first.status, JSON.stringify(first.body)).toBe(201)
		const second = await t.request('POST', '/dashboard/team_invites', {
			token: owner.token,
			json: { email: `other-${randomUUID()}@example.com`, role: 'member' },
		})
		expectLimit(second, 'members', 2, 2)
		const [pending] = await t.db
			.select({ count: count() })
			.from(invitations)
			.where(and(eq(invitations.organizationId, orgId), eq(invitations.status, 'pending')))
		expect(pending?.count).toBe(1)
	})
})

describe('workspaces', () => {
	test('built-in and sample workspaces count; the third is refused either way', async () => {
		const account = await accountWithSample()
		const second = await t.request('POST', '/dashboard/workspaces', {
			token: account.token,
			json: { tool: 'local', name: 'Clients' },
		})
		expect(second.status).toBe(201)
		expectLimit(
			await t.request('POST', '/dashboard/workspaces', { token: account.token, json: { tool: 'local', name: 'More' } }),
			'workspaces',
			2,
			2,
		)
		expectLimit(await t.request('POST', '/dashboard/workspaces/sample', { token: account.token }), 'workspaces', 2, 2)
		expect(await countOf(t.db, workspaces, account.orgId)).toBe(2)

		// Room again once one is removed.
		const removed = await t.request('DELETE', `/dashboard/workspaces/${second.body.workspace.id}`, {
			token: account.token,
		})
		expect(removed.status).toBe(200)
		const again = await t.request('POST', '/dashboard/workspaces', {
			token: account.token,
			json: { tool: 'local', name: 'Again' },
		})
		expect(again.status).toBe(201)
	})

	test('a new Notion workspace counts too; connecting one already there again takes no room', async () => {
		const connect = (token: string) =>
			t.request('POST', '/dashboard/workspaces', {
				token,
				json: { tool: 'notion', method: 'token', token: notion.token },
			})
		const full = await accountWithSample()
		await t.request('POST', '/dashboard/workspaces', { token: full.token, json: { tool: 'local', name: 'Second' } })
		expectLimit(await connect(full.token), 'workspaces', 2, 2)
		expect(await countOf(t.db, workspaces, full.orgId)).toBe(2)

		const withNotion = await accountWithSample()
		expect((await connect(withNotion.token)).status).toBe(201)
		expect((await connect(withNotion.token)).status).toBe(201)
		expect(await countOf(t.db, workspaces, withNotion.orgId)).toBe(2)
	})
})

describe('forms', () => {
	test('the sixth form is refused, created or duplicated; a deleted form frees its place', async () => {
		const account = await accountWithSample()
		const database = account.databases[0] as Database
		const ids: string[] = []
		for (let index = 0; index < 5; index++) {
			const created = await t.request('POST', '/dashboard/forms', {
				token: account.token,
				json: { name: `Form ${index}`, databaseId: database.id },
			})
			expect(created.status).toBe(201)
			ids.push(created.body.id)
		}
		const sixth = await t.request('POST', '/dashboard/forms', {
			token: account.token,
			json: { name: 'Form 6', databaseId: database.id },
		})
		expectLimit(sixth, 'forms', 5, 5)
		expectLimit(
			await t.request('POST', `/dashboard/forms/${ids[0]}/duplicate`, { token: account.token }),
			'forms',
			5,
			5,
		)
		expect(await countOf(t.db, forms, account.orgId)).toBe(5)

		const deleted = await t.request('DELETE', `/dashboard/forms/${ids[0]}`, { token: account.token })
		expect(deleted.status).toBe(200)
		const copy = await t.request('POST', `/dashboard/forms/${ids[1]}/duplicate`, { token: account.token })
		expect(copy.status).toBe(201)
	})
})

describe('answers a month', () => {
	test('1,000 answers this month (spam and last month not counted) close the form on its public read', async () => {
		const account = await t.signUp()
		const orgId = await orgOf(account.token)
		const { form } = await publishedEnquiryForm(t, account.token, { closedMessage: 'Not taking answers now.' })
		const insert = (rows: number, extra: { spam?: boolean; createdAt?: string } = {}) =>
			t.db.execute(sql`
				insert into ${formSubmissions} (id, organization_id, form_id, idempotency_key, answers, spam, created_at)
				select gen_random_uuid()::text, ${orgId}, ${form.id}, gen_random_uuid()::text, '{}'::jsonb,
					${extra.spam ?? false}, ${extra.createdAt ? sql`${extra.createdAt}::timestamptz` : sql`now()`}
				from generate_series(1, ${rows})`)
		const lastMonth = new Date()
		lastMonth.setUTCDate(0)
		await insert(999)
		await insert(20, { spam: true })
		await insert(50, { createdAt: lastMonth.toISOString() })
		const meter = async () => {
			const overview = await t.request('GET', '/api/subscriptions', { token: account.token })
			return overview.body.usage.meters.find((m: { key: string }) => m.key === 'submissionsPerMonth')
		}
		expect(await meter()).toEqual({ key: 'submissionsPerMonth', used: 999, limit: 1000 })

		await insert(1)
		expect(await meter()).toEqual({ key: 'submissionsPerMonth', used: 1000, limit: 1000 })
		const page = await t.request('GET', `/api/forms/${form.id}`)
		expect(page.status).toBe(200)
		expect(page.body).toMatchObject({ acceptingResponses: false, closedMessage: 'Not taking answers now.' })
	})

	test('the count reads the index of the organization’s answers by month', async () => {
		const plan = await t.db.transaction(async (tx) => {
			// The tables are small here: forbid the sequential scan to see whether the index can serve.
			await tx.execute(sql`set local enable_seqscan = off`)
			return tx.execute(sql`
				explain select count(*) from ${formSubmissions}
				where organization_id = 'org' and created_at >= now() - interval '1 month' and created_at < now()
					and ${formSubmissions.spam} = false`)
		})
		expect(JSON.stringify(plan)).toContain('form_submissions_organization_month_idx')
	})
})

describe('file storage', () => {
	const md5 = (text: string) => createHash('md5').update(text).digest('base64')
	const announce = (token: string, byteSize: number) =>
		t.request('POST', '/dashboard/active_storage/direct_uploads', {
			token,
			json: { filename: 'notes.txt', byteSize, checksum: md5('x'), contentType: 'text/plain' },
		})

	test('an upload that would pass 1 GB is refused; files being uploaded count', async () => {
		const account = await t.signUp()
		const orgId = await orgOf(account.token)
		// Files kept already (written as uploads leave them; a gigabyte is not sent in a test).
		await t.db.insert(blobs).values({
			id: randomUUID(),
			organizationId: orgId,
			key: `${orgId}/${randomUUID()}`,
			filename: 'archive.zip',
			contentType: 'application/zip',
			byteSize: gigabyte - 100,
			checksum: md5('archive'),
			status: 'uploaded',
		})
		// A visitor's upload no answer took is swept, not kept: it does not count.
		await t.db.insert(blobs).values({
			id: randomUUID(),
			organizationId: orgId,
			key: `${orgId}/${randomUUID()}`,
			filename: 'stray.pdf',
			contentType: 'application/pdf',
			byteSize: 5000,
			checksum: md5('stray'),
			status: 'uploaded',
			scope: 'form:some-form/some-field',
		})
		const before = await t.db.select({ count: count() }).from(blobs).where(eq(blobs.organizationId, orgId))

		expectLimit(await announce(account.token, 101), 'fileStorageBytes', gigabyte - 100, gigabyte)
		const fits = await announce(account.token, 100)
		expect(fits.status, JSON.stringify(fits.body)).toBe(200)
		// Announced and not uploaded yet, it holds its room while its upload link works.
		expectLimit(await announce(account.token, 1), 'fileStorageBytes', gigabyte, gigabyte)
		const after = await t.db.select({ count: count() }).from(blobs).where(eq(blobs.organizationId, orgId))
		expect(after[0]?.count).toBe((before[0]?.count ?? 0) + 1)
	})
})

describe('charts and dashboards', () => {
	test('the eleventh chart is refused, created or duplicated', async () => {
		const account = await accountWithSample()
		const database = account.databases[0] as Database
		const ids: string[] = []
		for (let index = 0; index < 10; index++) {
			const created = await t.request('POST', '/dashboard/local_charts/charts', {
				token: account.token,
				json: { name: `Chart ${index}`, databaseId: database.id },
			})
			expect(created.status).toBe(201)
			ids.push(created.body.id)
		}
		expectLimit(
			await t.request('POST', '/dashboard/local_charts/charts', {
				token: account.token,
				json: { name: 'One more', databaseId: database.id },
			}),
			'charts',
			10,
			10,
		)
		expectLimit(
			await t.request('POST', `/dashboard/local_charts/charts/${ids[0]}/duplicate`, { token: account.token }),
			'charts',
			10,
			10,
		)
		expect(await countOf(t.db, charts, account.orgId)).toBe(10)
	})

	test('the third dashboard is refused', async () => {
		const account = await t.signUp()
		const orgId = await orgOf(account.token)
		for (const name of ['Sales', 'Work']) {
			const created = await t.request('POST', '/dashboard/charts/dashboards', { token: account.token, json: { name } })
			expect(created.status).toBe(201)
		}
		expectLimit(
			await t.request('POST', '/dashboard/charts/dashboards', { token: account.token, json: { name: 'More' } }),
			'dashboards',
			2,
			2,
		)
		expect(await countOf(t.db, chartDashboards, orgId)).toBe(2)
	})
})

describe('a paused organization', () => {
	test('makes nothing new: 402 SUBSCRIPTION_INACTIVE, whatever the room left', async () => {
		const account = await t.signUp()
		const orgId = await orgOf(account.token)
		for (const path of ['/api/subscriptions/end_trial_and_bill', '/api/subscriptions/pause_subscription']) {
			const acted = await t.request('POST', path, { token: account.token, json: {} })
			expect(acted.status, JSON.stringify(acted.body)).toBe(200)
		}
		const refused = [
			await t.request('POST', '/dashboard/workspaces', { token: account.token, json: { tool: 'local', name: 'New' } }),
			await t.request('POST', '/dashboard/workspaces/sample', { token: account.token }),
			await t.request('POST', '/dashboard/charts/dashboards', { token: account.token, json: { name: 'New' } }),
		]
		for (const response of refused) {
			expect(response.status).toBe(402)
			expect(response.body.code).toBe('SUBSCRIPTION_INACTIVE')
			expect(response.body.limit).toBeUndefined()
		}
		expect(await countOf(t.db, workspaces, orgId)).toBe(0)
		expect(await countOf(t.db, chartDashboards, orgId)).toBe(0)
	})
})
