import type { TimeDatabase } from '@blocksmith/contracts/time.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { databaseQuery, rowsQuery } from '#src/workspaces/api/workspaces.ts'

const lastDatabaseKey = 'blocksmith:time:database'

/** The database last tracked into on this browser ("local:<id>"), so the page opens on it. */
export function readLastDatabase(): string | null {
	try {
		return localStorage.getItem(lastDatabaseKey)
	} catch {
		return null
	}
}

export function rememberDatabase(database: Pick<TimeDatabase, 'tool' | 'id'>): void {
	try {
		localStorage.setItem(lastDatabaseKey, databaseKey(database))
	} catch {
		// Private mode or a full storage: the first database is chosen next time.
	}
}

export function databaseKey(database: Pick<TimeDatabase, 'tool' | 'id'>): string {
	return `${database.tool}:${database.id}`
}

/** The mapped properties an entry's details are written to: the project, the tags and billable, when mapped. */
export type EntryProperties = { project: Property | null; tags: Property | null; billable: Property | null }

/** The time database's properties as its saved mapping uses them (read from the workspace database). */
export function useEntryProperties(database: TimeDatabase): EntryProperties & { isPending: boolean } {
	const details = useQuery(databaseQuery(database.tool, database.id))
	const mapping = database.saved?.mapping
	return useMemo(() => {
		const find = (id: string | null | undefined) =>
			(id && details.data?.properties.find((property) => property.id === id)) || null
		return {
			project: find(mapping?.project),
			tags: find(mapping?.tags),
			billable: find(mapping?.billable),
			isPending: details.isPending,
		}
	}, [details.data, details.isPending, mapping])
}

/**
 * The projects' names, for entries that hold a projects row id (a relation): the first 200 rows
 * of the projects database. A select's project is its option's name already.
 */
export function useProjectNames(
	database: TimeDatabase,
	project: Property | null,
): (value: string | null) => string | null {
	const relationId = project?.type === 'relation' ? (project.relationDatabaseId ?? null) : null
	const rows = useQuery({
		...rowsQuery(database.tool, relationId ?? '', { offset: 0, limit: 200 }),
		enabled: Boolean(relationId),
		staleTime: 60_000,
	})
	return useMemo(() => {
		const names = new Map(rows.data?.rows.map((row) => [row.id, row.title || 'Untitled']) ?? [])
		return (value) => {
			if (!value) {
				return null
			}
			return relationId ? (names.get(value) ?? (rows.isPending ? '…' : 'Project')) : value
		}
	}, [rows.data, rows.isPending, relationId])
}
