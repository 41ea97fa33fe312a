// `npm run restore <file>`: restores a backup of `npm run backup` into DATA_DIR, which must be
// a new folder (no database, no uploaded files, no server running on it). Decision 040.

import path from 'node:path'

async function main(): Promise<void> {
	const args = process.argv.slice(2).filter((arg) => arg !== '--')
	if (args.length !== 1 || args[0]?.startsWith('-')) {
		throw new Error('Usage: npm run restore <backup file>   (into DATA_DIR, default ./data, which must be empty)')
	}
	const archive = path.resolve(args[0] as string)
	const [{ loadConfig }, { restoreBackup }] = await Promise.all([
		import('../config.ts'),
		import('../core/backups/backups.restore.ts'),
	])
	// biome-ignore lint/style/noProcessEnv: loadConfig would write a new secrets.json into an empty folder (the backup's is restored instead); only whether AUTH_SECRET is set is read here.
	const env = process.env
	const hasAuthSecret = Boolean(env.AUTH_SECRET)
	const config = loadConfig({ ...env, AUTH_SECRET: env.AUTH_SECRET || 'restore-only: no secret is generated here' })
	if (config.databaseUrl) {
		throw new Error(
			'DATABASE_URL is set: these backups are of the embedded database. Restore PostgreSQL with pg_restore (see the README).',
		)
	}
	const result = await restoreBackup({ archive, dataDir: config.dataDir, hasAuthSecret })
	const secrets = {
		restored: 'secrets.json restored',
		same: 'secrets.json already the same',
		kept: 'secrets.json left as it was (AUTH_SECRET is set)',
		none: 'no secrets.json in the backup',
	}[result.secrets]
	for (const warning of result.warnings) {
		console.warn(warning)
	}
	console.log(`Restored the backup of ${result.manifest.createdAt} into ${config.dataDir}:`)
	console.log(
		`${result.tables} tables checked against the manifest, ${
			result.manifest.uploads.storage === 's3'
				? 'files in the bucket (not in the archive)'
				: `${result.files} files checked (sha256)`
		}, ${secrets}. Start the server with this DATA_DIR.`,
	)
}

main().catch((error: unknown) => {
	console.error(`Restore refused: ${error instanceof Error ? error.message : String(error)}`)
	process.exit(1)
})
