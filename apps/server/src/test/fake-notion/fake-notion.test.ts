import type { PageObjectResponse, QueryDataSourceResponse } from '@notionhq/client'
import {
	APIResponseError,
	Client,
	collectAllDataSourceRows,
	collectPaginatedAPI,
	isFullPage,
	LogLevel,
	verifyWebhookSignature,
} from '@notionhq/client'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { controlFakeNotion, createFakeNotion, type FakeNotion } from './fake-notion.ts'
import type { DemoWorkspace } from './seed.ts'

let fake: FakeNotion
let notion: Client
let demo: DemoWorkspace

/** An SDK client for the fake; expected failures would otherwise log warnings. */
function sdk(options: ConstructorParameters<typeof Client>[0] = {}): Client {
	return new Client({ auth: fake.token, baseUrl: fake.url, retry: false, logLevel: LogLevel.ERROR, ...options })
}

beforeAll(async () => {
	fake = await createFakeNotion({ queryResultLimit: 250 })
	demo = fake.seed()
	notion = sdk()
})

afterAll(async () => {
	await fake.close()
})

beforeEach(() => {
	fake.clearFaults()
	fake.setQueryResultLimit(250)
	fake.useRealClock()
})

async function apiError(promise: Promise<unknown>): Promise<APIResponseError> {
	try {
		await promise
	} catch (error) {
		if (error instanceof APIResponseError) {
			return error
		}
		throw error
	}
	throw new Error('expected the request to fail')
}

function title(content: string) {
	return { title: [{ text: { content } }] }
}

function pages(response: QueryDataSourceResponse): PageObjectResponse[] {
	return response.results.filter(isFullPage)
}

function titleOf(page: PageObjectResponse): string {
	const property = page.properties.Name
	return property?.type === 'title' ? property.title.map((item) => item.plain_text).join('') : ''
}

describe('discovery', () => {
	it('search finds data sources by title and pages through results', async () => {
		const all = await collectPaginatedAPI(notion.search, {
			filter: { property: 'object', value: 'data_source' },
			page_size: 3,
		})
		expect(all.map((result) => result.object)).toEqual(['data_source', 'data_source', 'data_source', 'data_source'])
		const found = await notion.search({ query: 'invo', filter: { property: 'object', value: 'data_source' } })
		expect(found.results).toHaveLength(1)
		expect(found.results[0]?.id).toBe(demo.dataSources.invoices)
		const pagesFound = await notion.search({ query: 'Acme', filter: { property: 'object', value: 'page' } })
		expect(pagesFound.results.map((result) => result.id)).toEqual([demo.pages.clients[0]])
	})

	it('retrieves the database container and the data source schema', async () => {
		const database = await notion.databases.retrieve({ database_id: demo.databases.invoices })
		expect(database).toMatchObject({
			object: 'database',
			data_sources: [{ id: demo.dataSources.invoices, name: 'Invoices' }],
		})
		const dataSource = await notion.dataSources.retrieve({ data_source_id: demo.dataSources.invoices })
		expect(dataSource.object).toBe('data_source')
		if (!('properties' in dataSource)) {
			throw new Error('expected a full data source')
		}
		expect(dataSource.properties.Name).toMatchObject({ id: 'title', type: 'title' })
		expect(dataSource.properties.Client).toMatchObject({
			type: 'relation',
			relation: { data_source_id: demo.dataSources.clients, type: 'dual_property' },
		})
		expect(dataSource.properties.Hours).toMatchObject({ type: 'rollup', rollup: { function: 'sum' } })
		expect(dataSource.properties['Invoice #']).toMatchObject({ type: 'unique_id', unique_id: { prefix: 'INV' } })
	})

	it('rejects unknown tokens with 401 unauthorized and unknown ids with 404', async () => {
		const stranger = sdk({ auth: 'nope' })
		const unauthorized = await apiError(stranger.users.me({}))
		expect(unauthorized).toMatchObject({ status: 401, code: 'unauthorized' })
		const missing = await apiError(notion.pages.retrieve({ page_id: '00000000-0000-4000-8000-000000000000' }))
		expect(missing).toMatchObject({ status: 404, code: 'object_not_found' })
	})

	it('lists users with pagination and returns the bot for users/me', async () => {
		const users = await collectPaginatedAPI(notion.users.list, { page_size: 2 })
		expect(users.map((user) => user.name)).toEqual(
			expect.arrayContaining(['Fake Integration', 'Ada Lovelace', 'Grace Hopper', 'Alan Turing']),
		)
		const me = await notion.users.me({})
		expect(me).toMatchObject({ id: fake.botId, type: 'bot', bot: { workspace_name: fake.workspace.name } })
	})
})

describe('querying', () => {
	let dataSourceId: string

	beforeAll(() => {
		dataSourceId = String(fake.addDataSource({ title: 'Paged', properties: { Name: { title: {} } } }).id)
		fake.addPages(dataSourceId, 230)
	})

	it('pages with cursors, newest first by default', async () => {
		const first = await notion.dataSources.query({ data_source_id: dataSourceId })
		expect(first.results).toHaveLength(100)
		expect(first.has_more).toBe(true)
		expect(first.request_status).toEqual({ type: 'complete' })
		expect(titleOf(pages(first)[0] as PageObjectResponse)).toBe('Row 230')
		const second = await notion.dataSources.query({
			data_source_id: dataSourceId,
			start_cursor: first.next_cursor ?? '',
		})
		const third = await notion.dataSources.query({
			data_source_id: dataSourceId,
			start_cursor: second.next_cursor ?? '',
		})
		expect(third.results).toHaveLength(30)
		expect(third).toMatchObject({ has_more: false, next_cursor: null })
		const ids = new Set([...first.results, ...second.results, ...third.results].map((row) => row.id))
		expect(ids.size).toBe(230)
	})

	it('caps one query at queryResultLimit and says it is incomplete on every page', async () => {
		fake.setQueryResultLimit(150)
		const first = await notion.dataSources.query({ data_source_id: dataSourceId })
		// Notion marks every page of a capped query, from the first (guides/data-apis/query-large-data-sources).
		expect(first).toMatchObject({
			has_more: true,
			request_status: { type: 'incomplete', incomplete_reason: 'query_result_limit_reached' },
		})
		const end = await notion.dataSources.query({ data_source_id: dataSourceId, start_cursor: first.next_cursor ?? '' })
		expect(end.results).toHaveLength(50)
		expect(end).toMatchObject({
			has_more: false,
			next_cursor: null,
			request_status: { type: 'incomplete', incomplete_reason: 'query_result_limit_reached' },
		})
		fake.setQueryResultLimit(230)
		const exact = await collectPaginatedAPI(notion.dataSources.query, { data_source_id: dataSourceId })
		expect(exact).toHaveLength(230)
	})

	it('lets iterateAllDataSourceRows read 10,050 rows exactly once past the cap', async () => {
		const big = String(fake.addDataSource({ title: 'Big', properties: { Name: { title: {} } } }).id)
		const started = performance.now()
		const created = fake.addPages(big, 10_050)
		expect(performance.now() - started).toBeLessThan(3000)
		const rows = await collectAllDataSourceRows(notion, { data_source_id: big })
		expect(rows).toHaveLength(10_050)
		expect(new Set(rows.map((row) => row.id))).toEqual(new Set(created))

		fake.setQueryResultLimit(10_000)
		const capped = await collectPaginatedAPI(notion.dataSources.query, { data_source_id: big })
		expect(capped).toHaveLength(10_000)
		const all = await collectAllDataSourceRows(notion, { data_source_id: big })
		expect(all).toHaveLength(10_050)
		expect(new Set(all.map((row) => row.id)).size).toBe(10_050)
	})

	it('filters on created_time and last_edited_time and sorts by timestamps', async () => {
		const timed = String(fake.addDataSource({ title: 'Timed', properties: { Name: { title: {} } } }).id)
		fake.setClock('2026-03-01T12:00:00.000Z')
		const ids: string[] = []
		for (const name of ['a', 'b', 'c']) {
			const page = await notion.pages.create({ parent: { data_source_id: timed }, properties: { Name: title(name) } })
			ids.push(page.id)
			fake.advanceClock(60_000)
		}
		const created = async (condition: Record<string, string>) => {
			const response = await notion.dataSources.query({
				data_source_id: timed,
				filter: { timestamp: 'created_time', created_time: condition } as never,
				sorts: [{ timestamp: 'created_time', direction: 'ascending' }],
			})
			return pages(response).map(titleOf)
		}
		const middle = '2026-03-01T12:01:00.000Z'
		expect(await created({ on_or_after: middle })).toEqual(['b', 'c'])
		expect(await created({ after: middle })).toEqual(['c'])
		expect(await created({ before: middle })).toEqual(['a'])
		expect(await created({ on_or_before: middle })).toEqual(['a', 'b'])
		expect(await created({ equals: middle })).toEqual(['b'])
		expect(await created({ on_or_after: '2026-03-01' })).toEqual(['a', 'b', 'c'])
		expect(await created({ after: '2026-03-01' })).toEqual([])

		fake.setClock('2026-03-01T13:00:00.000Z')
		await notion.pages.update({ page_id: ids[0] ?? '', properties: { Name: title('a2') } })
		const edited = await notion.dataSources.query({
			data_source_id: timed,
			filter: { timestamp: 'last_edited_time', last_edited_time: { after: '2026-03-01T12:30:00.000Z' } },
		})
		expect(pages(edited).map(titleOf)).toEqual(['a2'])
		const byEdit = await notion.dataSources.query({
			data_source_id: timed,
			sorts: [{ timestamp: 'last_edited_time', direction: 'descending' }],
		})
		expect(pages(byEdit).map(titleOf)).toEqual(['a2', 'c', 'b'])
		expect(pages(byEdit)[0]?.last_edited_time).toBe('2026-03-01T13:00:00.000Z')
	})

	it('filters on property values with compound filters and sorts by property', async () => {
		const paid = await notion.dataSources.query({
			data_source_id: demo.dataSources.invoices,
			filter: { property: 'Status', status: { equals: 'Paid' } },
		})
		expect(pages(paid).map(titleOf).sort()).toEqual(['INV-2026-003', 'INV-2026-006'])
		const compound = await notion.dataSources.query({
			data_source_id: demo.dataSources.invoices,
			filter: {
				or: [
					{ property: 'Amount', number: { greater_than: 3000 } },
					{
						and: [
							{ property: 'Paid', checkbox: { equals: true } },
							{ property: 'Name', title: { contains: '003' } },
						],
					},
				],
			},
			sorts: [{ property: 'Amount', direction: 'ascending' }],
		})
		expect(pages(compound).map(titleOf)).toEqual(['INV-2026-003', 'INV-2026-007', 'INV-2026-008'])
		const clients = await notion.dataSources.query({
			data_source_id: demo.dataSources.clients,
			filter: {
				and: [
					{ property: 'Tags', multi_select: { contains: 'Enterprise' } },
					{ property: 'Country', select: { does_not_equal: 'Germany' } },
				],
			},
		})
		expect(pages(clients).map(titleOf).sort()).toEqual(['Acme Ltd', 'Stark Industries'])
		const noTags = await notion.dataSources.query({
			data_source_id: demo.dataSources.clients,
			filter: { property: 'Tags', multi_select: { is_empty: true } },
		})
		expect(pages(noTags).map(titleOf)).toEqual(['Umbrella Corp'])
		const early = await notion.dataSources.query({
			data_source_id: demo.dataSources.timeEntries,
			filter: { property: 'Date', date: { before: '2026-01-08' } },
		})
		expect(pages(early)).toHaveLength(3)
		const unknown = await apiError(
			notion.dataSources.query({
				data_source_id: demo.dataSources.invoices,
				filter: { property: 'Nope', number: { equals: 1 } },
			}),
		)
		expect(unknown).toMatchObject({ status: 400, code: 'validation_error' })
		expect(unknown.message).toContain('Nope')
	})
})

describe('writing pages', () => {
	it('creates, updates and trashes a page', async () => {
		fake.setClock('2026-04-01T08:00:00.000Z')
		const created = await notion.pages.create({
			parent: { data_source_id: demo.dataSources.invoices },
			properties: {
				Name: title('INV-NEW'),
				Client: { relation: [{ id: demo.pages.clients[1] ?? '' }] },
				Amount: { number: 100 },
				Status: { status: { name: 'Draft' } },
				Issued: { date: { start: '2026-04-01' } },
			},
		})
		if (!isFullPage(created)) {
			throw new Error('expected a full page')
		}
		expect(created.parent).toEqual({
			type: 'data_source_id',
			data_source_id: demo.dataSources.invoices,
			database_id: demo.databases.invoices,
		})
		expect(created.created_time).toBe('2026-04-01T08:00:00.000Z')
		expect(created.properties.Total).toMatchObject({ formula: { type: 'number', number: 121 } })
		expect(created.properties['Invoice #']).toMatchObject({ unique_id: { prefix: 'INV', number: 9 } })
		expect(created.created_by).toEqual({ object: 'user', id: fake.botId })

		const client = await notion.pages.retrieve({ page_id: demo.pages.clients[1] ?? '' })
		expect(isFullPage(client) && client.properties.Invoices).toMatchObject({
			relation: expect.arrayContaining([{ id: created.id }]),
		})

		fake.advanceClock(5 * 60_000)
		const updated = await notion.pages.update({
			page_id: created.id,
			properties: { Amount: { number: 200 }, Status: { status: { name: 'Sent' } } },
		})
		expect(updated).toMatchObject({
			last_edited_time: '2026-04-01T08:05:00.000Z',
			properties: { Amount: { number: 200 }, Status: { status: { name: 'Sent' } } },
		})

		await notion.pages.update({ page_id: created.id, in_trash: true })
		const trashed = await notion.pages.retrieve({ page_id: created.id })
		expect(trashed).toMatchObject({ in_trash: true, archived: true })
		const live = await collectPaginatedAPI(notion.dataSources.query, { data_source_id: demo.dataSources.invoices })
		expect(live.map((row) => row.id)).not.toContain(created.id)
		const bin = await notion.dataSources.query({ data_source_id: demo.dataSources.invoices, in_trash: true })
		expect(bin.results.map((row) => row.id)).toEqual([created.id])
		const locked = await apiError(notion.pages.update({ page_id: created.id, properties: { Amount: { number: 1 } } }))
		expect(locked.code).toBe('validation_error')
		await notion.pages.update({ page_id: created.id, archived: false })
		expect(await notion.pages.retrieve({ page_id: created.id })).toMatchObject({ in_trash: false })
		fake.deletePage(created.id)
		expect(await apiError(notion.pages.retrieve({ page_id: created.id }))).toMatchObject({ code: 'object_not_found' })
	})

	it('adds unknown select options to the schema and accepts a database parent with one data source', async () => {
		const page = await notion.pages.create({
			parent: { database_id: demo.databases.clients },
			properties: { Name: title('New client'), Country: { select: { name: 'Belgium' } } },
		})
		expect(page).toMatchObject({ properties: { Country: { select: { name: 'Belgium' } } } })
		const schema = await notion.dataSources.retrieve({ data_source_id: demo.dataSources.clients })
		expect(JSON.stringify(schema)).toContain('Belgium')
	})

	it('answers Notion-style validation errors that name the property', async () => {
		const create = (properties: Record<string, unknown>) =>
			apiError(
				notion.pages.create({
					parent: { data_source_id: demo.dataSources.invoices },
					properties: properties as never,
				}),
			)
		const wrongType = await create({ Name: { rich_text: [{ text: { content: 'x' } }] } })
		expect(wrongType).toMatchObject({ status: 400, code: 'validation_error', message: 'Name is expected to be title.' })
		const long = await create({ Name: title('x'.repeat(2001)) })
		expect(long.message).toContain('body.properties.Name.title[0].text.content.length should be ≤ `2000`')
		const manyTags = await apiError(
			notion.pages.create({
				parent: { data_source_id: demo.dataSources.clients },
				properties: { Tags: { multi_select: Array.from({ length: 101 }, (_, i) => ({ name: `t${i}` })) } },
			}),
		)
		expect(manyTags.message).toContain('Tags')
		expect((await create({ Status: { status: { name: 'Lost' } } })).message).toContain('Status')
		expect((await create({ Nope: { number: 1 } })).message).toBe('Nope is not a property that exists.')
		expect((await create({ Total: { number: 1 } })).message).toContain('Total')
		expect((await create({ 'Contact email': { email: 'a'.repeat(201) } })).message).toContain('Contact email')
		expect((await create({ Client: { relation: [{ id: demo.pages.projects[0] ?? '' }] } })).message).toContain('Client')
	})

	it('truncates more than 25 relations in page objects and pages through them as property items', async () => {
		const targets = fake.addPages(demo.dataSources.projects, 30, {
			properties: (index) => ({ Name: title(`Extra project ${index}`) }),
		})
		const page = await notion.pages.create({
			parent: { data_source_id: demo.dataSources.clients },
			properties: { Name: title('Big client'), Projects: { relation: targets.map((id) => ({ id })) } },
		})
		expect(page).toMatchObject({ properties: { Projects: { type: 'relation', has_more: true } } })
		const shown = isFullPage(page) ? page.properties.Projects : undefined
		expect(shown?.type === 'relation' && shown.relation).toHaveLength(25)
		const propertyId = shown?.id ?? ''
		const collected: string[] = []
		let cursor: string | undefined
		do {
			const response = await notion.pages.properties.retrieve({
				page_id: page.id,
				property_id: propertyId,
				page_size: 10,
				start_cursor: cursor,
			})
			if (response.object !== 'list') {
				throw new Error('expected a property item list')
			}
			expect(response.property_item).toMatchObject({ type: 'relation', id: propertyId })
			for (const item of response.results) {
				if (item.type === 'relation') {
					collected.push(item.relation.id)
				}
			}
			cursor = response.next_cursor ?? undefined
		} while (cursor)
		expect(collected).toEqual(targets)
		const titleItems = await notion.pages.properties.retrieve({
			page_id: demo.pages.invoices[0] ?? '',
			property_id: 'title',
		})
		expect(titleItems).toMatchObject({
			object: 'list',
			results: [{ type: 'title', title: { plain_text: 'INV-2026-001' } }],
		})
	})

	it('uploads a file and attaches it to a files property', async () => {
		const upload = await notion.fileUploads.create({
			mode: 'single_part',
			filename: 'receipt.txt',
			content_type: 'text/plain',
		})
		expect(upload.status).toBe('pending')
		const early = await apiError(
			notion.pages.update({
				page_id: demo.pages.invoices[1] ?? '',
				properties: { Attachments: { files: [{ file_upload: { id: upload.id } }] } },
			}),
		)
		expect(early.code).toBe('validation_error')
		const sent = await notion.fileUploads.send({
			file_upload_id: upload.id,
			file: { filename: 'receipt.txt', data: new Blob(['paid in full'], { type: 'text/plain' }) },
		})
		expect(sent).toMatchObject({ status: 'uploaded', content_length: 12, filename: 'receipt.txt' })
		const page = await notion.pages.update({
			page_id: demo.pages.invoices[1] ?? '',
			properties: {
				Attachments: {
					files: [
						{ file_upload: { id: upload.id } },
						{ name: 'spec', external: { url: 'https://example.com/spec.pdf' } },
					],
				},
			},
		})
		const files = isFullPage(page) ? page.properties.Attachments : undefined
		if (files?.type !== 'files') {
			throw new Error('expected files')
		}
		expect(files.files[1]).toEqual({
			name: 'spec',
			type: 'external',
			external: { url: 'https://example.com/spec.pdf' },
		})
		const attached = files.files[0]
		if (attached?.type !== 'file') {
			throw new Error('expected an uploaded file')
		}
		expect(attached.name).toBe('receipt.txt')
		expect(await (await fetch(attached.file.url)).text()).toBe('paid in full')
	})
})

describe('oauth', () => {
	it('authorizes at once and exchanges the code with Basic client auth', async () => {
		const authorize = new URL(`${fake.url}/v1/oauth/authorize`)
		authorize.search = new URLSearchParams({
			client_id: fake.oauthClient.clientId,
			response_type: 'code',
			owner: 'user',
			redirect_uri: 'http://localhost:3000/callback',
			state: 'xyz',
		}).toString()
		const redirect = await fetch(authorize, { redirect: 'manual' })
		expect(redirect.status).toBe(302)
		const location = new URL(redirect.headers.get('location') ?? '')
		expect(location.origin + location.pathname).toBe('http://localhost:3000/callback')
		expect(location.searchParams.get('state')).toBe('xyz')
		const code = location.searchParams.get('code') ?? ''

		const wrongSecret = await apiError(
			notion.oauth.token({
				client_id: fake.oauthClient.clientId,
				client_secret: 'wrong',
				grant_type: 'authorization_code',
				code,
				redirect_uri: 'http://localhost:3000/callback',
			}),
		)
		expect(wrongSecret).toMatchObject({ status: 401, code: 'unauthorized' })

		const token = await notion.oauth.token({
			client_id: fake.oauthClient.clientId,
			client_secret: fake.oauthClient.clientSecret,
			grant_type: 'authorization_code',
			code,
			redirect_uri: 'http://localhost:3000/callback',
		})
		expect(token).toMatchObject({
			token_type: 'bearer',
			bot_id: fake.botId,
			workspace_id: fake.workspace.id,
			workspace_name: fake.workspace.name,
			owner: { type: 'user', user: { id: demo.users.ada, person: { email: 'ada@example.com' } } },
			duplicated_template_id: null,
		})
		const asUser = sdk({ auth: token.access_token })
		expect(await asUser.users.me({})).toMatchObject({ id: fake.botId, bot: { owner: { type: 'user' } } })

		const reused = fetch(`${fake.url}/v1/oauth/token`, {
			method: 'POST',
			headers: {
				authorization: `Basic ${Buffer.from(`${fake.oauthClient.clientId}:${fake.oauthClient.clientSecret}`).toString('base64')}`,
				'content-type': 'application/json',
			},
			body: JSON.stringify({ grant_type: 'authorization_code', code, redirect_uri: 'http://localhost:3000/callback' }),
		})
		expect((await reused).status).toBe(400)

		const refreshed = await notion.oauth.token({
			client_id: fake.oauthClient.clientId,
			client_secret: fake.oauthClient.clientSecret,
			grant_type: 'refresh_token',
			refresh_token: token.refresh_token ?? '',
		})
		expect(refreshed.access_token).not.toBe(token.access_token)
		expect(refreshed.refresh_token).not.toBe(token.refresh_token)
	})

	it('shows an approval page when asked to and redirects after Allow access', async () => {
		const approving = await createFakeNotion({ oauth: { requireApproval: true } })
		try {
			const params = new URLSearchParams({
				client_id: approving.oauthClient.clientId,
				response_type: 'code',
				owner: 'user',
				redirect_uri: 'http://localhost:3000/cb',
				state: 's1',
			})
			const page = await fetch(`${approving.url}/v1/oauth/authorize?${params}`, { redirect: 'manual' })
			expect(page.status).toBe(200)
			expect(await page.text()).toContain('Allow access')
			params.set('decision', 'allow')
			const approved = await fetch(`${approving.url}/v1/oauth/authorize`, {
				method: 'POST',
				body: params,
				redirect: 'manual',
			})
			expect(approved.status).toBe(302)
			expect(approved.headers.get('location')).toMatch(/^http:\/\/localhost:3000\/cb\?code=.+&state=s1$/)
		} finally {
			await approving.close()
		}
	})
})

describe('faults and controls', () => {
	it('answers 429 rate_limited with Retry-After, which the SDK waits out when retrying', async () => {
		fake.setRateLimit({ requestsPerSecond: 1, burst: 1, retryAfterSeconds: 1 })
		await notion.users.me({})
		const limited = await apiError(notion.users.me({}))
		expect(limited).toMatchObject({ status: 429, code: 'rate_limited' })
		expect((limited.headers as Headers).get('retry-after')).toBe('1')
		const patient = sdk({ retry: { maxRetries: 2 } })
		fake.resetRequests()
		await expect(patient.users.me({})).resolves.toMatchObject({ id: fake.botId })
		expect(fake.requests().map((entry) => entry.status)).toEqual([429, 200])
	})

	it('injects failures and outages', async () => {
		fake.failNext(1, { status: 503 })
		expect(await apiError(notion.users.me({}))).toMatchObject({ status: 503, code: 'service_unavailable' })
		await expect(notion.users.me({})).resolves.toBeDefined()

		const retrying = sdk({ retry: { maxRetries: 2, initialRetryDelayMs: 10 } })
		fake.failNext(1, { status: 500 })
		fake.resetRequests()
		await expect(retrying.users.me({})).resolves.toBeDefined()
		expect(fake.requestCount('GET', '/v1/users/me')).toBe(2)

		fake.setOutage(true, 529)
		expect(await apiError(notion.users.list({}))).toMatchObject({ status: 529, code: 'service_overload' })
		fake.setOutage(true)
		expect(await apiError(notion.users.list({}))).toMatchObject({ status: 503, code: 'service_unavailable' })
		fake.setOutage(false)
		await expect(notion.users.list({})).resolves.toBeDefined()
	})

	it('applies a write whose response is lost', async () => {
		const find = async (name: string) =>
			pages(
				await notion.dataSources.query({
					data_source_id: demo.dataSources.projects,
					filter: { property: 'Name', title: { equals: name } },
				}),
			)
		fake.dropResponseNext(1)
		await expect(
			notion.pages.create({
				parent: { data_source_id: demo.dataSources.projects },
				properties: { Name: title('Lost 1') },
			}),
		).rejects.toThrow()
		expect(await find('Lost 1')).toHaveLength(1)

		fake.dropResponseNext(1, { mode: 502 })
		const gateway = notion.pages.create({
			parent: { data_source_id: demo.dataSources.projects },
			properties: { Name: title('Lost 2') },
		})
		await expect(gateway).rejects.toMatchObject({ status: 502 })
		expect(await find('Lost 2')).toHaveLength(1)
	})

	it('is driven over HTTP by controlFakeNotion and logs requests by route', async () => {
		const control = controlFakeNotion(fake.url)
		await control.call('resetRequests')
		await control.call('failNext', 1, { status: 500 })
		expect(await apiError(notion.pages.retrieve({ page_id: demo.pages.clients[0] ?? '' }))).toMatchObject({
			status: 500,
			code: 'internal_server_error',
		})
		await notion.pages.retrieve({ page_id: demo.pages.clients[0] ?? '' })
		const log = await control.requests()
		expect(log.map((entry) => [entry.route, entry.status])).toEqual([
			['GET /v1/pages/:id', 500],
			['GET /v1/pages/:id', 200],
		])
		const page = (await control.call('addPage', demo.dataSources.clients, { Name: title('Remote') })) as { id: string }
		expect(await notion.pages.retrieve({ page_id: page.id })).toMatchObject({ id: page.id })
	})

	it('signs webhook bodies the way the SDK verifies them', async () => {
		const body = JSON.stringify({ type: 'page.created', entity: { id: demo.pages.clients[0], type: 'page' } })
		const signature = await fake.signWebhook(body, 'secret_verification')
		expect(await verifyWebhookSignature({ body, signature, verificationToken: 'secret_verification' })).toBe(true)
	})
})

describe('fidelity to Notion', () => {
	it('stamps created and edited times in whole minutes', async () => {
		fake.setClock('2026-04-01T10:15:42.123Z')
		const page = await notion.pages.create({
			parent: { data_source_id: demo.dataSources.projects },
			properties: { Name: title('Stamped') },
		})
		expect(page).toMatchObject({
			created_time: '2026-04-01T10:15:00.000Z',
			last_edited_time: '2026-04-01T10:15:00.000Z',
		})
		fake.advanceClock(61_000)
		const edited = await notion.pages.update({ page_id: page.id, properties: { Name: title('Stamped again') } })
		expect(edited).toMatchObject({
			created_time: '2026-04-01T10:15:00.000Z',
			last_edited_time: '2026-04-01T10:16:00.000Z',
		})
		const added = fake.addPage(demo.dataSources.projects, {}, { createdTime: '2026-04-01T09:00:59.999Z' })
		expect(added.created_time).toBe('2026-04-01T09:00:00.000Z')
	})

	it('renders mentions with their type, the text Notion shows and annotations', async () => {
		const page = await notion.pages.create({
			parent: { data_source_id: demo.dataSources.clients },
			properties: {
				Name: title('Mentions'),
				Notes: {
					rich_text: [
						{ text: { content: 'Ask ' }, annotations: { bold: true } },
						{ mention: { user: { id: demo.users.ada } } },
						{ text: { content: ' about ' } },
						{ mention: { page: { id: demo.pages.projects[0] ?? '' } } },
						{ mention: { database: { id: demo.databases.invoices } } },
						{ mention: { date: { start: '2026-05-01', end: '2026-05-03' } } },
						{ mention: { template_mention: { template_mention_date: 'today' } } },
						{ mention: { link_preview: { url: 'https://example.com/brief' } } } as never,
					],
				},
			},
		})
		const notes = isFullPage(page) ? page.properties.Notes : undefined
		if (notes?.type !== 'rich_text') {
			throw new Error('expected rich text')
		}
		expect(notes.rich_text.map((item) => item.plain_text)).toEqual([
			'Ask ',
			'@Ada Lovelace',
			' about ',
			'Website relaunch',
			'Invoices',
			'2026-05-01 → 2026-05-03',
			'@Today',
			'https://example.com/brief',
		])
		expect(notes.rich_text[0]?.annotations).toEqual({
			bold: true,
			italic: false,
			strikethrough: false,
			underline: false,
			code: false,
			color: 'default',
		})
		expect(notes.rich_text.slice(1).map((item) => (item.type === 'mention' ? item.mention.type : item.type))).toEqual([
			'user',
			'text',
			'page',
			'database',
			'date',
			'template_mention',
			'link_preview',
		])
		expect(notes.rich_text[1]).toMatchObject({
			href: null,
			mention: { type: 'user', user: { object: 'user', id: demo.users.ada, type: 'person' } },
		})
		expect(notes.rich_text[3]?.href).toMatch(/^https:\/\/www\.notion\.so\/Website-relaunch-/)
		const unknownUser = await apiError(
			notion.pages.update({
				page_id: page.id,
				properties: { Notes: { rich_text: [{ mention: { user: { id: '00000000-0000-4000-8000-000000000000' } } }] } },
			}),
		)
		expect(unknownUser.code).toBe('validation_error')
	})

	it('computes rollups in page objects from 25 relations; the property item endpoint reads them all', async () => {
		const entries = fake.addPages(demo.dataSources.timeEntries, 30, {
			properties: (index) => ({ Name: title(`Bulk ${index}`), Hours: { number: 1 } }),
		})
		const page = await notion.pages.create({
			parent: { data_source_id: demo.dataSources.invoices },
			properties: { Name: title('Big invoice'), 'Time entries': { relation: entries.map((id) => ({ id })) } },
		})
		// The page object's sum covers the first 25 entries only, with nothing saying so but the relation's has_more.
		expect(page).toMatchObject({
			properties: {
				Hours: { type: 'rollup', rollup: { type: 'number', number: 25, function: 'sum' } },
				'Time entries': { has_more: true },
			},
		})
		const hoursId = isFullPage(page) ? (page.properties.Hours?.id ?? '') : ''
		const first = await notion.pages.properties.retrieve({ page_id: page.id, property_id: hoursId, page_size: 20 })
		if (first.object !== 'list') {
			throw new Error('expected a property item list')
		}
		expect(first.results).toHaveLength(20)
		expect(first.results[0]).toMatchObject({ object: 'property_item', type: 'relation', relation: { id: entries[0] } })
		expect(first.property_item).toMatchObject({
			type: 'rollup',
			rollup: { type: 'incomplete', incomplete: {}, function: 'sum' },
		})
		const last = await notion.pages.properties.retrieve({
			page_id: page.id,
			property_id: hoursId,
			start_cursor: first.next_cursor ?? '',
		})
		expect(last).toMatchObject({
			has_more: false,
			property_item: { type: 'rollup', next_url: null, rollup: { type: 'number', number: 30, function: 'sum' } },
		})

		const original = fake.addDataSource({
			title: 'Original rollups',
			properties: {
				Entries: {
					relation: { data_source_id: demo.dataSources.timeEntries, type: 'single_property', single_property: {} },
				},
				Hours: {
					rollup: { relation_property_name: 'Entries', rollup_property_name: 'Hours', function: 'show_original' },
				},
			},
		})
		const holder = fake.addPage(String(original.id), {
			Name: title('Holder'),
			Entries: { relation: entries.map((id) => ({ id })) },
		})
		const shown = holder.properties as Record<string, { rollup?: { type: string; array?: unknown[] } }>
		expect(shown.Hours?.rollup).toMatchObject({ type: 'array' })
		expect(shown.Hours?.rollup?.array).toHaveLength(25)
		const items = await notion.pages.properties.retrieve({
			page_id: String(holder.id),
			property_id: String((holder.properties as Record<string, { id: string }>).Hours?.id),
		})
		expect(items).toMatchObject({
			property_item: { type: 'rollup', rollup: { type: 'array', array: [], function: 'show_original' } },
		})
		expect(items.object === 'list' && items.results).toHaveLength(30)
		expect(items.object === 'list' && items.results[0]).toMatchObject({
			object: 'property_item',
			type: 'number',
			number: 1,
		})
	})

	it('computes the rollup functions Notion offers', async () => {
		const rows = fake.addPages(demo.dataSources.timeEntries, 4, {
			properties: (index) => ({
				Name: title(`Rolled ${index}`),
				Hours: { number: [1, 3, 3, 10][index] ?? 0 },
				Billable: { checkbox: index < 3 },
			}),
		})
		const rollup = (fn: string, property = 'Hours') => ({
			rollup: { relation_property_name: 'Entries', rollup_property_name: property, function: fn },
		})
		const source = fake.addDataSource({
			title: 'Rollup functions',
			properties: {
				Entries: {
					relation: { data_source_id: demo.dataSources.timeEntries, type: 'single_property', single_property: {} },
				},
				Median: rollup('median'),
				Unique: rollup('unique'),
				Checked: rollup('percent_checked', 'Billable'),
				Distinct: rollup('show_unique'),
				Range: rollup('range'),
			},
		})
		const page = fake.addPage(String(source.id), { Entries: { relation: rows.map((id) => ({ id })) } })
		expect(page.properties).toMatchObject({
			Median: { rollup: { type: 'number', number: 3, function: 'median' } },
			Unique: { rollup: { type: 'number', number: 3, function: 'unique' } },
			Checked: { rollup: { type: 'number', number: 0.75, function: 'percent_checked' } },
			Distinct: { rollup: { type: 'array', array: [{ number: 1 }, { number: 3 }, { number: 10 }] } },
			Range: { rollup: { type: 'number', number: 9 } },
		})
	})

	it('hands out hosted file URLs that expire an hour after the read', async () => {
		fake.setClock('2026-04-02T08:00:00.000Z')
		const upload = await notion.fileUploads.create({ mode: 'single_part', filename: 'plan.txt' })
		await notion.fileUploads.send({
			file_upload_id: upload.id,
			file: { filename: 'plan.txt', data: new Blob(['the plan'], { type: 'text/plain' }) },
		})
		const page = await notion.pages.update({
			page_id: demo.pages.invoices[2] ?? '',
			properties: { Attachments: { files: [{ file_upload: { id: upload.id } }] } },
		})
		const files = isFullPage(page) ? page.properties.Attachments : undefined
		const file = files?.type === 'files' ? files.files[0] : undefined
		if (file?.type !== 'file') {
			throw new Error('expected a hosted file')
		}
		expect(file.file.expiry_time).toBe('2026-04-02T09:00:00.000Z')
		expect(await (await fetch(file.file.url)).text()).toBe('the plan')
		const forged = await fetch(file.file.url.replace(/X-Expires=\d+/, 'X-Expires=9999999999999'))
		expect(forged.status).toBe(403)

		fake.advanceClock(3_600_001)
		const expired = await fetch(file.file.url)
		expect(expired.status).toBe(403)
		expect(await expired.text()).toContain('Request has expired')
		// A new read signs a new URL; re-sending the old one keeps the same file.
		const again = await notion.pages.update({
			page_id: demo.pages.invoices[2] ?? '',
			properties: { Attachments: { files: [{ name: 'plan.txt', type: 'file', file: { url: file.file.url } }] } },
		})
		const fresh = isFullPage(again) ? again.properties.Attachments : undefined
		const freshFile = fresh?.type === 'files' ? fresh.files[0] : undefined
		if (freshFile?.type !== 'file') {
			throw new Error('expected a hosted file')
		}
		expect(freshFile.file.url).not.toBe(file.file.url)
		expect(await (await fetch(freshFile.file.url)).text()).toBe('the plan')
		const foreign = await apiError(
			notion.pages.update({
				page_id: demo.pages.invoices[2] ?? '',
				properties: {
					Attachments: { files: [{ name: 'x', type: 'file', file: { url: 'https://example.com/x.pdf' } }] },
				},
			}),
		)
		expect(foreign.code).toBe('validation_error')
	})

	it('gives workspace_limits in users/me and holds uploads to them', async () => {
		const me = await notion.users.me({})
		expect(me.type === 'bot' && 'workspace_limits' in me.bot && me.bot.workspace_limits).toEqual({
			max_file_upload_size_in_bytes: 5 * 1024 * 1024,
		})
		fake.setMaxFileUploadBytes(10)
		try {
			const upload = await notion.fileUploads.create({ mode: 'single_part', filename: 'big.txt' })
			const refused = await apiError(
				notion.fileUploads.send({
					file_upload_id: upload.id,
					file: { filename: 'big.txt', data: new Blob(['more than ten bytes'], { type: 'text/plain' }) },
				}),
			)
			expect(refused).toMatchObject({ status: 400, code: 'validation_error' })
		} finally {
			fake.setMaxFileUploadBytes(5 * 1024 * 1024)
		}
	})

	it('answers with the error codes of Notion only', async () => {
		expect(() => fake.failNext(1, { status: 502, code: 'bad_gateway' })).toThrow(/never answers/)
		fake.failNext(1, { status: 502 })
		const gateway = await notion.users.me({}).catch((error: unknown) => error)
		expect(gateway).toMatchObject({ status: 502, code: 'notionhq_client_response_error' })
		for (const [status, code] of [
			[400, 'invalid_request'],
			[403, 'restricted_resource'],
			[409, 'conflict_error'],
			[500, 'internal_server_error'],
			[504, 'gateway_timeout'],
		] as const) {
			fake.failNext(1, { status })
			expect(await apiError(notion.users.me({}))).toMatchObject({ status, code })
		}
		const badJson = await fetch(`${fake.url}/v1/search`, {
			method: 'POST',
			headers: { authorization: `Bearer ${fake.token}`, 'notion-version': '2025-09-03' },
			body: '{',
		})
		expect(await badJson.json()).toMatchObject({ object: 'error', status: 400, code: 'invalid_json' })
		const noVersion = await fetch(`${fake.url}/v1/users/me`, { headers: { authorization: `Bearer ${fake.token}` } })
		expect(await noVersion.json()).toMatchObject({ code: 'missing_version' })
		const badUrl = await fetch(`${fake.url}/v1/nowhere`, {
			headers: { authorization: `Bearer ${fake.token}`, 'notion-version': '2025-09-03' },
		})
		expect(await badUrl.json()).toMatchObject({ code: 'invalid_request_url' })
	})
})
