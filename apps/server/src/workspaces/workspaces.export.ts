import { Readable } from 'node:stream'
import { and, asc, eq, gt } from 'drizzle-orm'
import type { ExportContributor } from '#src/core/exports/exports.contributor.ts'
import type { WorkspaceDeps } from './workspaces.deps.ts'
import { workspaceDatabases, workspaceRows, workspaces } from './workspaces.schema.ts'
import { exportCsv, toDatabase } from './workspaces.service.ts'

// The workspaces' part of an organization's export (decision 040), run right after the
// organization's: every database (local and mirrored from Notion) as CSV with its schema, and
// the workspaces without their credentials (no Notion token ever leaves).

const databasesPerPage = 100
const rowIdsPerPage = 5000

/**
 * A name as part of a file name: letters, digits, spaces, `-` and `_` only, at most 60
 * characters. Paths keep the object's id beside it, so two objects of one name never collide.
 */
function fileNamePart(name: string, fallback: string): string {
	const cleaned = name
		.normalize('NFC')
		.replace(/[^\p{L}\p{N} _-]+/gu, ' ')
		.replace(/\s+/g, ' ')
		.trim()
		.slice(0, 60)
		.trim()
	return cleaned || fallback
}

/** An id as part of a path: ours are UUIDs and base64url, but a path never trusts that. */
const idPart = (id: string) => id.replace(/[^\w-]+/g, '_')

/**
 * Every database of the organization: `databases/<name>-<id>.csv` (the workspaces' own CSV
 * export, read from the mirror in pages) and `.json` (the schema: its properties), and
 * `workspaces.json` listing the workspaces without their credentials.
 */
export function createWorkspacesExport(workspaceDeps: WorkspaceDeps): ExportContributor {
	return {
		label: 'Workspace databases',
		run: async ({ db, organizationId, archive }) => {
			// The CSV export is a member's; nothing in it depends on who (people are named for everyone).
			const ctx = { ...workspaceDeps, db, orgId: organizationId, userId: '' }
			const connected = await db
				.select({
					id: workspaces.id,
					tool: workspaces.tool,
					name: workspaces.name,
					icon: workspaces.icon,
					status: workspaces.status,
					createdAt: workspaces.createdAt,
				})
				.from(workspaces)
				.where(eq(workspaces.organizationId, organizationId))
				.orderBy(asc(workspaces.createdAt), asc(workspaces.id))
			await archive.addJson(
				'workspaces.json',
				connected.map((workspace) => ({ ...workspace, createdAt: workspace.createdAt.toISOString() })),
			)
			archive.record(
				'workspaces',
				connected.map((workspace) => workspace.id),
			)
			const toolOf = new Map(connected.map((workspace) => [workspace.id, workspace.tool]))

			let lastId = ''
			for (;;) {
				const page = await db
					.select()
					.from(workspaceDatabases)
					.where(and(eq(workspaceDatabases.organizationId, organizationId), gt(workspaceDatabases.id, lastId)))
					.orderBy(asc(workspaceDatabases.id))
					.limit(databasesPerPage)
				for (const database of page) {
					const tool = toolOf.get(database.workspaceId) ?? 'local'
					const base = `databases/${fileNamePart(database.name, 'Database')}-${idPart(database.id)}`
					await archive.addJson(`${base}.json`, toDatabase(database, tool))
					const csv = await exportCsv(ctx, tool, database.id)
					await archive.addFile(`${base}.csv`, Readable.fromWeb(csv.body as import('node:stream/web').ReadableStream))
					archive.record('databases', [database.id])
					await recordRowIds(db, organizationId, database.id, (ids) => archive.record('rows', ids))
				}
				const last = page.at(-1)
				if (!last || page.length < databasesPerPage) {
					break
				}
				lastId = last.id
			}
		},
	}
}

async function recordRowIds(
	db: WorkspaceDeps['db'],
	organizationId: string,
	databaseId: string,
	record: (ids: string[]) => void,
): Promise<void> {
	let lastId = ''
	for (;;) {
		const page = await db
			.select({ id: workspaceRows.id })
			.from(workspaceRows)
			.where(
				and(
					eq(workspaceRows.databaseId, databaseId),
					eq(workspaceRows.organizationId, organizationId),
					gt(workspaceRows.id, lastId),
				),
			)
			.orderBy(asc(workspaceRows.id))
			.limit(rowIdsPerPage)
		record(page.map((row) => row.id))
		const last = page.at(-1)
		if (!last || page.length < rowIdsPerPage) {
			return
		}
		lastId = last.id
	}
}
