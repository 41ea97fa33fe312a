// Saved views of time entries: a database, a range of local days, filters, rounding, a zone and
// a grouping (time-reports.ts). Each read is scoped to the caller's organization and the path's
// tool: another organization's view, or one of the other tool's, reads as 404.

import { randomUUID } from 'node:crypto'
import {
	type CreateTimeView,
	createTimeViewSchema,
	type TimeView,
	type TimeViewSettings,
	timeViewSettingsSchema,
	type UpdateTimeView,
	updateTimeViewSchema,
} from '@blocksmith/contracts/time-reports.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, asc, eq } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import { workspaceDatabases, workspaces } from '#src/workspaces/workspaces.schema.ts'
import type { TimeCtx, TimeDeps } from './time.deps.ts'
import { timeViews } from './time.schema.ts'
import { sourceTargetOf } from './time.source.ts'

/** A view as reports read it: what to count, in which database and tool. `id` null: not saved. */
export type ReportView = {
	id: string | null
	name: string
	databaseId: string
	databaseName: string
	tool: WorkspaceTool
	settings: TimeViewSettings
}

/** A saved view with its database. */
export type FoundView = ReportView & { id: string; createdAt: Date; updatedAt: Date }

function viewsWithDatabase(deps: TimeDeps) {
	return deps.db
		.select({ view: timeViews, databaseName: workspaceDatabases.name, tool: workspaces.tool })
		.from(timeViews)
		.innerJoin(workspaceDatabases, eq(workspaceDatabases.id, timeViews.databaseId))
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.$dynamic()
}

type Joined = { view: typeof timeViews.$inferSelect; databaseName: string; tool: WorkspaceTool }

function toFound({ view, databaseName, tool }: Joined): FoundView {
	return {
		id: view.id,
		name: view.name,
		databaseId: view.databaseId,
		databaseName,
		tool,
		// Read through the schema, so settings saved before a field existed get its default.
		settings: timeViewSettingsSchema.parse(view.settings),
		createdAt: view.createdAt,
		updatedAt: view.updatedAt,
	}
}

export function toTimeView(view: FoundView): TimeView {
	return {
		id: view.id,
		databaseId: view.databaseId,
		databaseName: view.databaseName,
		name: view.name,
		settings: view.settings,
		createdAt: view.createdAt.toISOString(),
		updatedAt: view.updatedAt.toISOString(),
	}
}

/** A view of the organization, whatever its tool (a shared link knows the view, not the tool); 404 otherwise. */
export async function viewById(deps: TimeDeps, orgId: string, id: string): Promise<FoundView> {
	const [row] = await viewsWithDatabase(deps).where(and(eq(timeViews.id, id), eq(timeViews.organizationId, orgId)))
	if (!row) {
		throw new AppError('NOT_FOUND', { detail: 'No such view.' })
	}
	return toFound(row)
}

/** The caller's organization's view in this tool, with its database; 404 otherwise. */
export async function findView(ctx: TimeCtx, tool: WorkspaceTool, id: string): Promise<FoundView> {
	const view = await viewById(ctx, ctx.orgId, id)
	if (view.tool !== tool) {
		throw new AppError('NOT_FOUND', { detail: 'No such view.' })
	}
	return view
}

export async function listViews(ctx: TimeCtx, tool: WorkspaceTool, databaseId?: string): Promise<TimeView[]> {
	const conditions = [eq(timeViews.organizationId, ctx.orgId), eq(workspaces.tool, tool)]
	if (databaseId) {
		conditions.push(eq(timeViews.databaseId, databaseId))
	}
	const rows = await viewsWithDatabase(ctx)
		.where(and(...conditions))
		.orderBy(asc(timeViews.name), asc(timeViews.createdAt))
	return rows.map((row) => toTimeView(toFound(row)))
}

/** The database a view counts: mapped, of this organization and tool (400 naming databaseId otherwise). */
async function viewDatabase(ctx: TimeCtx, tool: WorkspaceTool, databaseId: string) {
	try {
		return await sourceTargetOf(ctx, tool, databaseId)
	} catch (error) {
		if (error instanceof AppError && error.code === 'NOT_FOUND') {
			const message = 'Choose a database whose properties are mapped for time tracking.'
			throw new AppError('VALIDATION_FAILED', { detail: message, errors: [{ field: 'databaseId', message }] })
		}
		throw error
	}
}

export async function createView(ctx: TimeCtx, tool: WorkspaceTool, input: CreateTimeView): Promise<TimeView> {
	const parsed = createTimeViewSchema.parse(input)
	const target = await viewDatabase(ctx, tool, parsed.databaseId)
	const id = randomUUID()
	await ctx.db.insert(timeViews).values({
		id,
		organizationId: ctx.orgId,
		databaseId: target.databaseId,
		name: parsed.name,
		settings: parsed.settings,
		createdBy: ctx.userId,
	})
	return toTimeView(await findView(ctx, tool, id))
}

export async function updateView(
	ctx: TimeCtx,
	tool: WorkspaceTool,
	id: string,
	input: UpdateTimeView,
): Promise<TimeView> {
	const view = await findView(ctx, tool, id)
	const parsed = updateTimeViewSchema.parse(input)
	await ctx.db
		.update(timeViews)
		.set({
			...(parsed.name !== undefined ? { name: parsed.name } : {}),
			...(parsed.settings !== undefined ? { settings: parsed.settings } : {}),
			updatedAt: new Date(),
		})
		.where(and(eq(timeViews.id, view.id), eq(timeViews.organizationId, ctx.orgId)))
	return toTimeView(await findView(ctx, tool, id))
}

export async function deleteView(ctx: TimeCtx, tool: WorkspaceTool, id: string): Promise<void> {
	const view = await findView(ctx, tool, id)
	await ctx.db.delete(timeViews).where(and(eq(timeViews.id, view.id), eq(timeViews.organizationId, ctx.orgId)))
}
