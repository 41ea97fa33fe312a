import { serve } from '@hono/node-server'
import { createApp, createServices } from './app.ts'
import { ConfigError, loadConfig } from './config.ts'
import { openDatabase } from './db/client.ts'
import { DataDirLockedError } from './db/lock.ts'
import { createLogger } from './lib/logger.ts'

async function main(): Promise<void> {
	const config = loadConfig()
	const log = createLogger(config.logLevel)
	const database = await openDatabase({ dataDir: config.dataDir, databaseUrl: config.databaseUrl })
	const services = createServices({ config, database, log })
	const app = createApp(services)
	await services.jobs.start()

	const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => {
		log.info(
			{ url: config.publicUrl, port: config.port, database: database.kind, dataDir: config.dataDir },
			`Blocksmith is listening on ${config.publicUrl}`,
		)
	})
	server.on('error', async (error: NodeJS.ErrnoException) => {
		log.fatal(
			{ err: error },
			error.code === 'EADDRINUSE' ? `Port ${config.port} is in use; set PORT to another port.` : 'server error',
		)
		await database.close()
		process.exit(1)
	})

	let isShuttingDown = false
	const shutdown = async (signal: string) => {
		if (isShuttingDown) {
			return
		}
		isShuttingDown = true
		services.state.isDraining = true
		log.info({ signal }, 'shutting down: finishing requests and jobs')
		const force = setTimeout(() => {
			log.error('shutdown took too long; exiting')
			process.exit(1)
		}, config.shutdownTimeoutMs)
		force.unref()
		// Stop accepting connections and wait for the requests in flight.
		await new Promise<void>((resolve) => server.close(() => resolve()))
		await services.jobs.stop(Math.max(1000, config.shutdownTimeoutMs - 5000))
		await database.close()
		log.info('stopped')
		process.exit(0)
	}
	process.on('SIGTERM', () => void shutdown('SIGTERM'))
	process.on('SIGINT', () => void shutdown('SIGINT'))
}

main().catch((error: unknown) => {
	if (error instanceof ConfigError || error instanceof DataDirLockedError) {
		console.error(error.message)
	} else {
		console.error('Blocksmith could not start:', error)
	}
	process.exit(1)
})
