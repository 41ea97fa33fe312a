import type { PortalBlock } from '@blocksmith/contracts/portals.ts'
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import type { JobQueue } from '#src/lib/jobs.ts'
import { ConnectorError, type ContentBlock, type HostedFile } from './connector.ts'
import type { WorkspaceDeps } from './workspaces.deps.ts'
import { workspaceDatabases, workspaceRowContent, workspaceRows, workspaces } from './workspaces.schema.ts'

// Page content of mirrored Notion rows (decision 038): for databases with `mirror_content` (a
// portal shows their rows as pages), each row's blocks are copied into `workspace_row_content`,
// so a row page never calls Notion. The copy runs in its own job after each sync of the database:
// the row sync has finished and recorded its state by then, and no transaction is held across a
// Notion call (each row's content is read, then written in one statement).
//
// A run reads at most `contentBatchSize` rows whose content is missing or older than the row
// (`row_edited_time` < `last_edited_time`: Notion moves a page's edit time when its content
// changes), newest edits first, taking no new row after five minutes; the next sync's run goes
// on with the rest. So a database flagged later gets all its rows' content over its next syncs
// (50 rows a sync; a job sent to `deps.queues.content` starts one at once), while edited rows,
// being newest, come first. Rows that leave the mirror lose their content with them (the foreign key
// cascades); a database no longer flagged has its content dropped by its next sync. Two runs of
// one database overlap only when a run outlasts the sync interval; they then read some rows
// twice, which costs requests but nothing else (each write is a whole row's content).

/** Rows whose content one run reads: at ~3 requests a second per workspace, well under a minute for plain pages. */
const contentBatchSize = 50

/**
 * A run stops taking new rows after this long (the rest wait for the next run): a workspace of
 * long pages must not hold a worker, nor the workspace's Notion budget, for hours.
 */
const runBudgetMs = 5 * 60_000

/** A hosted file's URL that expires within this is not handed out: the browser may still be on its way. */
const freshForMs = 60_000

/**
 * Notion keeps edit times to the minute: content read within the minute of the row's edit time
 * may miss an edit made later in that same minute (which would not move the edit time). Such a
 * read is stored as older than the row, so the next run reads it once more.
 */
const settleMs = 60_000

export function createContentQueue(deps: () => WorkspaceDeps): JobQueue<{ databaseId: string }> {
	return {
		name: 'workspace-content',
		options: { retryLimit: 0 },
		// Runs of different workspaces wait on different Notion budgets.
		concurrency: 2,
		handle: async ({ databaseId }) => {
			await refreshContent(deps(), databaseId)
		},
	}
}

/**
 * After a successful sync: a flagged database's content is brought up to date in a job of its
 * own; an unflagged one's content, if any is left from when it was flagged, is dropped.
 */
export async function afterSync(
	deps: WorkspaceDeps,
	database: { id: string; organizationId: string; mirrorContent: boolean },
): Promise<void> {
	if (database.mirrorContent) {
		await deps.jobs.send(deps.queues.content, { databaseId: database.id })
		return
	}
	// Most organizations have no content at all: then the database's rows are not looked through.
	const [any] = await deps.db
		.select({ rowId: workspaceRowContent.rowId })
		.from(workspaceRowContent)
		.where(eq(workspaceRowContent.organizationId, database.organizationId))
		.limit(1)
	if (!any) {
		return
	}
	await deps.db
		.delete(workspaceRowContent)
		.where(
			and(
				eq(workspaceRowContent.organizationId, database.organizationId),
				sql`${workspaceRowContent.rowId} in (select ${workspaceRows.id} from ${workspaceRows} where ${workspaceRows.databaseId} = ${database.id})`,
			),
		)
}

/**
 * Reads the content of up to `batchSize` rows of the database that lack it or whose row was
 * edited since; returns how many were read and whether more are waiting.
 */
export async function refreshContent(
	deps: WorkspaceDeps,
	databaseId: string,
	batchSize = contentBatchSize,
): Promise<{ read: number; more: boolean }> {
	const [target] = await deps.db
		.select({ database: workspaceDatabases, workspace: workspaces })
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(eq(workspaceDatabases.id, databaseId))
	if (
		!target?.database.mirrorContent ||
		target.workspace.tool !== 'notion' ||
		target.workspace.status !== 'connected'
	) {
		return { read: 0, more: false }
	}
	const stale = await deps.db
		.select({ id: workspaceRows.id, externalId: workspaceRows.externalId, editedTime: workspaceRows.lastEditedTime })
		.from(workspaceRows)
		.leftJoin(workspaceRowContent, eq(workspaceRowContent.rowId, workspaceRows.id))
		.where(
			and(
				eq(workspaceRows.databaseId, databaseId),
				or(isNull(workspaceRowContent.rowId), lt(workspaceRowContent.rowEditedTime, workspaceRows.lastEditedTime)),
			),
		)
		.orderBy(desc(workspaceRows.lastEditedTime), workspaceRows.id)
		.limit(batchSize + 1)
	const connector = deps.connectors.for(target.workspace)
	const deadline = Date.now() + runBudgetMs
	let read = 0
	for (const row of stale.slice(0, batchSize)) {
		if (Date.now() > deadline) {
			return { read, more: true }
		}
		const startedAt = Date.now()
		let blocks: ContentBlock[] | null
		try {
			blocks = await connector.readPageContent(row.externalId)
		} catch (error) {
			// A page Notion refuses for good is stored empty (until it is edited again), so it cannot
			// hold up the rows behind it; an outage or a revoked token ends the run.
			if (!(error instanceof ConnectorError) || error.kind === 'unavailable' || error.kind === 'unauthorized') {
				throw error
			}
			deps.log.warn({ err: error, rowId: row.id }, 'page content refused by the workspace')
			blocks = []
		}
		const settled = startedAt >= row.editedTime.getTime() + settleMs
		const editedTime = settled ? row.editedTime : new Date(row.editedTime.getTime() - 1)
		await storeContent(deps.db, row.id, blocks ?? [], editedTime)
		read++
	}
	return { read, more: stale.length > batchSize }
}

/** One statement, and only while the row is still mirrored (a row deleted meanwhile is skipped). */
async function storeContent(db: Db, rowId: string, blocks: ContentBlock[], rowEditedTime: Date): Promise<void> {
	await db.execute(sql`
		insert into workspace_row_content (row_id, organization_id, blocks, row_edited_time, fetched_at)
		select r.id, r.organization_id, ${JSON.stringify(blocks)}::jsonb, ${rowEditedTime.toISOString()}::timestamptz, now()
		from workspace_rows r where r.id = ${rowId}
		on conflict (row_id) do update set
			blocks = excluded.blocks, row_edited_time = excluded.row_edited_time, fetched_at = excluded.fetched_at`)
}

/** The blocks as the portal may send them: a hosted file's signed URL stays on the server. */
function withoutHosted(blocks: ContentBlock[]): PortalBlock[] {
	return blocks.map(({ hosted: _, children, ...block }) =>
		children ? { ...block, children: withoutHosted(children) } : block,
	)
}

/** A row's mirrored content, or null when none has been read (yet, or the database is not flagged). */
export async function readRowContent(
	db: Db,
	orgId: string,
	rowId: string,
): Promise<{ blocks: PortalBlock[]; fetchedAt: Date } | null> {
	const [content] = await db
		.select({ blocks: workspaceRowContent.blocks, fetchedAt: workspaceRowContent.fetchedAt })
		.from(workspaceRowContent)
		.where(and(eq(workspaceRowContent.rowId, rowId), eq(workspaceRowContent.organizationId, orgId)))
	return content ? { blocks: withoutHosted(content.blocks as ContentBlock[]), fetchedAt: content.fetchedAt } : null
}

function findFile(blocks: ContentBlock[], blockId: string): ContentBlock | undefined {
	for (const block of blocks) {
		if (block.fileRef?.blockId === blockId) {
			return block
		}
		const inside = block.children ? findFile(block.children, blockId) : undefined
		if (inside) {
			return inside
		}
	}
	return undefined
}

function withHosted(blocks: ContentBlock[], blockId: string, hosted: HostedFile): ContentBlock[] {
	return blocks.map((block) => {
		const next = block.fileRef?.blockId === blockId ? { ...block, hosted } : block
		return next.children ? { ...next, children: withHosted(next.children, blockId, hosted) } : next
	})
}

/**
 * A fresh URL for a Notion-hosted file in a row's content: the one the mirror keeps while it
 * lasts, else the block is read again from Notion (through the rate queue) and the mirror keeps
 * the new URL for the next visitor. Only blocks of that row's mirrored content are looked up, so
 * a block id from elsewhere is a 404, as is another organization's row. The caller (the portal)
 * checks the member's grant on the row first.
 */
export async function contentFileUrl(
	deps: WorkspaceDeps,
	orgId: string,
	rowId: string,
	blockId: string,
): Promise<{ url: string; expiresAt: string; name: string | null }> {
	const [target] = await deps.db
		.select({ content: workspaceRowContent, workspace: workspaces })
		.from(workspaceRowContent)
		.innerJoin(workspaceRows, eq(workspaceRows.id, workspaceRowContent.rowId))
		.innerJoin(workspaceDatabases, eq(workspaceDatabases.id, workspaceRows.databaseId))
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(and(eq(workspaceRowContent.rowId, rowId), eq(workspaceRowContent.organizationId, orgId)))
	const { content, workspace } = found(target, 'No such row.')
	const blocks = content.blocks as ContentBlock[]
	const block = findFile(blocks, blockId)
	if (!block) {
		throw new AppError('NOT_FOUND', { detail: 'No such file in this page.' })
	}
	const name = block.name ?? null
	if (block.hosted && Date.parse(block.hosted.expiresAt) > Date.now() + freshForMs) {
		return { ...block.hosted, name }
	}
	const fresh = await deps.connectors.for(workspace).readContentFile(blockId)
	if (!fresh) {
		throw new AppError('NOT_FOUND', { detail: 'This file is no longer in the page.' })
	}
	// Kept unless a sync wrote the content again meanwhile (its URLs are as fresh).
	await deps.db
		.update(workspaceRowContent)
		.set({ blocks: withHosted(blocks, blockId, fresh) })
		.where(
			and(
				eq(workspaceRowContent.rowId, rowId),
				sql`${workspaceRowContent.blocks} = ${JSON.stringify(content.blocks)}::jsonb`,
			),
		)
	return { ...fresh, name }
}
