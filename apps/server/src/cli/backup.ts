// `npm run backup [-- --out <folder or file.tar.gz>]`: a backup of the embedded database and uploaded
// files (decision 040). While the server runs, it takes the backup itself (it holds the
// database); otherwise this process opens the data folder and takes it the same way.

import { readdirSync } from 'node:fs'
import path from 'node:path'
import { askRunningServer, lockHolder, readControlFile } from '../core/backups/backups.control.ts'
import { type BackupResult, createBackup } from '../core/backups/backups.ts'

const usage = 'Usage: npm run backup [-- --out <folder, or a file name ending in .tar.gz>]'

function parseArgs(args: string[]): { out: string | undefined } {
	let out: string | undefined
	for (let index = 0; index < args.length; index++) {
		const arg = args[index] as string
		if (arg === '--out' && args[index + 1]) {
			out = args[++index]
		} else if (arg.startsWith('--out=')) {
			out = arg.slice('--out='.length)
		} else {
			throw new Error(arg === '--help' || arg === '-h' ? usage : `Unknown argument ${arg}. ${usage}`)
		}
	}
	return { out }
}

function readdirSafe(dir: string): string[] {
	try {
		return readdirSync(dir)
	} catch {
		return []
	}
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`

async function main(): Promise<void> {
	const { out: given } = parseArgs(process.argv.slice(2))
	// A relative --out means from where the command was run, also when the server writes the file.
	const out = given ? path.resolve(given) : undefined
	const [{ loadConfig }, { openDatabase }] = await Promise.all([import('../config.ts'), import('../db/client.ts')])
	const config = loadConfig()
	if (config.databaseUrl) {
		console.error(
			[
				'DATABASE_URL is set: the data is in PostgreSQL, which is backed up with its own tools, for example',
				'  pg_dump -Fc "$DATABASE_URL" > blocksmith.dump      (restore: pg_restore --clean -d "$DATABASE_URL" blocksmith.dump)',
				'Keep AUTH_SECRET with it: sessions, signed links and stored Notion tokens need it.',
				config.s3 ? `Uploaded files are in the bucket ${config.s3.bucket}: back it up with the store's own tools.` : '',
				'See "Backups, restore and export" in the README.',
			]
				.filter(Boolean)
				.join('\n'),
		)
		process.exit(1)
	}
	let result: BackupResult
	const holder = lockHolder(config.dataDir)
	if (holder !== null) {
		const control = readControlFile(config.dataDir)
		if (control?.pid !== holder) {
			throw new Error(
				`The server (pid ${holder}) holds ${config.dataDir} but has not published its control file yet (still starting?). Try again in a moment.`,
			)
		}
		console.log(`The server is running (pid ${holder}): it takes the backup.`)
		result = await askRunningServer(control, out)
	} else {
		const dbDir = path.join(config.dataDir, 'db')
		if (readdirSafe(dbDir).length === 0) {
			throw new Error(`${dbDir} holds no database: is DATA_DIR right?`)
		}
		const database = await openDatabase({ dataDir: config.dataDir })
		try {
			result = await createBackup({
				database,
				dataDir: config.dataDir,
				isS3: config.s3 !== null,
				dir: config.backups.dir,
				out,
			})
		} finally {
			await database.close()
		}
	}
	console.log(result.file)
	console.log(
		`Backup written: ${megabytes(result.byteSize)}, ${result.tables} tables, ${config.s3 ? `files in the bucket ${config.s3.bucket} (not in the archive)` : `${result.files} files`}. It holds secrets.json: keep it private.`,
	)
}

main().catch((error: unknown) => {
	console.error(`Backup failed: ${error instanceof Error ? error.message : String(error)}`)
	process.exit(1)
})
