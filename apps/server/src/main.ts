import { enableCompileCache, flushCompileCache } from 'node:module'
import { fileURLToPath } from 'node:url'
import { registerFastModuleResolve } from './lib/module-resolve.ts'

// Start-up is mostly module loading. Both of these apply only to modules loaded after them, so
// everything else is imported dynamically below (decision 017).
// V8's compiled code (and the stripped TypeScript) kept between starts, in Node's default folder.
enableCompileCache()
registerFastModuleResolve()

type Running = {
	close: () => Promise<void>
}

let running: Running | undefined
let isShuttingDown = false

/**
 * Stops accepting connections, lets requests and running jobs finish, closes the database.
 * A signal during start-up waits for start-up to finish, then shuts down the same way.
 */
async function shutdown(signal: string): Promise<void> {
	if (isShuttingDown) {
		return
	}
	isShuttingDown = true
	if (running) {
		await running.close()
		process.exit(0)
	}
	// Still starting: main() sees the flag when it is done and shuts down then.
	console.error(`${signal} received during start-up; stopping once started`)
}

process.on('SIGTERM', () => void shutdown('SIGTERM'))
process.on('SIGINT', () => void shutdown('SIGINT'))

/**
 * With `--build-web` (`npm start`), the web app's build check (and a build when its sources
 * changed) runs in a process of its own while the server loads and opens its database; the
 * server listens only once it is done, so it never serves an old build. Run one after the other,
 * the check's own Node start and its half second came on top of the server's.
 */
function checkWebBuild(): Promise<void> | null {
	if (!process.argv.includes('--build-web')) {
		return null
	}
	return import('node:child_process').then(
		({ spawn }) =>
			new Promise<void>((resolve, reject) => {
				const script = new URL('../../web/scripts/build-if-stale.ts', import.meta.url)
				const child = spawn(process.execPath, [fileURLToPath(script)], { stdio: 'inherit' })
				child.on('error', reject)
				child.on('exit', (code, signal) =>
					code === 0 ? resolve() : reject(new Error(`the web app's build failed (${signal ?? `exit code ${code}`})`)),
				)
			}),
	)
}

async function main(): Promise<void> {
	const webBuild = checkWebBuild()
	// Awaited before listening; a failure meanwhile is not left unhandled.
	webBuild?.catch(() => {})
	const [
		{ serve },
		{ createApp, createFastServer, createServices, createWorkerApp },
		{ loadConfig },
		{ openDatabase },
		{ createLogger },
		{ writeControlFile },
	] = await Promise.all([
		import('@hono/node-server'),
		import('./app.ts'),
		import('./config.ts'),
		import('./db/client.ts'),
		import('./lib/logger.ts'),
		import('./core/backups/backups.control.ts'),
	])
	const config = loadConfig()
	const log = createLogger(config.logLevel)
	const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl })
	const services = createServices({ config, database, log })
	// A worker works the jobs and answers only health checks; web and all serve everything (decision 027).
	const app = config.role === 'worker' ? createWorkerApp(services) : createApp(services)
	await services.jobs.start()
	if (webBuild) {
		try {
			await webBuild
		} catch (error) {
			await services.jobs.stop(1000)
			await database.close()
			throw error
		}
	}

	let removeControlFile = () => {}
	// The web's fast routes (decision 041); a worker serves only health checks.
	const createServer = config.role === 'worker' ? undefined : await createFastServer(services)
	const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host, createServer }, (info) => {
		// `npm run backup` finds this process here (decision 040); only the embedded database needs it.
		if (database.kind === 'pglite') {
			removeControlFile = writeControlFile(config.dataDir, info.port)
		}
		log.info(
			{ url: config.publicUrl, port: config.port, role: config.role, database: database.kind, dataDir: config.dataDir },
			config.role === 'worker'
				? `Blocksmith worker is working jobs; health checks on port ${config.port}`
				: `Blocksmith is listening on ${config.publicUrl}${config.role === 'web' ? ' (web only: jobs are worked by ROLE=worker processes)' : ''}`,
		)
		// Written now rather than at exit, so that a server that never exits cleanly still starts faster next time.
		flushCompileCache()
	})
	server.on('error', async (error: NodeJS.ErrnoException) => {
		log.fatal(
			{ err: error },
			error.code === 'EADDRINUSE' ? `Port ${config.port} is in use; set PORT to another port.` : 'server error',
		)
		await services.jobs.stop(1000)
		await database.close()
		process.exit(1)
	})

	running = {
		close: async () => {
			services.state.isDraining = true
			log.info('shutting down: finishing requests and jobs')
			const force = setTimeout(() => {
				log.error('shutdown took too long; exiting')
				process.exit(1)
			}, config.shutdownTimeoutMs)
			force.unref()
			await new Promise<void>((resolve) => server.close(() => resolve()))
			await services.jobs.stop(Math.max(1000, config.shutdownTimeoutMs - 5000))
			// View counts gathered since the last flush are written before the database closes.
			await services.forms.views.flush()
			await database.close()
			removeControlFile()
			log.info('stopped')
		},
	}
	if (isShuttingDown) {
		await running.close()
		process.exit(0)
	}
}

main().catch(async (error: unknown) => {
	const [{ ConfigError }, { DataDirLockedError }] = await Promise.all([import('./config.ts'), import('./db/lock.ts')])
	if (error instanceof ConfigError || error instanceof DataDirLockedError) {
		console.error(error.message)
	} else {
		console.error('Blocksmith could not start:', error)
	}
	process.exit(1)
})
