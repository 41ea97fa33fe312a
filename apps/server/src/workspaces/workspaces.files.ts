import type { FileValue, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, eq } from 'drizzle-orm'
import { AppError, found } from '#src/lib/errors.ts'
import type { WorkspaceCtx } from './workspaces.deps.ts'
import { workspaceDatabases, workspaceRows, workspaces } from './workspaces.schema.ts'
import { mirrorRow } from './workspaces.sync.ts'

// Files of mirrored rows. A file Notion hosts has a URL that lasts about an hour, so the mirror
// keeps the URL with its expiry, and a file is opened through here: the URL the mirror holds
// while it lasts, else the row is read again from Notion (through the rate queue) and the mirror
// keeps the fresh URL for the next visitor.

/** A URL that expires within this is not handed out: the browser may still be on its way. */
const freshForMs = 60_000

function isFileList(value: unknown): value is FileValue[] {
	return Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null && 'name' in item)
}

function lasts(file: FileValue, now: number): boolean {
	return file.expiresAt === undefined || Date.parse(file.expiresAt) > now + freshForMs
}

export async function openRowFile(
	ctx: WorkspaceCtx,
	input: { tool: WorkspaceTool; databaseId: string; rowId: string; propertyId: string; index: number },
): Promise<{ name: string; url: string; expiresAt: string | null }> {
	const [target] = await ctx.db
		.select({ database: workspaceDatabases, workspace: workspaces, row: workspaceRows })
		.from(workspaceRows)
		.innerJoin(workspaceDatabases, eq(workspaceDatabases.id, workspaceRows.databaseId))
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(
			and(
				eq(workspaceRows.id, input.rowId),
				eq(workspaceRows.databaseId, input.databaseId),
				eq(workspaceRows.organizationId, ctx.orgId),
				eq(workspaces.tool, input.tool),
			),
		)
	const { database, workspace, row } = found(target, 'No such row.')
	const property = database.properties.find((candidate) => candidate.id === input.propertyId)
	const files = row.values[input.propertyId]
	const file = property?.type === 'files' && isFileList(files) ? files[input.index] : undefined
	if (!file?.url) {
		// Files uploaded to us are opened through their own signed links (uploads).
		throw new AppError('NOT_FOUND', { detail: 'No such file on this row.' })
	}
	const now = Date.now()
	if (lasts(file, now)) {
		return { name: file.name, url: file.url, expiresAt: file.expiresAt ?? null }
	}
	const fresh = await ctx.connectors.for(workspace).getRow(
		{
			externalId: database.externalId,
			name: database.name,
			icon: database.icon,
			url: database.url,
			properties: database.properties,
		},
		row.externalId,
	)
	if (!fresh) {
		throw new AppError('NOT_FOUND', { detail: 'This row is no longer in the workspace.' })
	}
	await mirrorRow(ctx, database, fresh)
	const current = fresh.values[input.propertyId]
	const candidates = isFileList(current) ? current : []
	// The same file: at the same place with the same name, else the first of that name.
	const same =
		candidates[input.index]?.name === file.name
			? candidates[input.index]
			: candidates.find((candidate) => candidate.name === file.name)
	if (!same?.url) {
		throw new AppError('NOT_FOUND', { detail: `"${file.name}" is no longer on this row.` })
	}
	return { name: same.name, url: same.url, expiresAt: same.expiresAt ?? null }
}
