import {
	type CreateEntry,
	type CreateTimeDatabase,
	currentTimerSchema,
	type StartTimer,
	type TimeDatabase,
	type TimeEntry,
	type TimeMapping,
	timeDatabaseSchema,
	timeEntrySchema,
	type UpdateEntry,
} from '@blocksmith/contracts/time.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { api } from '#src/lib/api-client.ts'
import { timeKeys } from './time-keys.ts'

// Time tracking's API: each database, timer and entry lives under its workspace's tool
// (`/dashboard/local_time/…`, `/dashboard/notion_time/…`); the database list asks both and shows
// them as one. The header's timer (one small read across tools) is in components/header-timer.tsx.

export const timeTools = ['local', 'notion'] as const satisfies readonly WorkspaceTool[]

const encode = encodeURIComponent
const base = (tool: WorkspaceTool) => `/dashboard/${tool}_time`

/** A name that says it holds time ("Time entries", "Timesheet", "Hours"): offered before other databases that fit. */
const timeName = /\b(time|timesheets?|hours|tracking|tracked)\b/i

/**
 * Mapped databases first (newest mapping first); then those whose suggestion is complete, those
 * named for time first, then those whose suggestion maps the most; then by name.
 */
function byUsefulness(left: TimeDatabase, right: TimeDatabase): number {
	const rank = (database: TimeDatabase) => (database.saved ? 0 : database.suggested.isComplete ? 1 : 2)
	const named = (database: TimeDatabase) => (timeName.test(database.name) ? 0 : 1)
	const mapped = (database: TimeDatabase) => database.suggested.fields.filter((check) => check.isMapped).length
	return (
		rank(left) - rank(right) ||
		(right.updatedAt ?? '').localeCompare(left.updatedAt ?? '') ||
		named(left) - named(right) ||
		mapped(right) - mapped(left) ||
		left.name.localeCompare(right.name)
	)
}

/** Every database of both tools that can hold entries, with its saved and suggested mappings. */
export const timeDatabasesQuery = queryOptions({
	queryKey: timeKeys.databases,
	queryFn: async ({ signal }): Promise<TimeDatabase[]> => {
		const lists = await Promise.all(
			timeTools.map((tool) => api(`${base(tool)}/databases`, { schema: z.array(timeDatabaseSchema), signal })),
		)
		return lists.flat().sort(byUsefulness)
	},
})

/** A database whose saved mapping is complete: entries can be tracked into it. */
export function isTrackable(database: TimeDatabase): boolean {
	return Boolean(database.saved?.isComplete)
}

export async function saveMapping(input: { database: TimeDatabase; mapping: TimeMapping }): Promise<TimeDatabase> {
	return api(`${base(input.database.tool)}/databases/${encode(input.database.id)}`, {
		method: 'PUT',
		json: { mapping: input.mapping },
		schema: timeDatabaseSchema,
	})
}

export async function removeMapping(database: Pick<TimeDatabase, 'id' | 'tool'>): Promise<void> {
	await api(`${base(database.tool)}/databases/${encode(database.id)}`, { method: 'DELETE' })
}

/** Only a built-in workspace can get a new database from us. */
export async function createTimeDatabase(input: CreateTimeDatabase): Promise<TimeDatabase> {
	return api(`${base('local')}/databases`, { json: input, schema: timeDatabaseSchema })
}

// ---- the timer ------------------------------------------------------------------------------

/**
 * The caller's running timer in one tool. Every tab and device reads the server's record: read
 * again on focus and every 30 s (and at once when this browser starts or stops one, see
 * lib/timer-channel.ts).
 */
export function timerQuery(tool: WorkspaceTool) {
	return queryOptions({
		queryKey: timeKeys.timer(tool),
		queryFn: async ({ signal }): Promise<TimeEntry | null> =>
			(await api(`${base(tool)}/timer`, { schema: currentTimerSchema, signal })).entry,
		refetchInterval: 30_000,
		refetchOnWindowFocus: 'always',
		staleTime: 0,
	})
}

export async function startTimer(input: { tool: WorkspaceTool; timer: StartTimer }): Promise<TimeEntry> {
	return api(`${base(input.tool)}/timer/start`, { json: input.timer, schema: timeEntrySchema })
}

/** Stops the running entry by its id, so a stale screen never stops another timer than the one it shows. */
export async function stopEntry(input: { tool: WorkspaceTool; id: string }): Promise<TimeEntry> {
	return api(`${base(input.tool)}/entries/${encode(input.id)}/stop`, { json: {}, schema: timeEntrySchema })
}

// ---- entries --------------------------------------------------------------------------------

/** The caller's entries in one database, newest first (the last 200: a few weeks of work). */
export function entriesQuery(tool: WorkspaceTool, databaseId: string) {
	return queryOptions({
		queryKey: timeKeys.entryList(tool, databaseId),
		queryFn: ({ signal }): Promise<TimeEntry[]> =>
			api(`${base(tool)}/entries`, {
				query: { databaseId, limit: 200 },
				schema: z.array(timeEntrySchema),
				signal,
			}),
		// A write still on its way is polled until it lands, so its state moves by itself: often while
		// pending, and less often after a failed attempt (the queue tries again, with growing pauses),
		// so "trying again" gives way to the delivered entry without a reload.
		refetchInterval: (query) => {
			const deliveries = query.state.data?.map((entry) => entry.delivery) ?? []
			return deliveries.includes('pending') ? 5000 : deliveries.includes('failed') ? 30_000 : false
		},
	})
}

export async function createEntry(input: { tool: WorkspaceTool; entry: CreateEntry }): Promise<TimeEntry> {
	return api(`${base(input.tool)}/entries`, { json: input.entry, schema: timeEntrySchema })
}

export async function updateEntry(input: {
	tool: WorkspaceTool
	id: string
	changes: UpdateEntry
}): Promise<TimeEntry> {
	return api(`${base(input.tool)}/entries/${encode(input.id)}`, {
		method: 'PATCH',
		json: input.changes,
		schema: timeEntrySchema,
	})
}

export async function continueEntry(input: { tool: WorkspaceTool; id: string }): Promise<TimeEntry> {
	return api(`${base(input.tool)}/entries/${encode(input.id)}/continue`, { json: {}, schema: timeEntrySchema })
}

export async function deleteEntry(input: { tool: WorkspaceTool; id: string }): Promise<TimeEntry> {
	return api(`${base(input.tool)}/entries/${encode(input.id)}`, { method: 'DELETE', schema: timeEntrySchema })
}

/** Undo of a delete, within `entryUndoSeconds`. */
export async function restoreEntry(input: { tool: WorkspaceTool; id: string }): Promise<TimeEntry> {
	return api(`${base(input.tool)}/entries/${encode(input.id)}/restore`, { json: {}, schema: timeEntrySchema })
}
