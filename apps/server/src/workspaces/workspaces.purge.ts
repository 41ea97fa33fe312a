import { and, eq, ne } from 'drizzle-orm'
import type { PurgeContributor } from '#src/core/deletion/deletion.contributor.ts'
import type { Db } from '#src/db/client.ts'
import { notionRateLimits } from './notion/notion.schema.ts'
import { workspaces } from './workspaces.schema.ts'

// What the workspaces layer removes that no foreign key reaches (decision 040): the shared Notion
// pace is keyed by the Notion workspace, not by our rows, so it outlives a disconnected or purged
// organization unless removed here.

/**
 * The Notion pace (notion_rate_limits) of the organization's Notion workspaces, or of one being
 * disconnected, unless another workspace row (another organization's) is the same Notion workspace.
 */
export async function deleteNotionPace(db: Db, organizationId: string, workspaceId?: string): Promise<number> {
	const connected = await db
		.select({ externalId: workspaces.externalId })
		.from(workspaces)
		.where(
			and(
				eq(workspaces.organizationId, organizationId),
				eq(workspaces.tool, 'notion'),
				workspaceId ? eq(workspaces.id, workspaceId) : undefined,
			),
		)
	let deleted = 0
	for (const { externalId } of connected) {
		if (!externalId) {
			continue
		}
		const [shared] = await db
			.select({ id: workspaces.id })
			.from(workspaces)
			.where(
				and(
					eq(workspaces.externalId, externalId),
					workspaceId ? ne(workspaces.id, workspaceId) : ne(workspaces.organizationId, organizationId),
				),
			)
			.limit(1)
		if (!shared) {
			deleted += (
				await db
					.delete(notionRateLimits)
					.where(eq(notionRateLimits.workspaceKey, externalId))
					.returning({ key: notionRateLimits.workspaceKey })
			).length
		}
	}
	return deleted
}

/** The purge step of an organization's Notion pace: before its row goes, while its workspaces are still found. */
export const workspacesPurgeContributor: PurgeContributor = {
	name: 'notionRateLimits',
	run: ({ db, organizationId }) => deleteNotionPace(db, organizationId),
}
