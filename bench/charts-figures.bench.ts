// A chart's figures over a mirrored database of 100,000 rows (and 1,000,000 with
// BENCH_LARGE_ROWS), as the charts module computes them: first computation (the figures
// engine's SQL over the database's typed projection, decision 022), the same before the
// projection is built (JSONB), and a repeated load of the unchanged chart (its cache), each as a
// ratio to the same aggregation on a plain typed table holding the same rows, in the same run;
// and how long building the projection takes. Goals (issue 13): first ≤ 2× the typed table, repeated ≤ 0.1×. PGlite always; PostgreSQL
// when reachable. Figures go to stdout and to bench/results/charts-figures.json.
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { type ChartConfig, chartConfigSchema } from '@blocksmith/contracts/charts.ts'
import type { Database } from '../apps/server/src/db/client.ts'
import { computeFigures } from '../apps/server/src/features/charts/charts.figures.ts'
import { chartFiguresOf } from '../apps/server/src/features/charts/charts.output.ts'
import { buildProjection } from '../apps/server/src/features/charts/charts.projection.ts'
import { charts } from '../apps/server/src/features/charts/charts.schema.ts'
import { createLogger } from '../apps/server/src/lib/logger.ts'
import { workspaceDatabases } from '../apps/server/src/workspaces/workspaces.schema.ts'
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
import { ids, type Sql, seedMirror } from './mirror-seed.ts'

const settings = {
	rows: positiveIntegerFromEnv('BENCH_ROWS', 100_000),
	/** A second, larger size (e.g. 1000000); none unless set. */
	largeRows: process.env.BENCH_LARGE_ROWS ? positiveIntegerFromEnv('BENCH_LARGE_ROWS', 1_000_000) : null,
	/** BENCH_ENGINES=pglite or postgres: one engine only (both by default). */
	engines: (process.env.BENCH_ENGINES || 'pglite,postgres').split(','),
	warmupRuns: 2,
	runs: positiveIntegerFromEnv('BENCH_RUNS', 9),
}

const now = new Date('2026-11-24T12:00:00Z')

/** The charts measured, each with the same aggregation written for the typed table. */
const cases: { key: string; label: string; config: ChartConfig; typed: string }[] = [
	{
		key: 'sumByStage',
		label: 'sum of amount by stage',
		config: chartConfigSchema.parse({
			type: 'bar',
			x: { property: ids.stage },
			series: [{ id: 's', aggregation: 'sum', property: ids.amount }],
		}),
		typed: 'select stage, sum(amount) from typed group by 1',
	},
	{
		key: 'countByMonth',
		label: 'count by month of due date',
		config: chartConfigSchema.parse({
			type: 'line',
			x: { property: ids.due, bucket: 'month' },
			series: [{ id: 's', aggregation: 'count' }],
		}),
		typed: `select date_trunc('month', due), count(*) from typed group by 1`,
	},
	{
		key: 'sumByTagStacked',
		label: 'sum of amount by tag, stacked by stage',
		config: chartConfigSchema.parse({
			type: 'bar',
			x: { property: ids.tags },
			series: [{ id: 's', aggregation: 'sum', property: ids.amount }],
			breakdown: { property: ids.stage },
		}),
		typed: 'select tag, stage, sum(amount) from typed, unnest(tags) as tag group by 1, 2',
	},
]

type CaseResult = {
	typed: Timing
	first: Timing
	firstFromJsonb: Timing
	repeated: Timing
	firstRatio: number
	firstFromJsonbRatio: number
	repeatedRatio: number
}
type EngineResult = {
	engine: 'PGlite' | 'PostgreSQL'
	rows: number
	setupSeconds: number
	projectionBuildSeconds: number
	cases: Record<string, CaseResult>
}

async function main(start: RunStart): Promise<number> {
	const postgres = await findPostgres()
	const sizes = [settings.rows, ...(settings.largeRows ? [settings.largeRows] : [])]
	progress(
		`${sizes.map((n) => n.toLocaleString('en-US')).join(' and ')} rows, ${settings.runs} runs, ${os.cpus().length} CPUs`,
	)
	const results: EngineResult[] = []
	for (const rows of sizes) {
		if (settings.engines.includes('pglite')) {
			results.push(await onPglite(rows))
		}
		if (postgres.url && settings.engines.includes('postgres')) {
			results.push(await onPostgres(postgres.url, rows))
		}
	}
	printTable(results)
	const report = {
		benchmark: 'charts-figures',
		description:
			"a chart's figures from the mirror (first computation, and a repeated load of the unchanged chart from its cache), each against the same aggregation on a typed table with the same rows",
		...aboutRun(start, ['apps/server', 'packages/']),
		settings: { ...settings, cases: cases.map(({ key, label, typed }) => ({ key, label, typed })) },
		goals: { firstRatioAtMost: 2, repeatedRatioAtMost: 0.1 },
		results,
		...(postgres.url ? {} : { postgresSkipped: postgres.reason }),
	}
	writeResults(report)
	return 0
}

function onPglite(rows: number): Promise<EngineResult> {
	return onScratchPglite((database) => measure('PGlite', database, rows))
}

function onPostgres(adminUrl: string, rows: number): Promise<EngineResult> {
	return onScratchPostgres(adminUrl, (database) => measure('PostgreSQL', database, rows))
}

function sqlOf(database: Database): Sql {
	if (database.kind === 'pglite') {
		const { pglite } = database
		return {
			query: async (text, params) => ({ rows: (await pglite.query<Record<string, unknown>>(text, params)).rows }),
		}
	}
	const { pool } = database
	return { query: async (text, params) => ({ rows: (await pool.query<Record<string, unknown>>(text, params)).rows }) }
}

async function measure(engine: EngineResult['engine'], database: Database, rows: number): Promise<EngineResult> {
	const sql = sqlOf(database)
	const setupStart = performance.now()
	progress(`${engine}: ${rows.toLocaleString('en-US')} rows`)
	const databaseId = await seedMirror(sql, rows)
	await sql.query(
		`create table typed as select
			"values" ->> $1 as stage,
			case when jsonb_typeof("values" -> $2) = 'number' then ("values" -> $2)::text::numeric end as amount,
			("values" -> $3 ->> 'start')::date as due,
			array(select jsonb_array_elements_text("values" -> $4)) as tags
		from workspace_rows where database_id = $5`,
		[ids.stage, ids.amount, ids.due, ids.tags, databaseId],
	)
	await sql.query('vacuum analyze typed')
	const setupSeconds = (performance.now() - setupStart) / 1000
	const [record] = await database.db.select().from(workspaceDatabases)
	if (!record) {
		throw new Error('no database seeded')
	}
	const deps = {
		db: database.db,
		log: createLogger('silent'),
		publicUrl: 'http://localhost',
		now: () => now,
		requestProjection: () => {
			throw new Error('the projection is built before measuring')
		},
	}
	// The charts are saved first: the projection holds what the database's charts read.
	const saved = await database.db
		.insert(charts)
		.values(
			cases.map((chartCase) => ({
				id: `bench-${chartCase.key}`,
				organizationId: record.organizationId,
				tool: 'notion' as const,
				databaseId: record.id,
				name: chartCase.label,
				config: chartCase.config,
			})),
		)
		.returning()
	const buildStart = performance.now()
	if ((await buildProjection(database.db, record.id)) !== 'built') {
		throw new Error('the projection was not built')
	}
	const projectionBuildSeconds = (performance.now() - buildStart) / 1000
	const results: Record<string, CaseResult> = {}
	for (const chartCase of cases) {
		const chart = saved.find((candidate) => candidate.id === `bench-${chartCase.key}`)
		if (!chart) {
			throw new Error('no chart')
		}
		const properties = { id: record.id, properties: record.properties }
		// Both paths must give the same figures, or the comparison means nothing.
		const fromProjection = await computeFigures(database.db, properties, chartCase.config, { now, useProjection: true })
		const fromJsonb = await computeFigures(database.db, properties, chartCase.config, { now })
		if (JSON.stringify(fromProjection.series) !== JSON.stringify(fromJsonb.series)) {
			throw new Error(`${engine}: ${chartCase.label}: the projection and JSONB disagree`)
		}
		const [typed, first, firstFromJsonb, repeated] = await timeInterleaved(
			[
				() => sql.query(chartCase.typed),
				() => computeFigures(database.db, properties, chartCase.config, { now, useProjection: true }),
				() => computeFigures(database.db, properties, chartCase.config, { now }),
				() => chartFiguresOf(deps, chart, record, chartCase.config),
			],
			{ warmupRuns: settings.warmupRuns, runs: settings.runs },
		)
		if (!typed || !first || !firstFromJsonb || !repeated) {
			throw new Error('no timings')
		}
		results[chartCase.key] = {
			typed,
			first,
			firstFromJsonb,
			repeated,
			firstRatio: round(first.medianMs / typed.medianMs, 2),
			firstFromJsonbRatio: round(firstFromJsonb.medianMs / typed.medianMs, 2),
			repeatedRatio: round(repeated.medianMs / typed.medianMs, 3),
		}
	}
	return {
		engine,
		rows,
		setupSeconds: round(setupSeconds, 1),
		projectionBuildSeconds: round(projectionBuildSeconds, 2),
		cases: results,
	}
}

function printTable(results: EngineResult[]): void {
	const body = results.flatMap((result) =>
		cases.map((chartCase) => {
			const measured = result.cases[chartCase.key] as CaseResult
			return [
				`${result.engine} ${result.rows.toLocaleString('en-US')} · ${chartCase.label}`,
				measured.typed.medianMs.toFixed(1),
				measured.first.medianMs.toFixed(1),
				measured.firstFromJsonb.medianMs.toFixed(1),
				measured.repeated.medianMs.toFixed(2),
				`${measured.firstRatio.toFixed(2)}×`,
				`${measured.firstFromJsonbRatio.toFixed(2)}×`,
				`${measured.repeatedRatio.toFixed(3)}×`,
			]
		}),
	)
	printAligned(
		['', 'typed ms', 'first ms', 'JSONB ms', 'repeated ms', 'first/typed', 'JSONB/typed', 'repeated/typed'],
		body,
	)
	for (const result of results) {
		console.log(
			`${result.engine} ${result.rows.toLocaleString('en-US')}: projection built in ${result.projectionBuildSeconds} s`,
		)
	}
}

await runBenchmark('the server code', main)
