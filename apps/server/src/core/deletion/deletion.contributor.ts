import type { Db } from '#src/db/client.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Storage } from '#src/lib/storage.ts'

type PurgeContext = {
	db: Db
	storage: Storage
	log: Logger
	organizationId: string
}

/**
 * What a module removes of a purged organization that deleting its row would not (decision
 * 040): tables of its own making (charts' typed projection tables), things outside the
 * database. Registered in app.ts from the module's public.ts, run before the organization's row
 * is deleted (the step still finds the organization's objects), one after another. It must be
 * idempotent: a purge that failed halfway runs every step again. Answers how much it removed,
 * for the log (counts, never the data).
 */
export type PurgeContributor = {
	name: string
	run: (context: PurgeContext) => Promise<number>
}
