/**
 * The fake's answers type-check against the SDK's own response types, for every call the product makes.
 *
 * How: the product's Notion code (the connector and the OAuth exchange, through the official SDK) is driven
 * against the fake over data that reaches every shape the product reads (all property types, mentions, hosted
 * files, rollups over more than 25 relations, a capped query, errors). Every raw response the SDK receives is
 * captured from `fetch` and written into a TypeScript file as `const rN: <SDK response type> = <the JSON>`, which
 * `tsc --strict` then compiles. An object literal assigned to an annotated type is checked for missing fields,
 * wrong literal values (`mention.type`, `rollup.type`, `request_status.type`…) and fields the type does not have,
 * so a fake that drifts from the SDK's types fails here. Where an SDK union is looser than what the product reads
 * (a query's results may be partial pages; `users/me` may be a bot without workspace info), the fixture narrows it
 * to the full object, so a fake answering the partial shape fails too.
 *
 * Two guards keep it honest:
 * - coverage: every SDK method the product calls (found by scanning the product's files that import
 *   `@notionhq/client` for `client.<method>(`) must map to a route here and be seen answering 2xx, so a new call
 *   in the product fails this test until it is exercised;
 * - teeth: broken copies of real responses (a mention without `mention.type`, a rollup's items put in
 *   `property_item.rollup.array`, an unknown `request_status`, an invented error code) must fail to compile.
 *
 * Known gap in the SDK's types, allowed on purpose: `has_more` on relation (and people) page values, which Notion
 * sends and the types lack.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ExternalDatabase } from '#src/workspaces/connector.ts'
import {
	createNotionClient,
	createNotionConnector,
	exchangeOAuthCode,
	refreshOAuthToken,
} from '#src/workspaces/notion/notion.connector.ts'
import { createNotionQueue } from '#src/workspaces/notion/notion.queue.ts'
import { createFakeNotion, type FakeNotion } from './fake-notion.ts'
import type { DemoWorkspace } from './seed.ts'

type Captured = { route: string; status: number; body: unknown }

const serverSrc = fileURLToPath(new URL('../../', import.meta.url))
const require = createRequire(import.meta.url)
const sdkTypes = require.resolve('@notionhq/client').replace(/\.js$/, '')
const tscBin = require.resolve('typescript/bin/tsc')

/** The SDK methods the product may call, and the route each one requests. */
const routeOfMethod: Record<string, string> = {
	search: 'POST /v1/search',
	'dataSources.retrieve': 'GET /v1/data_sources/:id',
	'dataSources.query': 'POST /v1/data_sources/:id/query',
	'pages.create': 'POST /v1/pages',
	'pages.update': 'PATCH /v1/pages/:id',
	'pages.retrieve': 'GET /v1/pages/:id',
	'pages.properties.retrieve': 'GET /v1/pages/:id/properties/:id',
	'users.list': 'GET /v1/users',
	'users.me': 'GET /v1/users/me',
	'fileUploads.create': 'POST /v1/file_uploads',
	'fileUploads.send': 'POST /v1/file_uploads/:id/send',
	'oauth.token': 'POST /v1/oauth/token',
	'blocks.children.list': 'GET /v1/blocks/:id/children',
	'blocks.retrieve': 'GET /v1/blocks/:id',
}

/** The SDK type each route's successful answer must satisfy (aliases defined in the fixture's prelude). */
const typeOfRoute: Record<string, string> = {
	'POST /v1/search': 'DataSourceSearch',
	'GET /v1/data_sources/:id': 'DataSourceObjectResponse',
	'POST /v1/data_sources/:id/query': 'PageQuery',
	'POST /v1/pages': 'Page',
	'PATCH /v1/pages/:id': 'Page',
	'GET /v1/pages/:id': 'Page',
	'GET /v1/pages/:id/properties/:id': 'GetPagePropertyResponse',
	'GET /v1/users': 'ListUsersResponse',
	'GET /v1/users/me': 'Bot',
	'POST /v1/file_uploads': 'CreateFileUploadResponse',
	'POST /v1/file_uploads/:id/send': 'SendFileUploadResponse',
	'POST /v1/oauth/token': 'OauthTokenResponse',
	'GET /v1/blocks/:id/children': 'BlockChildren',
	'GET /v1/blocks/:id': 'BlockObjectResponse',
}

const prelude = `import type {
	APIErrorCode,
	BlockObjectResponse,
	ListBlockChildrenResponse,
	CreateFileUploadResponse,
	DataSourceObjectResponse,
	GetPagePropertyResponse,
	ListUsersResponse,
	OauthTokenResponse,
	PageObjectResponse,
	QueryDataSourceResponse,
	SearchResponse,
	SendFileUploadResponse,
	UserObjectResponse,
} from ${JSON.stringify(sdkTypes)}

type PageProperty = PageObjectResponse['properties'][string]
/** Notion sends \`has_more\` on relation values (and on people past 25), which the SDK's types lack. */
type PageValue =
	| Exclude<PageProperty, { type: 'relation' | 'people' }>
	| (Extract<PageProperty, { type: 'relation' }> & { has_more: boolean })
	| (Extract<PageProperty, { type: 'people' }> & { has_more?: boolean })
type Page = Omit<PageObjectResponse, 'properties'> & { properties: Record<string, PageValue> }
type PageQuery = Omit<QueryDataSourceResponse, 'results'> & { results: Page[] }
type DataSourceSearch = Omit<SearchResponse, 'results'> & { results: DataSourceObjectResponse[] }
type BlockChildren = Omit<ListBlockChildrenResponse, 'results'> & { results: BlockObjectResponse[] }
type BotUser = Extract<UserObjectResponse, { type: 'bot' }>
type Bot = Omit<BotUser, 'bot'> & { bot: Exclude<BotUser['bot'], Record<string, never>> }
/** An error as Notion answers it: one of the SDK's codes, or those Notion documents beside them. */
type NotionError = {
	object: 'error'
	status: number
	code: \`\${APIErrorCode}\` | 'missing_version' | 'invalid_grant' | 'database_connection_unavailable'
	message: string
	request_id: string
	additional_data?: Record<string, unknown>
}
/** The token endpoint's refusals also carry OAuth's own pair (RFC 6749 §5.2). */
type OAuthError = NotionError & { error?: string; error_description?: string }
`

let fake: FakeNotion
let demo: DemoWorkspace
const captured: Captured[] = []
const realFetch = globalThis.fetch
let workDir = ''

function connector() {
	return createNotionConnector({
		client: createNotionClient({ token: fake.token, baseUrl: fake.url, timeoutMs: 10_000 }),
		queue: createNotionQueue({ requestsPerSecond: 1000, burst: 1000, maxWaitMs: 30_000, retryDelayMs: 20 }),
		workspaceKey: fake.workspace.id,
		readBlob: async (blobId) =>
			blobId === 'blob-receipt'
				? { name: 'receipt.txt', contentType: 'text/plain', bytes: new TextEncoder().encode('paid') }
				: null,
	})
}

async function drain<T>(pages: AsyncIterable<T[]>): Promise<T[]> {
	const all: T[] = []
	for await (const page of pages) {
		all.push(...page)
	}
	return all
}

function propertyId(database: ExternalDatabase, name: string): string {
	const found = database.properties.find((property) => property.name === name)
	if (!found) {
		throw new Error(`no property ${name}`)
	}
	return found.id
}

/** SDK methods called as `client.<method>(` in the product's files that use the SDK. */
function productMethods(): Set<string> {
	const methods = new Set<string>()
	const visit = (dir: string) => {
		for (const name of readdirSync(dir)) {
			const path = join(dir, name)
			if (statSync(path).isDirectory()) {
				if (relative(serverSrc, path) !== 'test') {
					visit(path)
				}
				continue
			}
			if (!name.endsWith('.ts') || name.endsWith('.test.ts')) {
				continue
			}
			const text = readFileSync(path, 'utf8')
			if (!text.includes("from '@notionhq/client'")) {
				continue
			}
			for (const match of text.matchAll(/\bclient\.((?:[a-z][A-Za-z]*\.)*[a-z][A-Za-z]*)\(/g)) {
				methods.add(match[1] ?? '')
			}
		}
	}
	visit(serverSrc)
	return methods
}

/** Compiles the fixture; returns the names of the constants with errors (and the raw output). */
function typeCheck(entries: { name: string; type: string; value: unknown }[]): {
	failing: Set<string>
	output: string
} {
	let text = prelude
	const starts: { name: string; line: number }[] = []
	for (const entry of entries) {
		starts.push({ name: entry.name, line: text.split('\n').length })
		text += `export const ${entry.name}: ${entry.type} = ${JSON.stringify(entry.value, null, 1)}\n`
	}
	const file = join(workDir, 'captured.ts')
	writeFileSync(file, text)
	const result = spawnSync(
		process.execPath,
		[
			tscBin,
			'--noEmit',
			'--strict',
			'--skipLibCheck',
			'--target',
			'es2022',
			'--module',
			'preserve',
			'--moduleResolution',
			'bundler',
			file,
		],
		{ encoding: 'utf8' },
	)
	const output = `${result.stdout}${result.stderr}`
	const failing = new Set<string>()
	for (const match of output.matchAll(/captured\.ts\((\d+),\d+\): error/g)) {
		const line = Number(match[1])
		const owner = starts.filter((start) => start.line <= line).at(-1)
		failing.add(owner?.name ?? 'prelude')
	}
	if (result.status !== 0 && failing.size === 0) {
		failing.add(`tsc exited ${result.status}`)
	}
	return { failing, output }
}

beforeAll(async () => {
	workDir = mkdtempSync(join(tmpdir(), 'fake-notion-types-'))
	fake = await createFakeNotion({ oauth: { clientId: 'client-types', clientSecret: 'secret-types' } })
	demo = fake.seed()
	globalThis.fetch = async (input, init) => {
		const response = await realFetch(input, init)
		const url = new URL(input instanceof Request ? input.url : String(input))
		const requestId = response.headers.get('x-notion-request-id')
		if (url.origin === new URL(fake.url).origin && requestId) {
			const route = fake.requests().find((entry) => entry.requestId === requestId)?.route ?? '?'
			const text = await response.clone().text()
			captured.push({ route, status: response.status, body: JSON.parse(text) })
		}
		return response
	}

	// Data that reaches every shape the product reads.
	const title = (content: string) => ({ title: [{ text: { content } }] })
	fake.addPage(demo.dataSources.clients, {
		Name: title('Mentions Ltd'),
		Notes: {
			rich_text: [
				{ text: { content: 'Ask ', link: { url: 'https://example.com' } }, annotations: { italic: true } },
				{ mention: { user: { id: demo.users.grace } } },
				{ mention: { page: { id: demo.pages.projects[0] } } },
				{ mention: { database: { id: demo.databases.invoices } } },
				{ mention: { date: { start: '2026-05-01T10:00:00.000+02:00', end: null, time_zone: null } } },
				{ mention: { template_mention: { template_mention_user: 'me' } } },
				{ mention: { link_preview: { url: 'https://example.com/brief' } } },
				{ equation: { expression: 'e=mc^2' } },
			],
		},
	})
	const entries = fake.addPages(demo.dataSources.timeEntries, 30, {
		properties: (index) => ({ Name: title(`Bulk ${index}`), Hours: { number: 1 } }),
		spacingMs: 60_000,
	})
	fake.addPage(demo.dataSources.invoices, {
		Name: title('Big invoice'),
		'Time entries': { relation: entries.map((id) => ({ id })) },
	})
	const originals = fake.addDataSource({
		title: 'Original rollups',
		properties: {
			Entries: {
				relation: { data_source_id: demo.dataSources.timeEntries, type: 'single_property', single_property: {} },
			},
			Names: { rollup: { relation_property_name: 'Entries', rollup_property_name: 'Name', function: 'show_original' } },
			Hours: {
				rollup: { relation_property_name: 'Entries', rollup_property_name: 'Hours', function: 'show_original' },
			},
			Latest: { rollup: { relation_property_name: 'Entries', rollup_property_name: 'Date', function: 'latest_date' } },
		},
	})
	fake.addPage(String(originals.id), { Name: title('Holder'), Entries: { relation: entries.map((id) => ({ id })) } })

	// The product's calls, as it makes them.
	const notion = connector()
	await notion.listDatabases()
	const invoices = await notion.getDatabase(demo.dataSources.invoices)
	const clients = await notion.getDatabase(demo.dataSources.clients)
	const entryDatabase = await notion.getDatabase(demo.dataSources.timeEntries)
	await drain(notion.queryRows(invoices, {}))
	await drain(notion.queryRows(clients, {}))
	await drain(notion.queryRows(await notion.getDatabase(String(originals.id)), {}))
	fake.setQueryResultLimit(15)
	await drain(notion.queryRows(entryDatabase, {}))
	fake.setQueryResultLimit(10_000)
	await drain(notion.queryRows(entryDatabase, { editedSince: fake.now() }))
	await drain(notion.listRowIds(invoices))
	await notion.getRow(invoices, demo.pages.invoices[0] ?? '')
	const since = fake.now()
	const values = {
		title: 'INV-TYPES-1',
		[propertyId(invoices, 'Amount')]: 12.5,
		[propertyId(invoices, 'Attachments')]: [{ name: 'receipt.txt', url: null, blobId: 'blob-receipt' }],
	}
	const created = await notion.createRow(invoices, values)
	await notion.updateRow(invoices, created.externalId, { [propertyId(invoices, 'Paid')]: true })
	await notion.findCreatedRow(invoices, since, { title: 'INV-TYPES-1' })
	fake.failNext(1, { status: 503 })
	await notion.listUsers()
	fake.deletePage(created.externalId)
	await notion.getRow(invoices, created.externalId)
	await notion.createRow(invoices, { title: 'x'.repeat(10) }).catch(() => undefined)
	fake.failNext(1, { status: 400, code: 'validation_error', message: 'Amount is expected to be number.' })
	await notion.updateRow(invoices, demo.pages.invoices[1] ?? '', { title: 'Refused' }).catch(() => undefined)

	// Page content: the seeded project page, and one with each kind of block the portal draws, past a page of 100.
	const text = (content: string) => ({ rich_text: [{ text: { content } }] })
	const second = demo.pages.projects[1] ?? ''
	fake.setPageContent(second, [
		...Array.from({ length: 101 }, (_, index) => ({ type: 'paragraph', paragraph: text(`Line ${index}`) })),
		{ type: 'heading_2', heading_2: text('Heading') },
		{ type: 'numbered_list_item', numbered_list_item: text('First') },
		{ type: 'code', code: { ...text('let a = 1'), language: 'typescript' } },
		{
			type: 'column_list',
			column_list: {},
			children: [{ type: 'column', column: {}, children: [{ type: 'quote', quote: text('Quoted') }] }],
		},
		{
			type: 'table',
			table: { table_width: 2, has_column_header: true },
			children: [{ type: 'table_row', table_row: { cells: [text('A').rich_text, text('B').rich_text] } }],
		},
		{ type: 'bookmark', bookmark: { url: 'https://example.com' } },
		{ type: 'embed', embed: { url: 'https://example.com/embed' } },
		{ type: 'file', file: { external: { url: 'https://files.example.com/terms.pdf' } } },
		{ type: 'file', file: { file: { name: 'scan.txt', content: 'scan' } } },
		{ type: 'pdf', pdf: { file: { name: 'plan.pdf', content: 'pdf' } } },
		{ type: 'child_page', child_page: { title: 'Sub page' } },
		{ type: 'equation', equation: { expression: 'a^2' } },
		{ type: 'divider', divider: {} },
	])
	const seeded = await notion.readPageContent(demo.pages.projects[0] ?? '')
	await notion.readPageContent(second)
	await notion.readContentFile(seeded?.find((block) => block.fileRef)?.fileRef?.blockId ?? '')
	await notion.readPageContent('no-such-page')

	const redirectUri = 'https://app.example/notion/callback'
	const authorize = await realFetch(
		`${fake.url}/v1/oauth/authorize?client_id=client-types&response_type=code&redirect_uri=${encodeURIComponent(redirectUri)}`,
		{ redirect: 'manual' },
	)
	const code = new URL(authorize.headers.get('location') ?? '').searchParams.get('code') ?? ''
	const oauth = { baseUrl: fake.url, clientId: 'client-types', clientSecret: 'secret-types' }
	const token = await exchangeOAuthCode({ ...oauth, code, redirectUri })
	await refreshOAuthToken({ ...oauth, refreshToken: token.refreshToken ?? '' })
	await exchangeOAuthCode({ ...oauth, code: 'used-up', redirectUri }).catch(() => undefined)
}, 60_000)

afterAll(async () => {
	globalThis.fetch = realFetch
	await fake?.close()
	if (workDir) {
		rmSync(workDir, { recursive: true, force: true })
	}
})

describe('the fake against the SDK response types', () => {
	it('was called, through the SDK, for every call the product makes', () => {
		const methods = productMethods()
		expect(methods.size).toBeGreaterThan(5)
		const unmapped = [...methods].filter((method) => routeOfMethod[method] === undefined)
		expect(unmapped, 'the product calls SDK methods this test does not know: map and exercise them').toEqual([])
		const answered = new Set(captured.filter((entry) => entry.status < 300).map((entry) => entry.route))
		const missing = [...methods].map((method) => routeOfMethod[method] ?? '').filter((route) => !answered.has(route))
		expect(missing, 'routes the product calls that this test never drove').toEqual([])
		// The shapes worth checking were reached.
		const bodies = JSON.stringify(captured.map((entry) => entry.body))
		for (const shape of [
			'"type":"mention"',
			'"type":"link_preview"',
			'"type":"incomplete"',
			'"has_more":true',
			'"expiry_time"',
			'"workspace_limits"',
			'"type":"array"',
			'"code":"object_not_found"',
		]) {
			expect(bodies).toContain(shape)
		}
	})

	it("type-checks every captured answer against the SDK's types, and refuses broken ones", () => {
		const entries = captured.map((entry, index) => ({
			name: `r${index}_${entry.route.replace(/[^A-Za-z]+/g, '_')}`,
			type:
				entry.status < 400
					? (typeOfRoute[entry.route] ?? 'never')
					: entry.route === 'POST /v1/oauth/token'
						? 'OAuthError'
						: 'NotionError',
			value: entry.body,
		}))
		const find = (predicate: (entry: Captured) => boolean) => {
			const found = captured.find(predicate)
			if (!found) {
				throw new Error('a response this check needs was not captured')
			}
			return structuredClone(found.body) as Record<string, unknown>
		}
		const text = (value: unknown) => JSON.stringify(value)
		const mutants = [
			{
				name: 'broken_mention_without_type',
				type: 'PageQuery',
				value: JSON.parse(
					text(
						find((entry) => entry.route.endsWith('/query') && text(entry.body).includes('"type":"mention"')),
					).replace('"mention":{"type":"user",', '"mention":{'),
				),
			},
			{
				name: 'broken_rollup_items_in_array',
				type: 'GetPagePropertyResponse',
				value: (() => {
					const list = find(
						(entry) => entry.route.endsWith('/properties/:id') && text(entry.body).includes('"show_original"'),
					)
					const summary = list.property_item as { rollup: { array: unknown[] } }
					summary.rollup.array = list.results as unknown[]
					return list
				})(),
			},
			{
				name: 'broken_request_status',
				type: 'PageQuery',
				value: { ...find((entry) => entry.route.endsWith('/query')), request_status: { type: 'partial' } },
			},
			{
				name: 'broken_error_code',
				type: 'NotionError',
				value: { ...find((entry) => entry.status === 404), code: 'bad_gateway' },
			},
		]
		const { failing, output } = typeCheck([...entries, ...mutants])
		const unexpected = [...failing].filter((name) => !name.startsWith('broken_'))
		expect(unexpected, output.slice(0, 4000)).toEqual([])
		expect([...failing].filter((name) => name.startsWith('broken_')).sort()).toEqual(
			mutants.map((mutant) => mutant.name).sort(),
		)
		expect(entries.length).toBeGreaterThan(30)
	}, 120_000)
})
