// Time reports over a mirrored time database of 100,000 entries (BENCH_ROWS): a view's weekly
// series and its analytics (totals, by project, person, client, task and tag, running entries,
// overlaps), as the reports module computes them from the mirror's JSONB through the mapping
// (time.source.ts), each as a ratio to the same statements over a typed table holding the same
// entries (start_at, end_at, project, … as columns), in the same run. Both split entries into
// local days in Europe/Berlin, round per entry and price each portion. Goal (issue 16): ≤ 2×.
// PGlite always; PostgreSQL when reachable. Figures go to stdout and bench/results/time-reports.json.
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { timeViewSettingsSchema } from '@blocksmith/contracts/time-reports.ts'
import { sql } from 'drizzle-orm'
import type { Database } from '../apps/server/src/db/client.ts'
import type { TimeDeps } from '../apps/server/src/features/time/time.deps.ts'
import { reportQueryOf, viewAnalytics, viewSeries } from '../apps/server/src/features/time/time.reports.ts'
import { analyticsSql, seriesSql } from '../apps/server/src/features/time/time.reports-sql.ts'
import { sourceSql } from '../apps/server/src/features/time/time.source.ts'
import type { ReportView } from '../apps/server/src/features/time/time.views.ts'
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
	/** BENCH_ENGINES=pglite or postgres: one engine only (both by default). */
	engines: (process.env.BENCH_ENGINES || 'pglite,postgres').split(','),
	warmupRuns: 1,
	runs: positiveIntegerFromEnv('BENCH_RUNS', 5),
}

const now = new Date('2026-11-24T12:00:00Z')
const org = 'bench-org'
const entriesId = 'bench-time-entries'
const projectsId = 'bench-projects'
const clientsId = 'bench-clients'
const p = { title: 'title', when: 'wh%3En', person: 'pe%40r', project: 'pr%3Bj', tags: 'tg%5Es', billable: 'bi%3Dl' }

/** A Notion-like mirror: clients, projects (each with a client), and entries over two years, built in SQL. */
async function seed(database: Database, rows: number): Promise<void> {
	const run = (text: string, params: unknown[] = []) =>
		database.kind === 'pglite' ? database.pglite.query(text, params) : database.pool.query(text, params)
	await run(`insert into organizations (id, name, slug) values ($1, 'Bench', 'bench')`, [org])
	await run(
		`insert into workspaces (id, organization_id, tool, name, external_id) values ('bench-ws', $1, 'notion', 'Bench', 'bench-notion')`,
		[org],
	)
	const option = (name: string, index: number) => ({ id: `opt-${index}`, name, color: 'default' })
	const databases = [
		[clientsId, 'Clients', [{ id: 'title', name: 'Name', type: 'title' }]],
		[
			projectsId,
			'Projects',
			[
				{ id: 'title', name: 'Name', type: 'title' },
				{ id: 'cl', name: 'Client', type: 'relation', relationDatabaseId: clientsId },
			],
		],
		[
			entriesId,
			'Time entries',
			[
				{ id: p.title, name: 'Description', type: 'title' },
				{ id: p.when, name: 'When', type: 'date' },
				{ id: p.person, name: 'Person', type: 'people' },
				{ id: p.project, name: 'Project', type: 'relation', relationDatabaseId: projectsId },
				{ id: p.tags, name: 'Tags', type: 'multi_select', options: ['Meeting', 'Deep work', 'Admin'].map(option) },
				{ id: p.billable, name: 'Billable', type: 'checkbox' },
			],
		],
	] as const
	for (const [id, name, properties] of databases) {
		await run(
			`insert into workspace_databases (id, organization_id, workspace_id, external_id, name, properties)
				values ($1, $2, 'bench-ws', $1, $3, $4::jsonb)`,
			[id, org, name, JSON.stringify(properties)],
		)
	}
	const row = `insert into workspace_rows (id, organization_id, database_id, external_id, "values", title, created_time, last_edited_time)`
	await run(
		`${row} select 'client-' || i, $1, $2, 'client-ext-' || i, jsonb_build_object('title', 'Client ' || i), 'Client ' || i, now(), now()
		from generate_series(1, 10) i`,
		[org, clientsId],
	)
	await run(
		`${row} select 'project-' || i, $1, $2, 'project-ext-' || i,
			jsonb_build_object('title', 'Project ' || i, 'cl', jsonb_build_array('client-ext-' || (i % 10 + 1))), 'Project ' || i, now(), now()
		from generate_series(1, 40) i`,
		[org, projectsId],
	)
	// Entries every ~10 minutes over two years, 1 minute to 4 hours long (some cross midnight and DST).
	await run(
		`${row} select md5('entry' || i)::uuid::text, $1, $2, md5('page' || i)::uuid::text,
			jsonb_build_object(
				'${p.title}', 'Entry ' || i,
				'${p.when}', jsonb_build_object(
					'start', to_char(s at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
					'end', to_char((s + ((60 + (i * 7919) % 14340) * interval '1 second')) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
					'timeZone', null),
				'${p.person}', jsonb_build_array('user-' || (i % 12)),
				'${p.project}', case when i % 20 = 0 then '[]'::jsonb else jsonb_build_array('project-ext-' || (i % 40 + 1)) end,
				'${p.tags}', (array['[]', '["Meeting"]', '["Deep work", "Admin"]', '["Admin"]'])[1 + i % 4]::jsonb,
				'${p.billable}', i % 3 <> 0
			), 'Entry ' || i, s, s
		from (select i, timestamptz '2025-01-01 00:00:00+00' + i * interval '631 seconds' as s from generate_series(1, $3::int) i) g`,
		[org, entriesId, rows],
	)
	const mapping = {
		start: p.when,
		end: p.when,
		duration: null,
		durationUnit: 'hours',
		person: p.person,
		project: p.project,
		client: { propertyId: 'cl', through: 'project' },
		task: null,
		tags: p.tags,
		billable: p.billable,
		description: p.title,
	}
	const rates = { currency: 'EUR', defaultRate: 9000, projectRateProperty: null, projects: [], members: [] }
	await run(
		`insert into time_databases (id, organization_id, database_id, mapping, rates) values ('bench-td', $1, $2, $3::jsonb, $4::jsonb)`,
		[org, entriesId, JSON.stringify(mapping), JSON.stringify(rates)],
	)
	await run('vacuum analyze workspace_rows')
}

type CaseResult = { typed: Timing; mirror: Timing; ratio: number }
type EngineResult = {
	engine: 'PGlite' | 'PostgreSQL'
	rows: number
	setupSeconds: number
	cases: Record<string, CaseResult>
}

const view: ReportView = {
	id: null,
	name: 'Bench',
	databaseId: entriesId,
	databaseName: 'Time entries',
	tool: 'notion',
	settings: timeViewSettingsSchema.parse({
		range: { kind: 'fixed', from: '2025-01-01', to: '2026-12-31' },
		timeZone: 'Europe/Berlin',
		rounding: { mode: 'up', minutes: 15, scope: 'entry' },
	}),
}

async function measure(engine: EngineResult['engine'], database: Database, rows: number): Promise<EngineResult> {
	const setupStart = performance.now()
	progress(`${engine}: ${rows.toLocaleString('en-US')} entries`)
	await seed(database, rows)
	const deps: TimeDeps = {
		db: database.db,
		log: createLogger('silent'),
		workspaces: {} as TimeDeps['workspaces'],
		now: () => now,
	}
	const q = await reportQueryOf(deps, org, view, now)
	// The typed table: the entries with their columns read once, as a table designed for time would hold them.
	await database.db.execute(sql`create table typed as select * from ${sourceSql(q.target, now)} s`)
	await database.db.execute(sql`vacuum analyze typed`)
	const setupSeconds = (performance.now() - setupStart) / 1000
	const typed = { ...q, source: sql`typed` }
	// Both must give the same figures, or the comparison means nothing.
	const rowsOf = (result: unknown) =>
		(result as { rows: unknown[] }).rows
			.map((row) => JSON.stringify(row))
			.sort()
			.join('\n')
	for (const statement of [analyticsSql, (query: typeof q) => seriesSql(query, 'week', undefined)]) {
		const [a, b] = [
			rowsOf(await database.db.execute(statement(q))),
			rowsOf(await database.db.execute(statement(typed))),
		]
		if (a !== b) {
			throw new Error(`${engine}: the typed table and the mirror disagree`)
		}
	}
	const cases = {
		weekly: [
			() => database.db.execute(seriesSql(typed, 'week', undefined)),
			() => viewSeries(deps, org, view, 'week', undefined, now),
		],
		analytics: [() => database.db.execute(analyticsSql(typed)), () => viewAnalytics(deps, org, view, now)],
	} as const
	const results: Record<string, CaseResult> = {}
	for (const [key, calls] of Object.entries(cases)) {
		const [typedTiming, mirrorTiming] = await timeInterleaved([...calls], {
			warmupRuns: settings.warmupRuns,
			runs: settings.runs,
			digits: 1,
		})
		if (!typedTiming || !mirrorTiming) {
			throw new Error('no timings')
		}
		results[key] = {
			typed: typedTiming,
			mirror: mirrorTiming,
			ratio: round(mirrorTiming.medianMs / typedTiming.medianMs, 2),
		}
	}
	return { engine, rows, setupSeconds: round(setupSeconds, 1), cases: results }
}

function onPglite(rows: number): Promise<EngineResult> {
	return onScratchPglite((database) => measure('PGlite', database, rows))
}

function onPostgres(adminUrl: string, rows: number): Promise<EngineResult> {
	return onScratchPostgres(adminUrl, (database) => measure('PostgreSQL', database, rows))
}

const labels = { weekly: 'weekly series', analytics: 'analytics (totals, 5 groupings, overlaps)' } as const

async function main(start: RunStart): Promise<number> {
	const postgres = await findPostgres()
	progress(`${settings.rows.toLocaleString('en-US')} entries, ${settings.runs} runs, ${os.cpus().length} CPUs`)
	const results: EngineResult[] = []
	if (settings.engines.includes('pglite')) {
		results.push(await onPglite(settings.rows))
	}
	if (postgres.url && settings.engines.includes('postgres')) {
		results.push(await onPostgres(postgres.url, settings.rows))
	}
	printAligned(
		['', 'typed ms', 'mirror ms', 'mirror/typed'],
		results.flatMap((result) =>
			Object.entries(labels).map(([key, label]) => {
				const measured = result.cases[key] as CaseResult
				return [
					`${result.engine} ${result.rows.toLocaleString('en-US')} · ${label}`,
					measured.typed.medianMs.toFixed(1),
					measured.mirror.medianMs.toFixed(1),
					`${measured.ratio.toFixed(2)}×`,
				]
			}),
		),
	)
	const report = {
		benchmark: 'time-reports',
		description:
			"a time view's weekly series and analytics from the mirror's JSONB through the mapping, against the same statements over a typed table of the same entries",
		...aboutRun(start, ['apps/server', 'packages/']),
		settings: { ...settings, view: view.settings },
		goals: { ratioAtMost: 2 },
		results,
		...(postgres.url ? {} : { postgresSkipped: postgres.reason }),
	}
	writeResults(report)
	return 0
}

await runBenchmark('the server code', main)
