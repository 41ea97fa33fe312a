// A portal page for a member who sees 100 of 100,000 rows (BENCH_ROWS): the Projects page of a
// portal shared company-wide through the Client relation, read as the portals module reads it
// for the member (the rule compiled to SQL over the mirror's JSONB, the shown properties turned
// into cells, the next-page cursor signed), against the same filtered query on a typed table
// (client_id a column with its own index) holding the same rows, in the same run. Both return
// the member's 100 rows ordered by title. PGlite always; PostgreSQL when reachable. Figures go
// to stdout and bench/results/portals.json. Goal (issue 18): the ratio stays ≤ 3×, and neither
// scans the 100,000 rows (the plan is checked).
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { portalAccessSchema, portalBrandingSchema, portalPageSchema } from '@blocksmith/contracts/portals.ts'
import { sql } from 'drizzle-orm'
import type { Database } from '../apps/server/src/db/client.ts'
import type {
	PortalMemberContext,
	PortalRecord,
	PortalsDeps,
} from '../apps/server/src/features/portals/portals.deps.ts'
import { portalReader } from '../apps/server/src/features/portals/portals.reader.ts'
import { listPortalRows } from '../apps/server/src/features/portals/portals.rows.ts'
import { createLogger } from '../apps/server/src/lib/logger.ts'
import {
	aboutRun,
	findPostgres,
	onScratchPglite,
	onScratchPostgres,
	positiveIntegerFromEnv,
	printAligned,
	progress,
	type RunStart,
	round,
	runBenchmark,
	type Timing,
	timeInterleaved,
	writeResults,
} from './bench-kit.ts'

const settings = {
	rows: positiveIntegerFromEnv('BENCH_ROWS', 100_000),
	/** Each client has rows / clients projects: 100 with the defaults. */
	clients: positiveIntegerFromEnv('BENCH_CLIENTS', 1_000),
	engines: (process.env.BENCH_ENGINES || 'pglite,postgres').split(','),
	warmupRuns: 2,
	runs: positiveIntegerFromEnv('BENCH_RUNS', 20),
}

const org = 'bench-org'
const clientsId = 'bench-clients'
const projectsId = 'bench-projects'
const memberCompany = 'client-ext-7'
const statuses = ['Planned', 'In progress', 'Done']

async function seed(database: Database): Promise<void> {
	const run = (text: string, params: unknown[] = []) =>
		database.kind === 'pglite' ? database.pglite.query(text, params) : database.pool.query(text, params)
	await run(`insert into organizations (id, name, slug) values ($1, 'Bench', 'bench')`, [org])
	await run(
		`insert into workspaces (id, organization_id, tool, name, external_id) values ('bench-ws', $1, 'notion', 'Bench', 'bench-notion')`,
		[org],
	)
	const projectProperties = [
		{ id: 'title', name: 'Name', type: 'title' },
		{ id: 'cl', name: 'Client', type: 'relation', relationDatabaseId: clientsId },
		{
			id: 'st',
			name: 'Status',
			type: 'status',
			options: statuses.map((name, index) => ({ id: `s${index}`, name, color: 'blue' })),
		},
		{ id: 'bu', name: 'Budget', type: 'number', format: 'dollar' },
		{ id: 'tl', name: 'Timeline', type: 'date' },
		{ id: 'br', name: 'Brief', type: 'rich_text' },
	]
	for (const [id, name, properties] of [
		[clientsId, 'Clients', [{ id: 'title', name: 'Name', type: 'title' }]],
		[projectsId, 'Projects', projectProperties],
	] as const) {
		await run(
			`insert into workspace_databases (id, organization_id, workspace_id, external_id, name, properties, last_synced_at)
				values ($1, $2, 'bench-ws', $1, $3, $4::jsonb, now())`,
			[id, org, name, JSON.stringify(properties)],
		)
	}
	const row = `insert into workspace_rows (id, organization_id, database_id, external_id, "values", title, created_time, last_edited_time)`
	await run(
		`${row} select 'client-' || i, $1, $2, 'client-ext-' || i, jsonb_build_object('title', 'Client ' || i), 'Client ' || i, now(), now()
		from generate_series(1, $3::int) i`,
		[org, clientsId, settings.clients],
	)
	await run(
		`${row} select 'project-' || i, $1, $2, 'project-ext-' || i,
			jsonb_build_object(
				'title', 'Project ' || lpad(i::text, 7, '0'),
				'cl', jsonb_build_array('client-ext-' || (i % $4::int + 1)),
				'st', (array['Planned', 'In progress', 'Done'])[1 + i % 3],
				'bu', (i % 97) * 250,
				'tl', jsonb_build_object('start', '2026-0' || (1 + i % 9) || '-15', 'end', null, 'timeZone', null),
				'br', 'A brief of some length for project ' || i || ', as briefs are.'
			), 'Project ' || lpad(i::text, 7, '0'), now(), now()
		from generate_series(1, $3::int) i`,
		[org, projectsId, settings.rows, settings.clients],
	)
	// The typed table a tool made for projects would have: the client as an indexed column.
	await run(`create table typed_projects as
		select external_id as id, title, "values" -> 'cl' ->> 0 as client_id, "values" ->> 'st' as status,
			("values" ->> 'bu')::numeric as budget, ("values" -> 'tl' ->> 'start')::date as timeline, "values" ->> 'br' as brief
		from workspace_rows where database_id = '${projectsId}'`)
	await run('create index typed_projects_client_idx on typed_projects (client_id)')
	await run('vacuum analyze workspace_rows')
	await run('vacuum analyze typed_projects')
}

type EngineResult = {
	engine: 'PGlite' | 'PostgreSQL'
	rows: number
	memberRows: number
	setupSeconds: number
	typed: Timing
	portal: Timing
	ratio: number
	/** Whether each plan reads the rows through an index (never a scan of the whole table). */
	usesIndex: { portal: boolean; typed: boolean }
}

async function measure(engine: EngineResult['engine'], database: Database): Promise<EngineResult> {
	const setupStart = performance.now()
	progress(`${engine}: ${settings.rows.toLocaleString('en-US')} projects, ${settings.clients} clients`)
	await seed(database)
	const setupSeconds = (performance.now() - setupStart) / 1000
	const deps = {
		db: database.db,
		log: createLogger('silent'),
		publicUrl: 'http://localhost:3000',
		authSecret: 'bench-secret-bench-secret-bench-secret',
		now: () => new Date(),
	} as unknown as PortalsDeps
	const page = portalPageSchema.parse({
		id: 'projects',
		title: 'Projects',
		databaseId: projectsId,
		properties: ['cl', 'st', 'bu', 'tl'],
		sort: [{ property: 'title', direction: 'ascending' }],
		rule: { kind: 'company', property: 'cl' },
	})
	const portal = {
		id: 'bench-portal',
		organizationId: org,
		tool: 'notion',
		name: 'Bench',
		slug: 'bench',
		customDomain: null,
		isEnabled: true,
		branding: portalBrandingSchema.parse({}),
		access: portalAccessSchema.parse({ companiesDatabaseId: clientsId }),
		pages: [page],
		forms: [],
		showInvoices: false,
		charts: [],
		people: {},
		createdBy: null,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as PortalRecord
	const member: PortalMemberContext = {
		memberId: 'bench-member',
		sessionId: 'bench-session',
		portalId: portal.id,
		orgId: org,
		email: 'client@example.com',
		name: null,
		companyRowId: memberCompany,
		memberRowId: null,
		personRef: null,
		hasPassword: false,
	}
	const typedQuery = sql`select id, title, client_id, status, budget, timeline from typed_projects
		where client_id = ${memberCompany} order by title, id limit 101`
	const portalCall = async () => listPortalRows(await portalReader(deps, portal, member), 'projects', { limit: 100 })
	const typedCall = () => database.db.execute(typedQuery)
	// Both must give the member's rows, and the same ones, or the comparison means nothing.
	const portalRows = (await portalCall()).rows.map((r) => r.id)
	const typedRows = ((await typedCall()) as unknown as { rows: { id: string }[] }).rows.map((r) => r.id)
	if (portalRows.length !== settings.rows / settings.clients || portalRows.join() !== typedRows.join()) {
		throw new Error(`${engine}: the portal read ${portalRows.length} rows, the typed table ${typedRows.length}`)
	}
	const planOf = async (query: ReturnType<typeof sql>) =>
		JSON.stringify(((await database.db.execute(sql`explain ${query}`)) as unknown as { rows: unknown[] }).rows)
	const portalPlan = await planOf(
		sql`select id from workspace_rows where organization_id = ${org} and database_id = ${projectsId}
			and "values" @> jsonb_build_object('cl'::text, jsonb_build_array(${memberCompany}::text))`,
	)
	const typedPlan = await planOf(typedQuery)
	const [typed, portalTiming] = await timeInterleaved([typedCall, portalCall], {
		warmupRuns: settings.warmupRuns,
		runs: settings.runs,
	})
	if (!typed || !portalTiming) {
		throw new Error('no timings')
	}
	return {
		engine,
		rows: settings.rows,
		memberRows: portalRows.length,
		setupSeconds: round(setupSeconds, 1),
		typed,
		portal: portalTiming,
		ratio: round(portalTiming.medianMs / typed.medianMs, 2),
		usesIndex: { portal: /Index|Bitmap/.test(portalPlan), typed: /Index|Bitmap/.test(typedPlan) },
	}
}

async function main(start: RunStart): Promise<number> {
	const postgres = await findPostgres()
	progress(`${settings.runs} runs, ${os.cpus().length} CPUs`)
	const results: EngineResult[] = []
	if (settings.engines.includes('pglite')) {
		results.push(await onScratchPglite((database) => measure('PGlite', database)))
	}
	if (postgres.url && settings.engines.includes('postgres')) {
		results.push(await onScratchPostgres(postgres.url, (database) => measure('PostgreSQL', database)))
	}
	printAligned(
		['', 'typed ms', 'portal ms', 'portal/typed', 'index used'],
		results.map((result) => [
			`${result.engine} · ${result.memberRows} of ${result.rows.toLocaleString('en-US')} rows`,
			result.typed.medianMs.toFixed(2),
			result.portal.medianMs.toFixed(2),
			`${result.ratio.toFixed(2)}×`,
			`${result.usesIndex.portal ? 'yes' : 'NO'} / ${result.usesIndex.typed ? 'yes' : 'NO'}`,
		]),
	)
	const report = {
		benchmark: 'portals',
		description:
			'a portal page (rule, cells, cursor) for a member who sees 100 of 100,000 rows of the mirror, against the same filtered query on a typed table with the client as an indexed column',
		...aboutRun(start, ['apps/server', 'packages/']),
		settings,
		goals: { ratioAtMost: 3, indexUsed: true },
		results,
		...(postgres.url ? {} : { postgresSkipped: postgres.reason }),
	}
	writeResults(report)
	const failed = results.some((result) => !result.usesIndex.portal || result.ratio > 3)
	return failed ? 1 : 0
}

await runBenchmark('the server code', main)
