// The query a chart of a Notion mirror runs — one select property grouped, one number property
// summed — over 100,000 rows of `workspace_rows` (values as JSONB, the real migrated schema),
// next to the same group-by on a plain typed table holding the same rows, in the same run.
// On PGlite (embedded, the default) and on PostgreSQL when one is reachable. Figures go to
// stdout and to bench/results/.
import os from 'node:os'
import { performance } from 'node:perf_hooks'
import { type Database, openDatabase } from '../apps/server/src/db/client.ts'
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
	writeResults,
} from './bench-kit.ts'
import { ids, type Sql, seedMirror, stages } from './mirror-seed.ts'

const settings = {
	rows: positiveIntegerFromEnv('BENCH_ROWS', 100_000),
	warmupRuns: 3,
	runs: positiveIntegerFromEnv('BENCH_RUNS', 15),
}

/**
 * The chart's query, as the rows query reads numbers (`rows.query.ts`): a value that is not a
 * JSON number counts as empty rather than failing the cast. Parameters as Drizzle sends them.
 */
const mirrorQuery = {
	text: `select "values" ->> $1 as stage,
		sum(case when jsonb_typeof("values" -> $2) = 'number' then ("values" -> $2)::text::numeric end) as amount
		from workspace_rows where database_id = $3 group by 1`,
	label: 'mirror (JSONB)',
}
const plainQuery = { text: 'select stage, sum(amount) as amount from plain group by 1', label: 'plain table' }

/** Variants that show where the time goes, and what a production design could do about it. */
const variants = [
	{
		key: 'unguardedCast',
		label: 'mirror, bare cast',
		why: "`(values ->> amount)::numeric` without the jsonb_typeof guard: the guard's share of the cost (unsafe: one text value in the column fails the whole chart)",
		text: `select "values" ->> $1 as stage, sum(("values" ->> $2)::numeric) as amount
			from workspace_rows where database_id = $3 group by 1`,
	},
	{
		key: 'subqueryFence',
		label: 'mirror, subquery',
		why: 'the same expressions in a subquery behind `offset 0`: the planner no longer takes every row for its own group (no statistics on a JSONB expression), so it hashes 7 groups instead of sorting 100k wide rows. No schema change',
		text: `select stage, sum(amount) as amount from (
			select "values" ->> $1 as stage,
				case when jsonb_typeof("values" -> $2) = 'number' then ("values" -> $2)::text::numeric end as amount
			from workspace_rows where database_id = $3 offset 0) as picked
			group by 1`,
	},
	{
		key: 'expressionIndex',
		label: 'mirror + expr. index',
		why: 'the plain query after an expression index on (database_id, stage, amount) and ANALYZE: the index is never scanned (a full group-by reads every row, and expressions are not answered from an index-only scan), but the statistics ANALYZE keeps for its expressions give the planner the real group count',
		text: `select "values" ->> $1 as stage,
			sum(case when jsonb_typeof("values" -> $2) = 'number' then ("values" -> $2)::text::numeric end) as amount
			from workspace_rows where database_id = $3 group by 1`,
	},
	{
		key: 'extractedColumns',
		label: 'wide, typed columns',
		why: 'a copy of workspace_rows with stage and amount extracted into typed columns next to the JSONB: the cost of the row width alone, without JSON',
		text: 'select stage, sum(amount) as amount from wide_extracted where database_id = $1 group by 1',
		onlyDatabaseId: true,
	},
] as const

type Timing = { medianMs: number; minMs: number; maxMs: number; samplesMs: number[] }
type EngineResult = {
	engine: 'PGlite' | 'PostgreSQL'
	setupSeconds: number
	rowBytes: { mirrorAvg: number; plainAvg: number }
	tableMiB: { mirror: number; plain: number }
	groups: number
	mirror: Timing
	plain: Timing
	ratio: number
	variants: Record<string, Timing & { ratioToPlain: number; plan: string }>
}

async function main(start: RunStart): Promise<number> {
	const postgres = await findPostgres()
	progress(
		`${settings.rows.toLocaleString('en-US')} rows, ${settings.warmupRuns} warm-up + ${settings.runs} runs per query, ${os.cpus().length} CPUs`,
	)

	const results: EngineResult[] = []
	results.push(await measurePglite())
	if (postgres.url) {
		results.push(await measurePostgres(postgres.url))
	}

	printTable(results)

	const report = {
		benchmark: 'mirror-group',
		description:
			'select <select property>, sum(<number property>) group by 1 over workspace_rows (JSONB values), against the same group-by on a plain (stage text, amount numeric) table with the same rows',
		...aboutRun(start, ['apps/server', 'packages/']),
		settings: { ...settings, stages: stages.length, queries: { mirror: mirrorQuery.text, plain: plainQuery.text } },
		results,
		variants: variants.map(({ key, label, why, text }) => ({ key, label, why, query: text })),
		...(postgres.url ? {} : { postgresSkipped: postgres.reason }),
	}
	writeResults(report)
	return 0
}

async function measurePglite(): Promise<EngineResult> {
	const dataDir = scratchFolder()
	progress('PGlite: migrating a fresh data folder')
	const database = await openDatabase({ dataDir: dataDir.dir })
	const close = onCleanup(() => database.close())
	try {
		return await measureEngine('PGlite', sqlOf(database))
	} finally {
		await close()
		await dataDir.remove()
	}
}

async function measurePostgres(adminUrl: string): Promise<EngineResult> {
	const scratch = await createThrowAwayDatabase(adminUrl)
	progress('PostgreSQL: migrating a throw-away database')
	const database = await openDatabase({ dataDir: os.tmpdir(), databaseUrl: scratch.url })
	const close = onCleanup(() => database.close())
	try {
		return await measureEngine('PostgreSQL', sqlOf(database))
	} finally {
		await close()
		await scratch.drop()
	}
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

async function measureEngine(engine: EngineResult['engine'], sql: Sql): Promise<EngineResult> {
	const setupStart = performance.now()
	progress(`${engine}: inserting ${settings.rows.toLocaleString('en-US')} rows`)
	const databaseId = await seed(sql)
	const setupSeconds = (performance.now() - setupStart) / 1000
	const params = [ids.stage, ids.amount, databaseId]

	// Both queries must say the same thing, or the comparison means nothing.
	const mirrorAnswer = normalise((await sql.query(mirrorQuery.text, params)).rows)
	const plainAnswer = normalise((await sql.query(plainQuery.text)).rows)
	if (JSON.stringify(mirrorAnswer) !== JSON.stringify(plainAnswer)) {
		throw new Error(
			`${engine}: the two queries disagree:\n${JSON.stringify(mirrorAnswer)}\n${JSON.stringify(plainAnswer)}`,
		)
	}

	progress(`${engine}: timing the group-by (mirror and plain, interleaved)`)
	const [mirror, plain] = await timeInterleaved(sql, [
		{ text: mirrorQuery.text, params },
		{ text: plainQuery.text, params: [] },
	])
	if (!mirror || !plain) {
		throw new Error('no timings')
	}

	progress(`${engine}: timing the variants`)
	const variantResults: EngineResult['variants'] = {}
	await sql.query(
		`create table wide_extracted as select *, "values" ->> '${ids.stage}' as stage,
			case when jsonb_typeof("values" -> '${ids.amount}') = 'number' then ("values" -> '${ids.amount}')::text::numeric end as amount
			from workspace_rows`,
	)
	await sql.query('vacuum analyze wide_extracted')
	for (const variant of variants) {
		if (variant.key === 'expressionIndex') {
			await sql.query(
				`create index bench_stage_amount_idx on workspace_rows (database_id, ("values" ->> '${ids.stage}'),
					(case when jsonb_typeof("values" -> '${ids.amount}') = 'number' then ("values" -> '${ids.amount}')::text::numeric end))`,
			)
			await sql.query('vacuum analyze workspace_rows')
		}
		const variantParams = 'onlyDatabaseId' in variant ? [databaseId] : params
		const answer = normalise((await sql.query(variant.text, variantParams)).rows)
		if (JSON.stringify(answer) !== JSON.stringify(plainAnswer)) {
			throw new Error(`${engine}: ${variant.label} disagrees with the plain table`)
		}
		const [timing] = await timeInterleaved(sql, [{ text: variant.text, params: variantParams }])
		if (!timing) {
			throw new Error('no timing')
		}
		const plan = await explain(sql, variant.text, variantParams)
		variantResults[variant.key] = { ...timing, ratioToPlain: round(timing.medianMs / plain.medianMs, 2), plan }
		if (variant.key === 'expressionIndex') {
			await sql.query('drop index bench_stage_amount_idx')
		}
	}

	const sizes = await sql.query(
		`select avg(pg_column_size(w.*))::int as mirror_row, (select avg(pg_column_size(p.*))::int from plain p) as plain_row,
			pg_total_relation_size('workspace_rows') as mirror_bytes, pg_total_relation_size('plain') as plain_bytes
			from workspace_rows w`,
	)
	const size = sizes.rows[0] ?? {}
	return {
		engine,
		setupSeconds: round(setupSeconds, 1),
		rowBytes: { mirrorAvg: Number(size.mirror_row), plainAvg: Number(size.plain_row) },
		tableMiB: {
			mirror: round(Number(size.mirror_bytes) / 2 ** 20, 1),
			plain: round(Number(size.plain_bytes) / 2 ** 20, 1),
		},
		groups: plainAnswer.length,
		mirror,
		plain,
		ratio: round(mirror.medianMs / plain.medianMs, 2),
		variants: variantResults,
	}
}

/** The mirror's rows (mirror-seed.ts), then the plain table filled from the same rows. */
async function seed(sql: Sql): Promise<string> {
	const databaseId = await seedMirror(sql, settings.rows)
	await sql.query('create table plain (stage text, amount numeric)')
	await sql.query(
		`insert into plain select "values" ->> $1,
			case when jsonb_typeof("values" -> $2) = 'number' then ("values" -> $2)::text::numeric end
			from workspace_rows where database_id = $3`,
		[ids.stage, ids.amount, databaseId],
	)
	await sql.query('vacuum analyze plain')
	return databaseId
}

/** Warm-up, then `settings.runs` rounds of every query in turn, so drift hits them alike. */
async function timeInterleaved(sql: Sql, queries: { text: string; params: unknown[] }[]): Promise<Timing[]> {
	for (let run = 0; run < settings.warmupRuns; run++) {
		for (const query of queries) {
			await sql.query(query.text, query.params)
		}
	}
	const samples = queries.map((): number[] => [])
	for (let run = 0; run < settings.runs; run++) {
		for (const [index, query] of queries.entries()) {
			const start = performance.now()
			await sql.query(query.text, query.params)
			samples[index]?.push(performance.now() - start)
		}
	}
	return samples.map((values) => {
		const sorted = [...values].sort((a, b) => a - b)
		return {
			medianMs: round(median(sorted), 2),
			minMs: round(sorted[0] ?? 0, 2),
			maxMs: round(sorted[sorted.length - 1] ?? 0, 2),
			samplesMs: values.map((value) => round(value, 2)),
		}
	})
}

async function explain(sql: Sql, text: string, params: unknown[]): Promise<string> {
	const result = await sql.query(`explain ${text}`, params)
	return result.rows.map((row) => String(row['QUERY PLAN'] ?? '')).join('\n')
}

/** Groups sorted, sums as fixed-point strings: both engines and both tables answer alike. */
function normalise(rows: Record<string, unknown>[]): [string, string][] {
	return rows
		.map((row): [string, string] => [String(row.stage ?? '∅'), Number(row.amount ?? 0).toFixed(2)])
		.sort((a, b) => a[0].localeCompare(b[0]))
}

function median(sorted: number[]): number {
	const middle = Math.floor(sorted.length / 2)
	return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

function printTable(results: EngineResult[]): void {
	const header = ['', 'median ms', 'min ms', 'max ms', '× plain']
	const body: string[][] = []
	for (const result of results) {
		const line = (label: string, timing: Timing, ratio: string) => [
			`${result.engine} · ${label}`,
			timing.medianMs.toFixed(1),
			timing.minMs.toFixed(1),
			timing.maxMs.toFixed(1),
			ratio,
		]
		body.push(line(plainQuery.label, result.plain, '1.00'))
		body.push(line(mirrorQuery.label, result.mirror, result.ratio.toFixed(2)))
		for (const variant of variants) {
			const timing = result.variants[variant.key]
			if (timing) {
				body.push(line(variant.label, timing, timing.ratioToPlain.toFixed(2)))
			}
		}
	}
	printAligned(header, body)
	for (const result of results) {
		console.log(
			`${result.engine}: ${result.groups} groups; rows ${result.rowBytes.mirrorAvg} B (mirror) vs ${result.rowBytes.plainAvg} B (plain); ` +
				`tables ${result.tableMiB.mirror} MiB vs ${result.tableMiB.plain} MiB; setup ${result.setupSeconds} s`,
		)
	}
}

await runBenchmark('the server code', main)
