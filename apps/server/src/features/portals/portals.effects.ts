import type { PortalSetup } from '@blocksmith/contracts/portals.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray, notInArray } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'
import { listUsers } from '#src/workspaces/workspaces.service.ts'
import type { PortalsDeps } from './portals.deps.ts'
import { portals } from './portals.schema.ts'
import { databasesOf } from './portals.validate.ts'

// What saving a portal changes beyond its own row: which databases mirror their rows' content,
// and the names of the people its pages show.

const personTypes = new Set(['people', 'created_by', 'last_edited_by'])

/**
 * `mirror_content` on exactly the organization's databases that an enabled portal shows with
 * `showContent`: the sync reads those rows' blocks into the mirror so a row page never asks
 * Notion; the others stop (their blocks are dropped by their next sync). `db` may be the
 * transaction. Returns the databases just flagged, whose content the caller has read at once
 * (`queueContentReads`) rather than after their next sync.
 */
export async function updateMirrorContent(db: Db, orgId: string): Promise<string[]> {
	const enabled = await db
		.select({ pages: portals.pages })
		.from(portals)
		.where(and(eq(portals.organizationId, orgId), eq(portals.isEnabled, true)))
	const ids = [
		...new Set(
			enabled.flatMap((portal) => portal.pages.filter((page) => page.showContent).map((page) => page.databaseId)),
		),
	]
	const flagged =
		ids.length === 0
			? []
			: await db
					.update(workspaceDatabases)
					.set({ mirrorContent: true })
					.where(
						and(
							eq(workspaceDatabases.organizationId, orgId),
							inArray(workspaceDatabases.id, ids),
							eq(workspaceDatabases.mirrorContent, false),
						),
					)
					.returning({ id: workspaceDatabases.id })
	await db
		.update(workspaceDatabases)
		.set({ mirrorContent: false })
		.where(
			and(
				eq(workspaceDatabases.organizationId, orgId),
				eq(workspaceDatabases.mirrorContent, true),
				...(ids.length > 0 ? [notInArray(workspaceDatabases.id, ids)] : []),
			),
		)
	return flagged.map((row) => row.id)
}

/**
 * Queues the content read of databases just flagged (the content queue's job, as
 * `workspaces.content.ts` runs it after a sync; it skips built-in and unflagged databases).
 * After the save's commit, so the job sees the flag.
 */
export async function queueContentReads(deps: Pick<PortalsDeps, 'workspaces'>, databaseIds: string[]): Promise<void> {
	for (const databaseId of databaseIds) {
		await deps.workspaces.jobs.send(deps.workspaces.queues.content, { databaseId })
	}
}

/**
 * Names (id → name, never an e-mail) of the people of the workspaces whose shown properties
 * are people, so a page draws them without asking Notion. When a workspace cannot be read, the
 * previous names are kept (overlaid with those read).
 */
export async function takePeopleSnapshot(
	ctx: PortalsDeps & { orgId: string; userId: string },
	tool: WorkspaceTool,
	setup: Pick<PortalSetup, 'pages'>,
	previous: Record<string, string>,
): Promise<Record<string, string>> {
	const databases = await databasesOf(ctx.db, ctx.orgId, tool)
	const workspaceIds = new Set<string>()
	for (const page of setup.pages) {
		const database = databases.get(page.databaseId)
		const shown = new Set(page.properties)
		if (database?.properties.some((property) => shown.has(property.id) && personTypes.has(property.type))) {
			workspaceIds.add(database.workspaceId)
		}
	}
	const names: Record<string, string> = {}
	let isComplete = true
	for (const workspaceId of workspaceIds) {
		try {
			const users = await listUsers({ ...ctx.workspaces, orgId: ctx.orgId, userId: ctx.userId }, tool, workspaceId)
			for (const user of users) {
				names[user.id] = user.name
			}
		} catch (error) {
			isComplete = false
			ctx.log.warn({ err: error, workspaceId }, 'portal people snapshot: workspace not read, previous names kept')
		}
	}
	return isComplete ? names : { ...previous, ...names }
}
