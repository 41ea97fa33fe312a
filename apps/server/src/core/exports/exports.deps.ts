import type { Role } from '@blocksmith/contracts/teams.ts'
import type { Db } from '#src/db/client.ts'
import type { JobQueue, Jobs } from '#src/lib/jobs.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Mailer } from '#src/lib/mail.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { ExportContributor } from './exports.contributor.ts'

/** What the export services need, built once in `createExports`. */
export type ExportsDeps = {
	db: Db
	jobs: Jobs
	storage: Storage
	mailer: Mailer
	log: Logger
	publicUrl: string
	authSecret: string
	/** Days a ready archive's download link works (EXPORT_LINK_DAYS). */
	linkDays: number
	/** Where archives are written while they are built. */
	tempDir: string
	/** The clock; tests move it to expire links. */
	now: () => Date
	/** The archive's parts, in the order they run: the core's own first. */
	contributors: ExportContributor[]
	queues: {
		build: JobQueue<{ exportId: string }>
		expire: JobQueue<Record<string, never>>
	}
}

/** A member working in one organization. */
export type ExportsCtx = ExportsDeps & { orgId: string; userId: string; role: Role }
