import type { Database, Workspace } from '@blocksmith/contracts/workspaces.ts'
import { expect, test } from 'vitest'
import { databasesQuery, workspacesQuery } from './workspaces.ts'

function database(state: Database['sync']['state']): Database {
	return {
		id: 'd1',
		workspaceId: 'ws1',
		tool: 'notion',
		externalId: 'ext1',
		name: 'Projects',
		icon: null,
		url: null,
		properties: [{ id: 'title', name: 'Name', type: 'title' }],
		sync: { state, lastSyncedAt: null, nextSyncAt: null, lastError: null, rowCount: 0 },
	}
}

/** How often the databases list is read again, given what it holds now. */
function intervalFor(tool: Database['tool'], data: Database[] | undefined): unknown {
	const { refetchInterval } = databasesQuery(tool, 'ws1')
	return typeof refetchInterval === 'function'
		? refetchInterval({ state: { data } } as Parameters<typeof refetchInterval>[0])
		: refetchInterval
}

test('a syncing database keeps the list polled until its sync is over', () => {
	expect(intervalFor('notion', [database('queued')])).toBe(2000)
	expect(intervalFor('notion', [database('running')])).toBe(2000)
	expect(intervalFor('notion', [database('idle')])).toBe(false)
	expect(intervalFor('local', [{ ...database('idle'), tool: 'local' }])).toBe(false)
})

test('a Notion workspace with no databases yet is polled: they are found by a job after connecting', () => {
	expect(intervalFor('notion', [])).toBe(5000)
	// Not before the first answer, and never for a local workspace, whose databases are made here.
	expect(intervalFor('notion', undefined)).toBe(false)
	expect(intervalFor('local', [])).toBe(false)
})

test('the workspaces list is polled while a connected Notion workspace still has no databases', () => {
	const { refetchInterval } = workspacesQuery
	const intervalOf = (data: Workspace[]) =>
		typeof refetchInterval === 'function'
			? refetchInterval({ state: { data } } as Parameters<typeof refetchInterval>[0])
			: refetchInterval
	const notion: Workspace = {
		id: 'ws1',
		tool: 'notion',
		name: 'Notion',
		icon: null,
		status: 'connected',
		databasesCount: 0,
		createdAt: '2026-11-23T10:00:00.000Z',
	}
	expect(intervalOf([notion])).toBe(5000)
	expect(intervalOf([{ ...notion, databasesCount: 4 }])).toBe(false)
	expect(intervalOf([{ ...notion, status: 'needs_reauth' }])).toBe(false)
	expect(intervalOf([{ ...notion, tool: 'local' }])).toBe(false)
})
