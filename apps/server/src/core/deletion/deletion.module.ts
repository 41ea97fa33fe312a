import type { PurgeContributor } from './deletion.contributor.ts'
import { createPurgeQueue } from './deletion.purge.ts'
import type { DeletionDeps } from './deletion.service.ts'

/**
 * Deleting organizations (decision 040): the schedule, its routes and the purge job (registered
 * on `jobs` here). Features add their purge steps with `registerPurgeContributor` from app.ts.
 */
export function createDeletion(
	options: Omit<DeletionDeps, 'now' | 'purgeQueue' | 'contributors'> & { now?: () => Date },
) {
	const contributors: PurgeContributor[] = []
	const deps: DeletionDeps = {
		...options,
		now: options.now ?? (() => new Date()),
		contributors,
		purgeQueue: createPurgeQueue(() => deps),
	}
	options.jobs.register(deps.purgeQueue)
	return {
		deps,
		registerPurgeContributor: (contributor: PurgeContributor) => {
			contributors.push(contributor)
		},
	}
}

export type Deletion = ReturnType<typeof createDeletion>
