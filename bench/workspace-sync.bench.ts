// The Notion mirror's sync against the fake Notion server rate-limited as Notion is (3 requests/s):
// a first full sync of a 10,000-row data source, an incremental sync after 50 edits, and a
// reconcile. The workspace layer runs in this process on a fresh PGlite database, as the server
// builds it (createServices, pg-boss jobs started), and syncs go through the real jobs. The
// baseline is the rate limit's ceiling: 3 requests/s × 100 rows per page = 300 rows/s.
// Then two instances on one PostgreSQL database sync two databases of one workspace at once:
// together they must keep to the same 3 requests/s (decision 025).
// Figures go to stdout and to bench/results/.
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import { createServices } from '../apps/server/src/app.ts'
import { loadConfig } from '../apps/server/src/config.ts'
import { type Database, openDatabase, openPostgres } from '../apps/server/src/db/client.ts'
import { createLogger } from '../apps/server/src/lib/logger.ts'
import {
	createFakeNotion,
	type FakeNotion,
	type RequestLogEntry,
} from '../apps/server/src/test/fake-notion/fake-notion.ts'
import type { PropertyDefinition } from '../apps/server/src/test/fake-notion/store.ts'
import type { WorkspaceConnector } from '../apps/server/src/workspaces/connector.ts'
import { connectNotionToken } from '../apps/server/src/workspaces/workspaces.service.ts'
import { queueSync } from '../apps/server/src/workspaces/workspaces.sync.ts'
import {
	aboutRun,
	createThrowAwayDatabase,
	findPostgres,
	onCleanup,
	positiveIntegerFromEnv,
	printAligned,
	progress,
	type RunStart,
	round,
	runBenchmark,
	scratchFolder,
	wasInterrupted,
	writeResults,
} from './bench-kit.ts'

const settings = {
	rows: positiveIntegerFromEnv('BENCH_ROWS', 10_000),
	edits: 50,
	trashed: 5,
	requestsPerSecond: 3,
	/** Notion's bucket, as the fake keeps it; the server's queue keeps a token less (decision 025). */
	burst: 3,
	pageSize: 100,
	/** The reconcile re-lists every id (~35 s at 3 requests/s); BENCH_RECONCILE=0 leaves it out. */
	reconcile: process.env.BENCH_RECONCILE !== '0',
	/** Notion keeps created and edited times to the minute; the fake does the same here. */
	timestampPrecisionMs: 60_000,
	/** Two instances on one PostgreSQL database, each syncing a Deals database of this many rows; BENCH_TWO_INSTANCES=0 leaves it out. */
	twoInstances: process.env.BENCH_TWO_INSTANCES !== '0',
	twoInstanceRows: positiveIntegerFromEnv('BENCH_TWO_INSTANCE_ROWS', 5000),
}
const ceilingRowsPerSecond = settings.requestsPerSecond * settings.pageSize
/** The server's queue starts at most this many calls back to back (its default: one less than the rate). */
const queueBurst = Math.max(1, Math.round(settings.requestsPerSecond) - 1)
const stages = ['Lead', 'Qualified', 'Proposal', 'Negotiation', 'Won', 'Lost']

type SyncRow = { sync_state: string; last_synced_at: Date | null; last_error: string | null; row_count: number }
/** One connector call of a sync, as the wrapper below saw it: walks are timed from first pull to last page. */
type Span = { call: string; dataSourceId: string; startedAt: number; endedAt: number; pages: number; items: number }
type Phase = {
	name: string
	seconds: number
	/** Rows the sync read (and upserted) from Notion's query pages. */
	rowsRead: number
	/** Ids the sync listed to find vanished rows (full syncs and reconciles). */
	idsListed: number
	/** Rows in the mirror afterwards. */
	rowsMirrored: number
	rowsPerSecond: number
	requests: number
	rateLimited: number
	byRoute: Record<string, number>
	calls: { call: string; seconds: number; pages: number; items: number }[]
}

async function main(start: RunStart): Promise<number> {
	progress(
		`${settings.rows.toLocaleString('en-US')} rows at ${settings.requestsPerSecond} requests/s (burst ${settings.burst}); ${os.cpus().length} CPUs`,
	)

	const fake = await createFakeNotion({ timestampPrecisionMs: settings.timestampPrecisionMs })
	onCleanup(() => fake.close())
	const seedStart = performance.now()
	const seeded = seedFake(fake)
	const deals = seeded.dealsIds[0] ?? ''
	const pageIds = seeded.addDeals(deals, settings.rows)
	progress(`fake Notion seeded in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`)
	fake.setRateLimit({ requestsPerSecond: settings.requestsPerSecond, burst: settings.burst })

	const { dir: dataDir } = scratchFolder()
	const database = await openDatabase({ dataDir })
	onCleanup(() => database.close())
	const config = loadConfig({
		NODE_ENV: 'production',
		DATA_DIR: dataDir,
		AUTH_SECRET: randomBytes(32).toString('hex'),
		PUBLIC_URL: 'http://127.0.0.1:3000',
		LOG_LEVEL: 'error',
		NOTION_API_BASE_URL: fake.url,
		NOTION_REQUESTS_PER_SECOND: String(settings.requestsPerSecond),
	})
	const services = createServices({ config, database, log: createLogger(config.logLevel) })
	const spans = observeConnectors(services.workspaces.deps)
	await services.jobs.start()
	onCleanup(() => services.jobs.stop(5000))

	const { orgId, userId } = await createAccount(database)
	const ctx = { ...services.workspaces.deps, orgId, userId }

	// (a) Connect by token: discovery and the first full syncs run as jobs, as after a real connect.
	progress('full sync: connecting the workspace (discovery and first syncs run as jobs)')
	const connectAt = Date.now()
	const fullFrom = mark(fake, spans)
	const workspace = await connectNotionToken(ctx, fake.token)
	const dealsId = await waitFor('discovery', async () => (await databaseIdOf(database, deals)) ?? undefined)
	const full = await waitForSync(database, dealsId, null)
	const fullPhase = phase('full sync', fake, fullFrom, spans, deals, full)
	const connectedSeconds = (full.syncedAt - connectAt) / 1000
	const mirrored = await countRows(database, dealsId)
	if (mirrored !== settings.rows) {
		throw new Error(`the full sync mirrored ${mirrored} rows, expected ${settings.rows}`)
	}
	progress(`full sync: ${fullPhase.seconds.toFixed(1)} s, ${fullPhase.requests} requests`)

	// (b) 50 pages edited in Notion later on, then an incremental sync.
	fake.advanceClock(10 * 60_000)
	const edited = pageIds.filter((_, index) => index % Math.floor(settings.rows / settings.edits) === 7)
	const editedAmounts = new Map<string, number>()
	for (const [index, pageId] of edited.slice(0, settings.edits).entries()) {
		const amount = 900_000 + index
		fake.editPage(pageId, { Amount: { number: amount }, Stage: { select: { name: 'Won' } } })
		editedAmounts.set(pageId, amount)
		fake.advanceClock(1000)
	}
	progress(`incremental sync after ${editedAmounts.size} edits`)
	const incrementalFrom = mark(fake, spans)
	await queueSync(ctx, dealsId, 'incremental')
	const incremental = await waitForSync(database, dealsId, full.syncedAt)
	const incrementalPhase = phase('incremental sync', fake, incrementalFrom, spans, deals, incremental)
	await checkEdits(database, dealsId, editedAmounts)

	// (c) A reconcile after a few pages went to the trash: it re-lists every id to notice them.
	let reconcilePhase: Phase | undefined
	if (settings.reconcile) {
		const trashed = pageIds.slice(100, 100 + settings.trashed)
		for (const pageId of trashed) {
			fake.trashPage(pageId)
		}
		fake.advanceClock(1000)
		progress(`reconcile after ${trashed.length} pages were trashed`)
		const reconcileFrom = mark(fake, spans)
		await queueSync(ctx, dealsId, 'reconcile')
		const reconcile = await waitForSync(database, dealsId, incremental.syncedAt)
		reconcilePhase = phase('reconcile', fake, reconcileFrom, spans, deals, reconcile)
		const left = await countRows(database, dealsId)
		if (left !== settings.rows - trashed.length) {
			throw new Error(`the reconcile left ${left} rows, expected ${settings.rows - trashed.length}`)
		}
	}

	// (d) Two instances on one database, each syncing a database of the same workspace at once.
	const twoInstances = settings.twoInstances ? await runTwoInstances() : { skipped: 'BENCH_TWO_INSTANCES=0' }

	const phases = [fullPhase, incrementalPhase, reconcilePhase].filter((entry) => entry !== undefined)
	printTable(phases)
	const rowWalk = fullPhase.calls.find((call) => call.call === 'queryRows')
	const rowWalkRowsPerSecond = rowWalk ? settings.rows / rowWalk.seconds : 0
	console.log(
		`ceiling ${ceilingRowsPerSecond} rows/s (${settings.requestsPerSecond} requests/s × ${settings.pageSize} rows per page); ` +
			`full sync ${fullPhase.rowsPerSecond.toFixed(0)} rows/s = ${(fullPhase.rowsPerSecond / ceilingRowsPerSecond).toFixed(2)} of it; ` +
			`its row walk alone ${rowWalkRowsPerSecond.toFixed(0)} rows/s = ${(rowWalkRowsPerSecond / ceilingRowsPerSecond).toFixed(2)}`,
	)
	console.log(
		`connect → ${settings.rows.toLocaleString('en-US')} rows mirrored: ${connectedSeconds.toFixed(1)} s ` +
			`(includes discovery, the small Clients database's sync and job pick-up)`,
	)

	if ('requests' in twoInstances) {
		printTwoInstances(twoInstances)
	} else {
		console.log(`two instances: skipped (${twoInstances.skipped})`)
	}

	const report = {
		benchmark: 'workspace-sync',
		description:
			'Notion mirror sync through the real jobs against the fake Notion server at 3 requests/s: full sync, incremental after edits, reconcile; then two instances on one PostgreSQL database syncing one workspace at once',
		...aboutRun(start, ['apps/server', 'packages/']),
		settings: { ...settings, database: 'PGlite', properties: seeded.propertyCount },
		baseline: { ceilingRowsPerSecond, why: 'requests/s × rows per query page: no sync can read rows faster' },
		workspaceId: workspace.id,
		full: {
			...fullPhase,
			ratioToCeiling: round(fullPhase.rowsPerSecond / ceilingRowsPerSecond, 3),
			rowWalkRowsPerSecond: round(rowWalkRowsPerSecond, 1),
			rowWalkRatioToCeiling: round(rowWalkRowsPerSecond / ceilingRowsPerSecond, 3),
			connectToMirroredSeconds: round(connectedSeconds, 2),
		},
		incremental: { ...incrementalPhase, edits: editedAmounts.size },
		...(reconcilePhase ? { reconcile: { ...reconcilePhase, trashed: settings.trashed } } : { reconcile: 'skipped' }),
		twoInstances,
	}
	writeResults(report)
	if ('requests' in twoInstances && twoInstances.requestsPerSecond > settings.requestsPerSecond * 1.02) {
		console.log(`two instances together went over ${settings.requestsPerSecond} requests/s`)
		return 1
	}
	return 0
}

type TwoInstances = {
	database: 'PostgreSQL'
	rowsPerDatabase: number
	queueBurst: number
	seconds: number
	/** Requests Notion saw from both instances, from the first to the last. */
	requests: number
	rateLimited: number
	/** (requests − the queue's burst) over the time from the first to the last: the pace both kept together. */
	requestsPerSecond: number
	ratioToRequestCeiling: number
	/** The most requests Notion saw start within any one second, and within any ten. */
	maxInOneSecond: number
	maxInTenSeconds: number
	rowsPerSecond: number
	ratioToCeiling: number
	byInstance: { instance: string; database: string; seconds: number; requests: number; rows: number }[]
}

/**
 * Two instances on one throw-away PostgreSQL database, each with its own pool and Notion queue
 * as two processes have, and one Notion workspace. Instance A (the one running jobs) connects it
 * while its Deals databases are empty, so discovery and the first syncs cost a few requests;
 * then both get rows and A syncs one while B syncs the other, at the same time, through the
 * sync job's own handler. Notion (the fake) must see the two together keep to 3 requests/s.
 */
async function runTwoInstances(): Promise<TwoInstances | { skipped: string }> {
	const postgres = await findPostgres()
	if (!postgres.url) {
		return { skipped: `PostgreSQL not reachable: ${postgres.reason}` }
	}
	const rows = settings.twoInstanceRows
	progress(`two instances: ${rows.toLocaleString('en-US')} rows each in two databases of one workspace, on PostgreSQL`)
	const fake = await createFakeNotion({ timestampPrecisionMs: settings.timestampPrecisionMs })
	onCleanup(() => fake.close())
	const seeded = seedFake(fake, ['Deals A', 'Deals B'])
	fake.setRateLimit({ requestsPerSecond: settings.requestsPerSecond, burst: settings.burst })

	const { url } = await createThrowAwayDatabase(postgres.url)
	const authSecret = randomBytes(32).toString('hex')
	const start = async (name: string, database: Database) => {
		const { dir: dataDir } = scratchFolder()
		const config = loadConfig({
			NODE_ENV: 'production',
			DATA_DIR: dataDir,
			DATABASE_URL: url,
			AUTH_SECRET: authSecret,
			PUBLIC_URL: 'http://127.0.0.1:3000',
			LOG_LEVEL: 'error',
			NOTION_API_BASE_URL: fake.url,
			NOTION_REQUESTS_PER_SECOND: String(settings.requestsPerSecond),
			// No scheduled syncs or discoveries in the middle of the measurement.
			SYNC_INTERVAL_SECONDS: '86400',
			RECONCILE_INTERVAL_SECONDS: '86400',
		})
		const services = createServices({ config, database, log: createLogger(config.logLevel) })
		return { name, database, services, spans: observeConnectors(services.workspaces.deps) }
	}
	const databaseA = await openDatabase({ dataDir: scratchFolder().dir, databaseUrl: url })
	onCleanup(() => databaseA.close())
	const databaseB = openPostgres(url)
	onCleanup(() => databaseB.close())
	const a = await start('A', databaseA)
	const b = await start('B', databaseB)
	await a.services.jobs.start()
	onCleanup(() => a.services.jobs.stop(5000))

	const { orgId, userId } = await createAccount(databaseA)
	await connectNotionToken({ ...a.services.workspaces.deps, orgId, userId }, fake.token)
	const [dealsA = '', dealsB = ''] = seeded.dealsIds
	const idA = await waitFor('discovery', async () => (await databaseIdOf(databaseA, dealsA)) ?? undefined)
	const idB = await waitFor('discovery', async () => (await databaseIdOf(databaseA, dealsB)) ?? undefined)
	await waitForSync(databaseA, idA, null)
	await waitForSync(databaseA, idB, null)

	seeded.addDeals(dealsA, rows)
	seeded.addDeals(dealsB, rows)
	// Let the bucket of the fake (and ours) fill up again, as after any quiet spell.
	await new Promise((resolve) => setTimeout(resolve, 1500))
	const from = fake.requests().length
	const sync = async (instance: typeof a, databaseId: string, dataSourceId: string) => {
		const startedAt = Date.now()
		const spansFrom = instance.spans.length
		await instance.services.workspaces.deps.queues.sync.handle({ databaseId, mode: 'full' })
		const synced = await waitForSync(databaseA, databaseId, startedAt)
		const own = instance.spans.slice(spansFrom).filter((span) => span.dataSourceId === dataSourceId)
		return {
			instance: instance.name,
			database: dataSourceId === dealsA ? 'Deals A' : 'Deals B',
			seconds: round((synced.syncedAt - startedAt) / 1000, 2),
			requests: own.reduce((total, span) => total + span.pages, 0),
			rows: synced.rowCount,
		}
	}
	const byInstance = await Promise.all([sync(a, idA, dealsA), sync(b, idB, dealsB)])
	for (const entry of byInstance) {
		if (entry.rows !== rows) {
			throw new Error(`instance ${entry.instance} mirrored ${entry.rows} rows of ${entry.database}, expected ${rows}`)
		}
	}

	const requests = fake.requests().slice(from)
	const times = requests.map((entry) => new Date(entry.at).getTime()).sort((x, y) => x - y)
	const first = times[0] ?? 0
	const seconds = ((times[times.length - 1] ?? 0) - first) / 1000
	const maxIn = (windowMs: number) =>
		Math.max(...times.map((at) => times.filter((other) => other >= at && other < at + windowMs).length))
	const requestsPerSecond = (requests.length - queueBurst) / seconds
	const rowsPerSecond = (2 * rows) / seconds
	return {
		database: 'PostgreSQL',
		rowsPerDatabase: rows,
		queueBurst,
		seconds: round(seconds, 2),
		requests: requests.length,
		rateLimited: requests.filter(isRateLimited).length,
		requestsPerSecond: round(requestsPerSecond, 3),
		ratioToRequestCeiling: round(requestsPerSecond / settings.requestsPerSecond, 3),
		maxInOneSecond: maxIn(1000),
		maxInTenSeconds: maxIn(10_000),
		rowsPerSecond: round(rowsPerSecond, 1),
		ratioToCeiling: round(rowsPerSecond / ceilingRowsPerSecond, 3),
		byInstance,
	}
}

function printTwoInstances(run: TwoInstances): void {
	const header = ['two instances, one workspace', 'seconds', 'requests', '429s', 'requests/s', 'rows/s', 'vs ceiling']
	const body = [
		...run.byInstance.map((entry) => [
			`instance ${entry.instance} (${entry.database}, ${entry.rows.toLocaleString('en-US')} rows)`,
			entry.seconds.toFixed(1),
			String(entry.requests),
			'—',
			'—',
			'—',
			'—',
		]),
		[
			'together (as Notion saw them)',
			run.seconds.toFixed(1),
			String(run.requests),
			String(run.rateLimited),
			run.requestsPerSecond.toFixed(2),
			run.rowsPerSecond.toFixed(0),
			run.ratioToCeiling.toFixed(2),
		],
	]
	printAligned(header, body)
	console.log(
		`two instances together: ${run.requestsPerSecond.toFixed(2)} requests/s = ${run.ratioToRequestCeiling.toFixed(2)} of ${settings.requestsPerSecond}; ` +
			`at most ${run.maxInOneSecond} requests in any one second and ${run.maxInTenSeconds} in any ten ` +
			`(Notion's bucket allows ${settings.burst + settings.requestsPerSecond} and ${settings.burst + 10 * settings.requestsPerSecond})\n`,
	)
}

/**
 * Users, a small Clients data source (the target of a relation) and Deals data sources (one per
 * title) with every common property type; `addDeals` gives one `count` rows a second apart
 * ending now. Values vary with the row, as real ones do; relations and people stay under
 * Notion's 25 per value, so no row needs the extra property-item requests.
 */
function seedFake(fake: FakeNotion, dealsTitles: string[] = ['Deals']) {
	const users = ['Ada Lovelace', 'Grace Hopper', 'Alan Turing', 'Edsger Dijkstra'].map(
		(name) => fake.addUser({ name, email: `${name.split(' ')[0]?.toLowerCase()}@example.com` }).id as string,
	)
	const clients = fake.addDataSource({
		title: 'Clients',
		properties: { Name: { title: {} }, Country: { select: { options: [{ name: 'NL' }, { name: 'DE' }] } } },
	}).id as string
	const clientIds = fake.addPages(clients, 40, {
		properties: (index) => ({ Name: { title: [{ text: { content: `Client ${index + 1}` } }] } }),
	})
	const properties: Record<string, PropertyDefinition> = {
		Name: { title: {} },
		Stage: { select: { options: stages.map((name) => ({ name })) } },
		Status: { status: { options: [{ name: 'Not started' }, { name: 'In progress' }, { name: 'Done' }] } },
		Tags: { multi_select: { options: [{ name: 'Retainer' }, { name: 'Rush' }, { name: 'Fixed price' }] } },
		Amount: { number: { format: 'euro' } },
		Probability: { number: { format: 'percent' } },
		'Close date': { date: {} },
		Owner: { people: {} },
		Client: { relation: { data_source_id: clients, type: 'single_property', single_property: {} } },
		Signed: { checkbox: {} },
		Website: { url: {} },
		'Billing email': { email: {} },
		Phone: { phone_number: {} },
		Contract: { files: {} },
		Notes: { rich_text: {} },
		'Deal no.': { unique_id: { prefix: 'DL' } },
		Weighted: {
			formula: { expression: 'prop("Amount") * prop("Probability")' },
			compute: (row) => ({
				type: 'number',
				number: Math.round((row.number('Amount') ?? 0) * (row.number('Probability') ?? 0) * 100) / 100,
			}),
		},
		Created: { created_time: {} },
		'Created by': { created_by: {} },
		'Last edited': { last_edited_time: {} },
		'Last edited by': { last_edited_by: {} },
	}
	const dealsIds = dealsTitles.map((title) => fake.addDataSource({ title, properties }).id as string)
	const text = (content: string) => [{ text: { content } }]
	const addDeals = (deals: string, count: number) =>
		fake.addPages(deals, count, {
			spacingMs: 1000,
			properties: (index) => ({
				Name: { title: text(`Deal ${index + 1} · ${['Acme', 'Globex', 'Initech', 'Hooli', 'Umbrella'][index % 5]}`) },
				Stage: { select: { name: stages[(index * 7) % stages.length] ?? 'Lead' } },
				Status: { status: { name: ['Not started', 'In progress', 'Done'][index % 3] ?? 'Done' } },
				Tags: { multi_select: [['Retainer'], ['Rush', 'Fixed price'], []][index % 3]?.map((name) => ({ name })) ?? [] },
				Amount: { number: index % 40 === 0 ? null : ((index * 7919) % 1_000_000) / 100 },
				Probability: { number: (index % 10) / 10 },
				'Close date': {
					date: { start: new Date(Date.UTC(2026, 0, 1) + (index % 365) * 86_400_000).toISOString().slice(0, 10) },
				},
				Owner: { people: users.slice(0, 1 + (index % 2)).map((id) => ({ id })) },
				Client: { relation: [{ id: clientIds[index % clientIds.length] ?? '' }] },
				Signed: { checkbox: index % 3 === 0 },
				Website: { url: `https://client${index % 40}.example.com` },
				'Billing email': { email: `billing${index % 40}@client${index % 40}.example.com` },
				Phone: { phone_number: `+31 20 555 ${String(index % 10_000).padStart(4, '0')}` },
				Contract: {
					files:
						index % 4 === 0
							? [{ name: 'contract.pdf', external: { url: `https://files.example.com/${index}.pdf` } }]
							: [],
				},
				Notes: {
					rich_text: text(
						index % 2 === 0 ? `Follow up on deal ${index + 1} after the workshop; send the revised proposal.` : '',
					),
				},
			}),
		})
	return { dealsIds, clients, addDeals, propertyCount: Object.keys(properties).length }
}

/**
 * Wraps the connector factory the sync jobs use (the deps object is shared by reference) to time
 * each connector call of a sync. It observes only: every call goes through to the real connector.
 */
function observeConnectors(deps: ReturnType<typeof createServices>['workspaces']['deps']): Span[] {
	const spans: Span[] = []
	const factory = deps.connectors
	async function* walk<T>(call: string, dataSourceId: string, pages: AsyncIterable<T[]>): AsyncGenerator<T[]> {
		const span: Span = { call, dataSourceId, startedAt: Date.now(), endedAt: 0, pages: 0, items: 0 }
		spans.push(span)
		for await (const page of pages) {
			span.pages += 1
			span.items += page.length
			yield page
		}
		span.endedAt = Date.now()
	}
	deps.connectors = {
		...factory,
		for: (workspace) => {
			const connector: WorkspaceConnector = factory.for(workspace)
			return {
				...connector,
				getDatabase: async (externalId) => {
					const span: Span = {
						call: 'getDatabase',
						dataSourceId: externalId,
						startedAt: Date.now(),
						endedAt: 0,
						pages: 1,
						items: 1,
					}
					spans.push(span)
					const found = await connector.getDatabase(externalId)
					span.endedAt = Date.now()
					return found
				},
				queryRows: (database, options) =>
					walk('queryRows', database.externalId, connector.queryRows(database, options)),
				listRowIds: (database) => walk('listRowIds', database.externalId, connector.listRowIds(database)),
			}
		},
	}
	return spans
}

type Mark = { request: number; span: number }

/** Where the request log and the connector calls stand before a phase. */
function mark(fake: FakeNotion, spans: Span[]): Mark {
	return { request: fake.requests().length, span: spans.length }
}

/** The figures of one sync: from its first connector call to `last_synced_at`, and the requests Notion saw. */
function phase(
	name: string,
	fake: FakeNotion,
	from: Mark,
	spans: Span[],
	dataSourceId: string,
	sync: { syncedAt: number; rowCount: number },
): Phase {
	// The sync's own calls; the small Clients database's first sync runs in the same phase.
	const own = spans.slice(from.span).filter((span) => span.dataSourceId === dataSourceId)
	const startedAt = Math.min(...own.map((span) => span.startedAt))
	const seconds = (sync.syncedAt - startedAt) / 1000
	const sum = (call: string) => own.filter((span) => span.call === call).reduce((total, span) => total + span.items, 0)
	const rowsRead = sum('queryRows')
	const requests = fake
		.requests()
		.slice(from.request)
		.filter((entry) => entry.path.includes(dataSourceId) || entry.route.includes('/pages/'))
	return {
		name,
		seconds: round(seconds, 2),
		rowsRead,
		idsListed: sum('listRowIds'),
		rowsMirrored: sync.rowCount,
		rowsPerSecond: round(rowsRead / seconds, 1),
		requests: requests.length,
		rateLimited: requests.filter(isRateLimited).length,
		byRoute: countBy(requests.map((entry) => `${entry.route}${entry.status === 429 ? ' (429)' : ''}`)),
		calls: own.map((span) => ({
			call: span.call,
			seconds: round((span.endedAt - span.startedAt) / 1000, 2),
			pages: span.pages,
			items: span.items,
		})),
	}
}

function isRateLimited(entry: RequestLogEntry): boolean {
	return entry.fault === 'rate_limited'
}

function countBy(values: string[]): Record<string, number> {
	const counts: Record<string, number> = {}
	for (const value of values) {
		counts[value] = (counts[value] ?? 0) + 1
	}
	return counts
}

/** A user and an organization for the connection to belong to, as sign-up would leave them. */
async function createAccount(database: Database): Promise<{ orgId: string; userId: string }> {
	const userId = 'bench-user'
	const orgId = 'bench-org'
	await query(database, `insert into users (id, name, email) values ($1, 'Bench User', 'bench@bench.test')`, [userId])
	await query(database, `insert into organizations (id, name, slug) values ($1, 'Bench', 'bench')`, [orgId])
	await query(
		database,
		`insert into members (id, organization_id, user_id, role) values ('bench-member', $1, $2, 'owner')`,
		[orgId, userId],
	)
	return { orgId, userId }
}

async function databaseIdOf(database: Database, dataSourceId: string): Promise<string | null> {
	const rows = await query<{ id: string }>(database, 'select id from workspace_databases where external_id = $1', [
		dataSourceId,
	])
	return rows[0]?.id ?? null
}

async function countRows(database: Database, databaseId: string): Promise<number> {
	const rows = await query<{ count: number }>(
		database,
		'select count(*)::int as count from workspace_rows where database_id = $1',
		[databaseId],
	)
	return rows[0]?.count ?? 0
}

/** Waits until the database's sync has finished after `after`; a sync that recorded an error fails the run. */
async function waitForSync(
	database: Database,
	databaseId: string,
	after: number | null,
): Promise<{ syncedAt: number; rowCount: number }> {
	return waitFor('the sync', async () => {
		const [row] = await query<SyncRow>(
			database,
			'select sync_state, last_synced_at, last_error, row_count from workspace_databases where id = $1',
			[databaseId],
		)
		if (row?.last_error) {
			throw new Error(`the sync failed: ${row.last_error}`)
		}
		const syncedAt = row?.last_synced_at ? new Date(row.last_synced_at).getTime() : null
		if (row?.sync_state !== 'idle' || syncedAt === null || (after !== null && syncedAt <= after)) {
			return undefined
		}
		return { syncedAt, rowCount: row.row_count }
	})
}

async function checkEdits(database: Database, databaseId: string, amounts: Map<string, number>): Promise<void> {
	const [record] = await query<{ properties: { id: string; name: string }[] }>(
		database,
		'select properties from workspace_databases where id = $1',
		[databaseId],
	)
	const amountId = record?.properties.find((property) => property.name === 'Amount')?.id
	const rows = await query<{ external_id: string; amount: number | null }>(
		database,
		`select external_id, ("values" -> $2)::text::numeric::float8 as amount from workspace_rows
			where database_id = $1 and external_id = any($3::text[])`,
		[databaseId, amountId, [...amounts.keys()]],
	)
	const wrong = rows.filter((row) => row.amount !== amounts.get(row.external_id))
	if (rows.length !== amounts.size || wrong.length > 0) {
		throw new Error(`the incremental sync missed edits: ${rows.length} rows found, ${wrong.length} with old values`)
	}
}

async function query<T>(database: Database, text: string, params: unknown[] = []): Promise<T[]> {
	if (database.kind === 'pglite') {
		return (await database.pglite.query<T>(text, params)).rows
	}
	return (await database.pool.query(text, params)).rows as T[]
}

async function waitFor<T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 180_000): Promise<T> {
	const deadline = Date.now() + timeoutMs
	for (;;) {
		if (wasInterrupted()) {
			throw new Error('interrupted')
		}
		const value = await read()
		if (value !== undefined) {
			return value
		}
		if (Date.now() > deadline) {
			throw new Error(`timed out waiting for ${what}`)
		}
		await new Promise((resolve) => setTimeout(resolve, 50))
	}
}

function printTable(phases: Phase[]): void {
	const header = ['', 'seconds', 'rows read', 'ids listed', 'requests', '429s', 'rows/s', 'vs ceiling']
	const body = phases.map((entry) => {
		// Rows per second only mean something for the sync that reads every row.
		const isFull = entry.name === 'full sync'
		return [
			entry.name,
			entry.seconds.toFixed(1),
			entry.rowsRead.toLocaleString('en-US'),
			entry.idsListed.toLocaleString('en-US'),
			String(entry.requests),
			String(entry.rateLimited),
			isFull ? entry.rowsPerSecond.toFixed(0) : '—',
			isFull ? (entry.rowsPerSecond / ceilingRowsPerSecond).toFixed(2) : '—',
		]
	})
	printAligned(header, body)
	for (const entry of phases) {
		const calls = entry.calls
			.map((call) => `${call.call} ${call.seconds.toFixed(1)} s / ${call.pages} pages / ${call.items} items`)
			.join('; ')
		const routes = Object.entries(entry.byRoute)
			.map(([route, count]) => `${route} ×${count}`)
			.join(', ')
		console.log(`${entry.name}: ${calls}\n  requests: ${routes}`)
	}
	console.log('')
}

await runBenchmark('the server code', main)
