// "Your data" (issue 20) on the embedded database, for one organization of realistic size: a
// built-in database of 50,000 rows (BENCH_ROWS), a form with 20,000 answers (BENCH_ANSWERS) and
// 200 uploaded files of 50 KB (BENCH_FILES, BENCH_FILE_KB), and 5,000 finished jobs of pg-boss's
// (BENCH_JOBS), seeded in SQL into a fresh data folder with the app's services built on it as
// `npm start` builds them. Three measurements, each
// against a baseline taken in the same run:
// 1. backup: createBackup's whole time against the system's `tar czf` of the same data folder,
//    and how long it holds the database: the longest wait of a stream of `select 1` sent
//    through the app's db while it runs (the time inside runAlone, as requests feel it);
// 2. export: the real build job against the same rows read by plain SQL and written as CSV
//    into a ZIP with yazl, taking turns (BENCH_EXPORT_RUNS, 3), with each one's archive size and
//    peak RSS growth;
// 3. purge: purgeDue on the organization against `delete from organizations` alone on an
//    identical copy of the data folder.
// Figures go to stdout and bench/results/your-data.json.
import { execFileSync } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import { createWriteStream, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { Readable } from 'node:stream'
import { formFieldSchema, formPageSchema } from '@blocksmith/contracts/forms.ts'
import { sql } from 'drizzle-orm'
import yazl from 'yazl'
import { type AppServices, createServices } from '../apps/server/src/app.ts'
import { loadConfig } from '../apps/server/src/config.ts'
import { createBackup, tableManifest } from '../apps/server/src/core/backups/backups.ts'
import { purgeDue } from '../apps/server/src/core/deletion/deletion.purge.ts'
import { type Database, openDatabase, runAlone } from '../apps/server/src/db/client.ts'
import { createLogger } from '../apps/server/src/lib/logger.ts'
import {
	aboutRun,
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
import { seedMirror } from './mirror-seed.ts'

const settings = {
	rows: positiveIntegerFromEnv('BENCH_ROWS', 50_000),
	answers: positiveIntegerFromEnv('BENCH_ANSWERS', 20_000),
	files: positiveIntegerFromEnv('BENCH_FILES', 200),
	fileKiB: positiveIntegerFromEnv('BENCH_FILE_KB', 50),
	/** Finished jobs pg-boss keeps (a week of syncs and deliveries): the purge reads every one. */
	jobs: positiveIntegerFromEnv('BENCH_JOBS', 5000),
	/** Exports and baselines, taking turns; the figure is the median. */
	exportRuns: positiveIntegerFromEnv('BENCH_EXPORT_RUNS', 3),
	/** Pause between two probes of the backup's hold, in ms. */
	probeEveryMs: 5,
}

const mib = (bytes: number) => round(bytes / 2 ** 20, 1)
const seconds = (ms: number) => round(ms / 1000, 2)

/** The app's services on `dataDir`, as main.ts builds them (no HTTP server: nothing here needs one). */
function servicesOn(dataDir: string, database: Database): AppServices {
	const config = loadConfig({
		NODE_ENV: 'production',
		DATA_DIR: dataDir,
		AUTH_SECRET: randomBytes(32).toString('hex'),
		PUBLIC_URL: 'http://127.0.0.1:3000',
		LOG_LEVEL: 'silent',
	})
	return createServices({ config, database, log: createLogger('silent') })
}

/** The organization: seedMirror's database as a built-in one, an owner, a form with its answers, uploads. */
async function seed(database: Database, dataDir: string): Promise<string> {
	if (database.kind !== 'pglite') {
		throw new Error('PGlite only')
	}
	const pglite = database.pglite
	progress(`seeding ${settings.rows.toLocaleString('en-US')} rows`)
	const databaseId = await seedMirror(pglite, settings.rows)
	const org = 'bench-org'
	// A built-in database: the export reads it as the app's own (no Notion API to ask for people).
	await pglite.query(`update workspaces set tool = 'local' where organization_id = $1`, [org])
	await pglite.query(`insert into users (id, name, email) values ('bench-owner', 'Bench Owner', 'owner@bench.test')`)
	await pglite.query(
		`insert into members (id, organization_id, user_id, role) values ('bench-member', $1, 'bench-owner', 'owner')`,
		[org],
	)
	const fields = [
		{ id: 'name', kind: 'short_text', label: 'Name', propertyId: 'title', required: true },
		{ id: 'email', kind: 'email', label: 'E-mail' },
		{ id: 'message', kind: 'long_text', label: 'Message' },
		{ id: 'budget', kind: 'number', label: 'Budget' },
	].map((field) => formFieldSchema.parse(field))
	await pglite.query(
		`insert into forms (id, organization_id, tool, database_id, name, slug, fields, page, confirmation_message, submit_label, published, closed_message)
		 values ('bench-form', $1, 'local', $2, 'Enquiries', 'enquiries', $3::jsonb, $4::jsonb, 'Thanks!', 'Send', true, 'Closed.')`,
		[org, databaseId, JSON.stringify(fields), JSON.stringify(formPageSchema.parse({}))],
	)
	progress(`seeding ${settings.answers.toLocaleString('en-US')} answers`)
	await pglite.query(
		`insert into form_submissions (id, organization_id, form_id, idempotency_key, answers, created_at)
		 select md5('answer' || i)::uuid::text, $1, 'bench-form', md5('key' || i),
			jsonb_build_object('name', 'Visitor ' || i, 'email', 'visitor' || i || '@example.com',
				'message', 'I would like a quote for project ' || i || '. We are a team of ' || (i % 40 + 2) || ' and need it by spring; please call me back.',
				'budget', (i * 37) % 20000),
			timestamptz '2025-01-01 00:00:00+00' + i * interval '17 minutes'
		 from generate_series(1, $2::int) i`,
		[org, settings.answers],
	)
	progress(`writing ${settings.files} uploads of ${settings.fileKiB} KiB`)
	// Random bytes: uploads are mostly PDFs and images, which do not compress further.
	for (let i = 0; i < settings.files; i++) {
		const id = randomUUID()
		const key = `${org}/${id}`
		const bytes = randomBytes(settings.fileKiB * 1024)
		const file = path.join(dataDir, 'uploads', ...key.split('/'))
		mkdirSync(path.dirname(file), { recursive: true })
		writeFileSync(file, bytes)
		await pglite.query(
			`insert into blobs (id, organization_id, key, filename, content_type, byte_size, checksum, status, created_by, uploaded_at)
			 values ($1, $2, $3, $4, 'application/pdf', $5, 'bench', 'uploaded', 'bench-owner', now())`,
			[id, org, key, `document-${i}.pdf`, bytes.length],
		)
	}
	progress(`seeding ${settings.jobs.toLocaleString('en-US')} finished jobs`)
	// One in five names this organization's database, the others objects of other organizations.
	const { rows: queues } = await pglite.query<{ name: string }>('select name from pgboss.queue order by name limit 1')
	await pglite.query(
		`insert into pgboss.job (name, data, state, started_on, completed_on)
		 select $1, jsonb_build_object('databaseId', case when i % 5 = 0 then $2 else md5('other' || i)::uuid::text end), 'completed', now(), now()
		 from generate_series(1, $3::int) i`,
		[queues[0]?.name, databaseId, settings.jobs],
	)
	await pglite.query('vacuum analyze')
	return org
}

/** Bytes under `dir`, as `du` counts what is there (apparent sizes). */
function sizeOf(target: string): number {
	return Number(execFileSync('du', ['-sb', target], { encoding: 'utf8' }).split('\t')[0])
}

/**
 * `select 1` through the app's db, one after another with a short pause, until stopped: each
 * one's wait is what a request reaching the database then would have waited.
 */
function probeStream(database: Database) {
	const waits: { sentAt: number; ms: number }[] = []
	let isRunning = true
	const done = (async () => {
		while (isRunning) {
			const sentAt = performance.now()
			await database.db.execute(sql`select 1`)
			waits.push({ sentAt, ms: performance.now() - sentAt })
			await new Promise((resolve) => setTimeout(resolve, settings.probeEveryMs))
		}
	})()
	return {
		stop: async () => {
			isRunning = false
			await done
			const sorted = waits.map((wait) => wait.ms).sort((a, b) => a - b)
			return {
				probes: waits.length,
				longestMs: round(sorted.at(-1) ?? 0, 1),
				p50Ms: round(sorted[Math.floor(sorted.length / 2)] ?? 0, 2),
				over100Ms: sorted.filter((ms) => ms > 100).length,
			}
		},
	}
}

/** Samples the process's RSS every 10 ms while `run` runs: the peak over the RSS at its start. */
async function withPeakRss<T>(run: () => Promise<T>): Promise<{ value: T; ms: number; peakRssGrowthMiB: number }> {
	const before = process.memoryUsage.rss()
	let peak = before
	const timer = setInterval(() => {
		peak = Math.max(peak, process.memoryUsage.rss())
	}, 10)
	const started = performance.now()
	try {
		const value = await run()
		const ms = performance.now() - started
		peak = Math.max(peak, process.memoryUsage.rss())
		return { value, ms, peakRssGrowthMiB: mib(peak - before) }
	} finally {
		clearInterval(timer)
	}
}

async function measureBackup(database: Database, dataDir: string, outDir: string) {
	const dataBytes = sizeOf(dataDir)
	progress('backup baseline: tar czf of the data folder')
	const tarFile = path.join(outDir, 'tar-baseline.tar.gz')
	const tarStarted = performance.now()
	// The data folder as it is, PGlite open (as an operator's tar of a running server would take it).
	execFileSync('tar', ['czf', tarFile, '-C', dataDir, '.'], { stdio: 'ignore' })
	const tarMs = performance.now() - tarStarted

	progress('idle probes (select 1 with nothing else running)')
	const idle = probeStream(database)
	await new Promise((resolve) => setTimeout(resolve, 1000))
	const idleProbes = await idle.stop()

	progress('createBackup, with a stream of select 1 alongside')
	const probes = probeStream(database)
	// Let the stream start, so the backup's exclusive slot is queued behind a probe as a request's would be.
	await new Promise((resolve) => setTimeout(resolve, 50))
	// Whether the slot also stops the event loop (no request read at all) or only the database.
	const eventLoop = monitorEventLoopDelay({ resolution: 10 })
	eventLoop.enable()
	const started = performance.now()
	const result = await createBackup({ database, dataDir, isS3: false, dir: outDir, out: path.join(outDir, 'backup') })
	const backupMs = performance.now() - started
	eventLoop.disable()
	await new Promise((resolve) => setTimeout(resolve, 50))
	const during = await probes.stop()
	const holdParts = await timeHoldParts(database)
	return {
		dataFolderMiB: mib(dataBytes),
		tar: { ms: round(tarMs, 0), archiveMiB: mib(statSync(tarFile).size) },
		backup: {
			ms: round(backupMs, 0),
			archiveMiB: mib(result.byteSize),
			tables: result.tables,
			files: result.files,
			holdLongestWaitMs: during.longestMs,
			eventLoopDelayMaxMs: round(eventLoop.max / 1e6, 0),
			probes: during,
			/** The two pieces of the exclusive slot timed again on their own, after the backup. */
			holdParts,
		},
		idleProbes,
		ratioBackupOverTar: round(backupMs / tarMs, 2),
		archiveOverDataFolder: round(result.byteSize / dataBytes, 3),
	}
}

/**
 * What the exclusive slot does, timed piece by piece in a slot of our own (the same calls
 * createBackup makes there): the manifest's counts and md5s of every table, and PGlite's copy of
 * its data folder. The hard links of the uploads come third and are not timed here.
 */
async function timeHoldParts(database: Database) {
	if (database.kind !== 'pglite') {
		throw new Error('PGlite only')
	}
	const pglite = database.pglite
	return runAlone(database, async (client) => {
		const manifestStarted = performance.now()
		await tableManifest(client)
		const manifestMs = performance.now() - manifestStarted
		const dumpStarted = performance.now()
		const dump = await pglite.dumpDataDir('gzip')
		const dumpMs = performance.now() - dumpStarted
		return { manifestMs: round(manifestMs, 0), dumpDataDirMs: round(dumpMs, 0), dumpMiB: mib(dump.size) }
	})
}

/** The real export job, start to end, on an export row as the route makes it. */
async function realExport(services: AppServices, org: string): Promise<number> {
	const exportId = randomUUID()
	await services.database.db.execute(
		sql`insert into organization_exports (id, organization_id, status) values (${exportId}, ${org}, 'queued')`,
	)
	await services.exports.deps.queues.build.handle({ exportId })
	const result = (await services.database.db.execute(
		sql`select status, byte_size, error from organization_exports where id = ${exportId}`,
	)) as unknown as { rows: { status: string; byte_size: string | number; error: string | null }[] }
	const [row] = result.rows
	if (row?.status !== 'ready') {
		throw new Error(`the export did not finish: ${row?.status} ${row?.error}`)
	}
	return Number(row.byte_size)
}

const csvCell = (value: unknown) => {
	const text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value)
	return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** The baseline: the same rows and answers by plain SQL in keyset pages, as CSV, and the files, into one ZIP. */
async function plainExport(database: Database, org: string, uploadsRoot: string, outFile: string): Promise<number> {
	const db = database.db
	const zip = new yazl.ZipFile()
	const written = new Promise<void>((resolve, reject) => {
		const out = createWriteStream(outFile)
		out.on('close', resolve)
		out.on('error', reject)
		zip.outputStream.pipe(out)
	})
	async function* pages(query: (after: string) => ReturnType<typeof db.execute>) {
		let after = ''
		for (;;) {
			const { rows } = (await query(after)) as unknown as { rows: { id: string; values: Record<string, unknown> }[] }
			for (const row of rows) {
				yield `${row.id},${Object.values(row.values).map(csvCell).join(',')}\r\n`
			}
			const last = rows.at(-1)
			if (!last || rows.length < 1000) {
				return
			}
			after = last.id
		}
	}
	const add = (name: string, source: Readable) =>
		new Promise<void>((resolve, reject) => {
			source.on('end', resolve)
			source.on('error', reject)
			zip.addReadStream(source, name)
		})
	await add(
		'rows.csv',
		Readable.from(
			pages(
				(after) =>
					db.execute(
						sql`select id, "values" from workspace_rows where organization_id = ${org} and id > ${after} order by id limit 1000`,
					) as ReturnType<typeof db.execute>,
			),
		),
	)
	await add(
		'answers.csv',
		Readable.from(
			pages(
				(after) =>
					db.execute(
						sql`select id, answers as "values" from form_submissions where organization_id = ${org} and id > ${after} order by id limit 1000`,
					) as ReturnType<typeof db.execute>,
			),
		),
	)
	const { rows: files } = (await db.execute(
		sql`select id, key, filename from blobs where organization_id = ${org} order by id`,
	)) as unknown as { rows: { id: string; key: string; filename: string }[] }
	for (const file of files) {
		zip.addFile(path.join(uploadsRoot, ...file.key.split('/')), `uploads/${file.id}-${file.filename}`)
	}
	zip.end()
	await written
	return statSync(outFile).size
}

// The services the baseline reads file paths from (set in main).
let services: AppServices | undefined

async function measureExport(org: string, outDir: string) {
	const app = services as AppServices
	// Each part timed on its way through (the job runs them one after another), per run.
	const partMsByRun: Record<string, number>[] = []
	app.exports.deps.contributors = app.exports.deps.contributors.map((contributor) => ({
		...contributor,
		run: async (context) => {
			const started = performance.now()
			await contributor.run(context)
			const parts = partMsByRun.at(-1)
			if (parts) {
				parts[contributor.label] = round(performance.now() - started, 0)
			}
		},
	}))
	const real: Awaited<ReturnType<typeof withPeakRss<number>>>[] = []
	const plain: Awaited<ReturnType<typeof withPeakRss<number>>>[] = []
	// Taking turns, so the machine's drift hits both alike.
	for (let run = 1; run <= settings.exportRuns; run++) {
		progress(`export ${run}/${settings.exportRuns}: the real job`)
		partMsByRun.push({})
		real.push(await withPeakRss(() => realExport(app, org)))
		progress(`export ${run}/${settings.exportRuns}: baseline (plain SQL, CSV, yazl)`)
		const uploads = path.join(app.config.dataDir, 'uploads')
		plain.push(await withPeakRss(() => plainExport(app.database, org, uploads, path.join(outDir, 'plain-export.zip'))))
	}
	const summary = (runs: typeof real) => ({
		medianMs: round(median(runs.map((run) => run.ms)), 0),
		runsMs: runs.map((run) => round(run.ms, 0)),
		archiveMiB: mib(runs[0]?.value ?? 0),
		peakRssGrowthMiB: Math.max(...runs.map((run) => run.peakRssGrowthMiB)),
	})
	const ours = summary(real)
	const baseline = summary(plain)
	return {
		real: { ...ours, partMsByRun },
		plain: baseline,
		ratioExportOverPlain: round(ours.medianMs / baseline.medianMs, 2),
	}
}

function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b)
	const middle = Math.floor(sorted.length / 2)
	return sorted.length % 2 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

async function measurePurge(dataDir: string, copyDir: string, org: string) {
	const app = services as AppServices
	// An identical copy of the folder, with the database closed so its files are consistent.
	await app.database.close()
	execFileSync('cp', ['-a', `${dataDir}/.`, copyDir])

	progress('purge baseline: delete from organizations on the copy')
	const copy = await openDatabase({ dataDir: copyDir })
	const closeCopy = onCleanup(() => copy.close())
	const bareStarted = performance.now()
	await copy.db.execute(sql`delete from organizations where id = ${org}`)
	const bareMs = performance.now() - bareStarted
	await closeCopy()

	progress('purge: purgeDue')
	const database = await openDatabase({ dataDir })
	const closeDatabase = onCleanup(() => database.close())
	services = servicesOn(dataDir, database)
	const deletion = services.deletion.deps
	await database.db.execute(
		sql`insert into organization_deletions (organization_id, reason, purge_after) values (${org}, 'requested', now() - interval '1 day')`,
	)
	const purgeStarted = performance.now()
	const purged = await purgeDue(deletion)
	const purgeMs = performance.now() - purgeStarted
	const left = (await database.db.execute(
		sql`select (select count(*) from workspace_rows) + (select count(*) from form_submissions) + (select count(*) from blobs)
			+ (select count(*) from pgboss.job where data ->> 'databaseId' = 'bench-database') as n`,
	)) as unknown as { rows: { n: string | number }[] }
	if (purged !== 1 || Number(left.rows[0]?.n) !== 0) {
		throw new Error(`the purge left rows behind (${purged} purged, ${left.rows[0]?.n} rows left)`)
	}
	const kept = (await database.db.execute(
		sql`select count(*) as n from pgboss.job where data ? 'databaseId'`,
	)) as unknown as { rows: { n: string | number }[] }
	const othersJobs = settings.jobs - Math.floor(settings.jobs / 5)
	if (Number(kept.rows[0]?.n) !== othersJobs) {
		throw new Error(`the purge took other organizations' jobs (${kept.rows[0]?.n} of ${othersJobs} kept)`)
	}
	if (existsSync(path.join(dataDir, 'uploads', org)) && readdirSync(path.join(dataDir, 'uploads', org)).length > 0) {
		throw new Error('the purge left uploaded files behind')
	}
	await closeDatabase()
	return {
		purge: { ms: round(purgeMs, 0), otherOrganizationsJobsKept: Number(kept.rows[0]?.n) },
		bareDelete: { ms: round(bareMs, 0) },
		ratioPurgeOverBare: round(purgeMs / bareMs, 2),
	}
}

async function main(start: RunStart): Promise<number> {
	const data = scratchFolder()
	const out = scratchFolder()
	const copy = scratchFolder()
	const seedStarted = performance.now()
	const database = await openDatabase({ dataDir: data.dir })
	const closeDatabase = onCleanup(() => database.close())
	services = servicesOn(data.dir, database)
	// pg-boss makes its schema and queues on start (the purge reads its jobs); stopped again so
	// no background job competes with the measurements.
	await services.jobs.start()
	await services.jobs.stop(5000)
	const org = await seed(database, data.dir)
	const seedSeconds = round((performance.now() - seedStarted) / 1000, 1)

	const backup = await measureBackup(database, data.dir, out.dir)
	const dataExport = await measureExport(org, out.dir)
	// measurePurge closes the database itself (to copy its folder) and opens its own.
	const purge = await measurePurge(data.dir, copy.dir, org)
	await closeDatabase().catch(() => {})

	printAligned(
		['', 'ours s', 'baseline s', 'ratio', 'ours MiB', 'baseline MiB', 'peak RSS +MiB'],
		[
			[
				'backup (createBackup / tar czf)',
				String(seconds(backup.backup.ms)),
				String(seconds(backup.tar.ms)),
				`${backup.ratioBackupOverTar.toFixed(2)}×`,
				String(backup.backup.archiveMiB),
				String(backup.tar.archiveMiB),
				'—',
			],
			[
				'backup: longest select 1 wait (hold)',
				String(seconds(backup.backup.holdLongestWaitMs)),
				'—',
				'—',
				'—',
				'—',
				'—',
			],
			[
				'export (job / SQL + CSV + yazl)',
				String(seconds(dataExport.real.medianMs)),
				String(seconds(dataExport.plain.medianMs)),
				`${dataExport.ratioExportOverPlain.toFixed(2)}×`,
				String(dataExport.real.archiveMiB),
				String(dataExport.plain.archiveMiB),
				`${dataExport.real.peakRssGrowthMiB} / ${dataExport.plain.peakRssGrowthMiB}`,
			],
			[
				'purge (purgeDue / bare delete)',
				String(seconds(purge.purge.ms)),
				String(seconds(purge.bareDelete.ms)),
				`${purge.ratioPurgeOverBare.toFixed(2)}×`,
				'—',
				'—',
				'—',
			],
		],
	)
	console.log(
		`data folder ${backup.dataFolderMiB} MiB; backup archive ${backup.archiveOverDataFolder}× of it; select 1 idle p50 ${backup.idleProbes.p50Ms} ms, during the backup p50 ${backup.backup.probes.p50Ms} ms, longest ${backup.backup.holdLongestWaitMs} ms; event loop delay at most ${backup.backup.eventLoopDelayMaxMs} ms (manifest ${backup.backup.holdParts.manifestMs} ms + dumpDataDir ${backup.backup.holdParts.dumpDataDirMs} ms when timed alone)`,
	)
	const report = {
		benchmark: 'your-data',
		description:
			"one organization's backup (against tar czf of the data folder), export (against plain SQL + CSV + yazl) and purge (against delete from organizations on a copy), on PGlite",
		...aboutRun(start, ['apps/server', 'packages/']),
		settings,
		seedSeconds,
		results: { backup, export: dataExport, purge },
	}
	writeResults(report)
	return 0
}

await runBenchmark('the server code', main)
