import os from 'node:os'
import path from 'node:path'
import type { Db } from '#src/db/client.ts'
import type { Jobs } from '#src/lib/jobs.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Mailer } from '#src/lib/mail.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { ExportContributor } from './exports.contributor.ts'
import type { ExportsDeps } from './exports.deps.ts'
import { createExportQueues } from './exports.job.ts'
import { organizationPart } from './exports.parts.ts'

/**
 * Builds the organization export (decision 040): its job queues (registered on `jobs` before it
 * starts) and the list of parts the archive is made of. The core's own part, the organization
 * with its members, comes first; app.ts then adds the others with `exports.register(...)` (the
 * workspace databases, the uploads, each feature's), each one step of the progress, in the order
 * registered.
 */
export function createExports(options: {
	db: Db
	jobs: Jobs
	storage: Storage
	mailer: Mailer
	log: Logger
	publicUrl: string
	authSecret: string
	linkDays: number
	/** Where archives are written while they are built; the system's temporary folder by default. */
	tempDir?: string
}) {
	const { tempDir, ...rest } = options
	const deps: ExportsDeps = {
		...rest,
		tempDir: tempDir ?? path.join(os.tmpdir(), 'blocksmith-exports'),
		now: () => new Date(),
		contributors: [organizationPart],
		queues: createExportQueues(() => deps),
	}
	options.jobs.register(deps.queues.build)
	options.jobs.register(deps.queues.expire)
	return {
		deps,
		/** Adds a part to every archive built from now on, after the parts registered before it. */
		register: (contributor: ExportContributor) => {
			deps.contributors.push(contributor)
		},
	}
}

export type Exports = ReturnType<typeof createExports>
