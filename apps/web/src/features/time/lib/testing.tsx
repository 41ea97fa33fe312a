import {
	type TimeDatabase,
	type TimeEntry,
	type TimeField,
	type TimeMapping,
	type TimeMappingReview,
	timeMappingSchema,
} from '@blocksmith/contracts/time.ts'
import type { Database, Workspace } from '@blocksmith/contracts/workspaces.ts'

// Shared by the time screens' tests: the sample workspace's "Time entries" database (as the
// workspaces API and the time API describe it), its projects, and entries on it (the API
// stand-in is #src/test/mock-api.tsx).

const workspace: Workspace = {
	id: 'ws1',
	tool: 'local',
	name: 'Sample workspace',
	icon: null,
	status: 'connected',
	databasesCount: 3,
	createdAt: '2026-01-01T10:00:00.000Z',
}

const sync = { state: 'idle', lastSyncedAt: null, nextSyncAt: null, lastError: null, rowCount: 3 } as const

const entriesDatabase: Database = {
	id: 'db-time',
	workspaceId: 'ws1',
	tool: 'local',
	externalId: 'db-time',
	name: 'Time entries',
	icon: null,
	url: null,
	properties: [
		{ id: 'task', name: 'Task', type: 'title' },
		{ id: 'project', name: 'Project', type: 'relation', relationDatabaseId: 'db-projects' },
		{ id: 'person', name: 'Person', type: 'people' },
		{ id: 'when', name: 'When', type: 'date' },
		{ id: 'hours', name: 'Hours', type: 'number' },
		{ id: 'billable', name: 'Billable', type: 'checkbox' },
		{
			id: 'tags',
			name: 'Tags',
			type: 'multi_select',
			options: [
				{ id: 't1', name: 'Meeting', color: 'yellow' },
				{ id: 't2', name: 'Deep work', color: 'blue' },
			],
		},
	],
	sync,
}

const projectsDatabase: Database = {
	...entriesDatabase,
	id: 'db-projects',
	externalId: 'db-projects',
	name: 'Projects',
	properties: [
		{ id: 'name', name: 'Name', type: 'title' },
		{ id: 'client', name: 'Client', type: 'relation', relationDatabaseId: 'db-clients' },
	],
}

/** A database that cannot hold entries as it is: no date. */
const dealsDatabase: Database = {
	...entriesDatabase,
	id: 'db-deals',
	externalId: 'db-deals',
	name: 'Deals',
	properties: [
		{ id: 'deal', name: 'Deal', type: 'title' },
		{ id: 'amount', name: 'Amount', type: 'number' },
		{ id: 'closed', name: 'Closed on', type: 'date' },
	],
}

const projectRows = [
	{ id: 'p1', title: 'Website redesign' },
	{ id: 'p2', title: 'Mobile app' },
].map((row) => ({
	...row,
	externalId: row.id,
	values: {},
	url: null,
	createdTime: '2026-01-01T10:00:00.000Z',
	lastEditedTime: '2026-01-01T10:00:00.000Z',
}))

export const suggestedMapping: TimeMapping = timeMappingSchema.parse({
	start: 'when',
	end: 'when',
	duration: 'hours',
	person: 'person',
	project: 'project',
	client: { propertyId: 'client', through: 'project' },
	task: 'task',
	tags: 'tags',
	billable: 'billable',
	description: 'task',
})

const fields: TimeField[] = [
	'start',
	'end',
	'duration',
	'person',
	'project',
	'client',
	'task',
	'tags',
	'billable',
	'description',
]

/** A review as the server makes it: `missing` fields unmapped with their message. */
export function review(mapping: TimeMapping, missing: Partial<Record<TimeField, string>> = {}): TimeMappingReview {
	const checks = fields.map((field) => {
		const propertyId = field === 'client' ? (mapping.client?.propertyId ?? null) : mapping[field]
		const isMapped = Boolean(propertyId) && !(field in missing)
		return {
			field,
			propertyId: isMapped ? propertyId : null,
			propertyName: isMapped ? field : null,
			isMapped,
			isRequired: field === 'start' || (field === 'end' && !mapping.duration) || (field === 'duration' && !mapping.end),
			message: isMapped ? null : (missing[field] ?? 'Optional.'),
		}
	})
	return { mapping, fields: checks, isComplete: checks.every((check) => check.isMapped || !check.isRequired) }
}

export function makeTimeDatabase(changes: Partial<TimeDatabase> = {}): TimeDatabase {
	return {
		id: 'db-time',
		workspaceId: 'ws1',
		tool: 'local',
		name: 'Time entries',
		icon: null,
		saved: null,
		suggested: review(suggestedMapping),
		updatedAt: null,
		...changes,
	}
}

/** The sample database with its suggestion saved: ready to track. */
export const mappedDatabase = makeTimeDatabase({
	saved: review(suggestedMapping),
	updatedAt: '2026-11-20T10:00:00.000Z',
})

export function makeEntry(changes: Partial<TimeEntry> = {}): TimeEntry {
	return {
		id: 'e1',
		databaseId: 'db-time',
		userId: 'u1',
		startedAt: '2026-11-26T09:00:00.000Z',
		endedAt: '2026-11-26T10:30:00.000Z',
		isRunning: false,
		description: 'Design review',
		project: 'p1',
		task: null,
		tags: ['Meeting'],
		billable: true,
		rowId: 'r1',
		delivery: 'delivered',
		...changes,
	}
}

type Call = { method: string; path: string }

/**
 * Answers the workspace reads every time screen makes (the databases' properties, the projects'
 * rows, the workspaces) and the other tool's empty lists; anything else is left to the test.
 */
export function workspaceReads({ method, path }: Call): Response | undefined {
	const json = (body: unknown) =>
		new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } })
	if (method !== 'GET') {
		return undefined
	}
	const databases = [entriesDatabase, projectsDatabase, dealsDatabase]
	const database = databases.find((candidate) => path === `/dashboard/local/databases/${candidate.id}`)
	if (database) {
		return json(database)
	}
	if (path === '/dashboard/local/databases/db-projects/rows') {
		return json({ rows: projectRows, total: projectRows.length, offset: 0, limit: 200 })
	}
	if (path === '/dashboard/workspaces') {
		return json([workspace])
	}
	if (path === '/dashboard/local/databases') {
		return json(databases)
	}
	if (path === '/dashboard/notion_time/databases' || path === '/dashboard/notion_time/entries') {
		return json([])
	}
	if (path === '/dashboard/notion_time/timer') {
		return json({ entry: null })
	}
	return undefined
}
