import {
	type Chart,
	type ChartConfigInput,
	type ChartRender,
	chartConfigSchema,
	chartEmbedSchema,
} from '@blocksmith/contracts/charts.ts'
import type { Database, Workspace } from '@blocksmith/contracts/workspaces.ts'

// Shared by the charts screens' tests: a database with properties of the kinds a chart cares
// about and charts on it (the API stand-in is #src/test/mock-api.tsx).

export const workspace: Workspace = {
	id: 'ws1',
	tool: 'local',
	name: 'Sample workspace',
	icon: null,
	status: 'connected',
	databasesCount: 1,
	createdAt: '2026-01-01T10:00:00.000Z',
}

export const database: Database = {
	id: 'db1',
	workspaceId: 'ws1',
	tool: 'local',
	externalId: 'db1',
	name: 'Deals',
	icon: null,
	url: null,
	properties: [
		{ id: 'name', name: 'Name', type: 'title' },
		{ id: 'amount', name: 'Amount', type: 'number' },
		{
			id: 'stage',
			name: 'Stage',
			type: 'select',
			options: [
				{ id: 'o1', name: 'New', color: 'blue' },
				{ id: 'o2', name: 'Won', color: 'green' },
			],
		},
		{ id: 'closed', name: 'Closed on', type: 'date' },
		{ id: 'weighted', name: 'Weighted', type: 'formula', resultType: 'number' },
		{ id: 'owner_name', name: 'Owner name', type: 'formula', resultType: 'string' },
	],
	sync: { state: 'idle', lastSyncedAt: null, nextSyncAt: null, lastError: null, rowCount: 3 },
}

export function makeConfig(input: ChartConfigInput = {}) {
	return chartConfigSchema.parse({ x: { property: 'stage' }, timeZone: 'UTC', ...input })
}

export function makeChart(changes: Partial<Chart> = {}): Chart {
	return {
		id: 'c1',
		name: 'Deals by stage',
		tool: 'local',
		workspaceId: 'ws1',
		databaseId: 'db1',
		databaseName: 'Deals',
		config: makeConfig(),
		embed: chartEmbedSchema.parse({}),
		published: false,
		problems: [],
		createdAt: '2026-01-01T10:00:00.000Z',
		updatedAt: '2026-01-02T10:00:00.000Z',
		...changes,
	}
}

export function makeRender(
	changes: Partial<ChartRender['figures']> = {},
	svg = '<svg role="img" aria-label="Drawn chart"></svg>',
): ChartRender {
	return {
		figures: {
			type: 'bar',
			xKind: 'category',
			categories: [
				{ key: 'New', label: 'New' },
				{ key: 'Won', label: 'Won' },
			],
			series: [
				{ key: 's1', name: 'Count', seriesId: 's1', group: null, isOther: false, isComparison: false, values: [2, 1] },
			],
			rowCount: 3,
			isTruncated: false,
			problems: [],
			computedAt: '2026-01-02T10:00:00.000Z',
			...changes,
		},
		svg,
	}
}
