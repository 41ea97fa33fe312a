import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Workspaces } from '#src/workspaces/workspaces.module.ts'
import type { SourceLabeler } from '#src/workspaces/workspaces.sources.ts'
import type { TimeDeps } from './time.deps.ts'
import { timeEntries } from './time.schema.ts'

/** Builds the time module: its dependencies, and how its writes are named in the deliveries list. */
export function createTime(options: { db: Db; log: Logger; workspaces: Workspaces; now?: () => Date }) {
	const deps: TimeDeps = {
		db: options.db,
		log: options.log,
		workspaces: options.workspaces.deps,
		now: options.now ?? (() => new Date()),
	}
	options.workspaces.registerSourceLabels('time', labelEntries)
	return { deps }
}

export type Time = ReturnType<typeof createTime>

/** `time:<entry id>` in the deliveries list: the entry's description, or that it is a time entry. */
const labelEntries: SourceLabeler = async (db, orgId, ids) => {
	const rows = await db
		.select({ id: timeEntries.id, description: timeEntries.description })
		.from(timeEntries)
		.where(and(eq(timeEntries.organizationId, orgId), inArray(timeEntries.id, ids)))
	return new Map(rows.map((row) => [row.id, row.description ? `Time entry: ${row.description}` : 'Time entry']))
}
