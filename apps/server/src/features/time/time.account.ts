import { and, eq, inArray, isNull, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { workspaceDatabases, workspaces } from '#src/workspaces/workspaces.schema.ts'
import type { TimeDeps } from './time.deps.ts'
import { timeEntries } from './time.schema.ts'
import { stopTimer } from './time.timer.ts'

// A person deleting their account leaves their entries to the team (time_entries.user_id becomes
// null, migration 0023). Before it goes, their entries are made to read as they did:
// - a running timer is stopped now, through the write queue like any stop: nobody could stop it
//   afterwards (an entry is its person's own), and it would count up to now in reports forever;
// - an entry of a built-in database without person_ref names its person by user_id
//   (time.source.ts): person_ref takes the id, so reports keep it apart from "No person".

/** Called by account deletion (app.ts) for the organizations the person leaves, before their user row goes. */
export async function releaseEntriesOf(
	deps: TimeDeps,
	input: { userId: string; organizationIds: string[] },
): Promise<void> {
	const { userId, organizationIds } = input
	if (organizationIds.length === 0) {
		return
	}
	const running = await deps.db
		.select({ id: timeEntries.id, orgId: timeEntries.organizationId, tool: workspaces.tool })
		.from(timeEntries)
		.innerJoin(workspaceDatabases, eq(workspaceDatabases.id, timeEntries.databaseId))
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(
			and(
				eq(timeEntries.userId, userId),
				inArray(timeEntries.organizationId, organizationIds),
				isNull(timeEntries.endedAt),
				isNull(timeEntries.deletedAt),
			),
		)
	for (const entry of running) {
		try {
			// The role plays no part in stopping one's own entry.
			await stopTimer({ ...deps, orgId: entry.orgId, userId, role: 'member' }, entry.tool, entry.id)
		} catch (error) {
			// The database is gone or the entry changed meanwhile: it still must not run on.
			deps.log.warn({ err: error, entryId: entry.id }, 'time: stopping a leaving person’s timer failed; ended here')
			await endHere(deps.db, entry.id, deps.now())
		}
	}
	await deps.db
		.update(timeEntries)
		.set({ personRef: userId })
		.where(
			and(
				eq(timeEntries.userId, userId),
				inArray(timeEntries.organizationId, organizationIds),
				isNull(timeEntries.personRef),
				inArray(
					timeEntries.databaseId,
					deps.db
						.select({ id: workspaceDatabases.id })
						.from(workspaceDatabases)
						.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
						.where(eq(workspaces.tool, 'local')),
				),
			),
		)
}

async function endHere(db: Db, entryId: string, now: Date): Promise<void> {
	await db
		.update(timeEntries)
		.set({ endedAt: sql`greatest(${now.toISOString()}::timestamptz, ${timeEntries.startedAt})`, updatedAt: now })
		.where(and(eq(timeEntries.id, entryId), isNull(timeEntries.endedAt)))
}
