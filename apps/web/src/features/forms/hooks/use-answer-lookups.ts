import type { Form } from '@blocksmith/contracts/forms.ts'
import { useQueries, useQuery } from '@tanstack/react-query'
import { useMemo } from 'react'
import { databaseQuery, rowsQuery, usersQuery } from '#src/workspaces/api/workspaces.ts'
import type { AnswerLookups } from '../lib/answers.ts'

/** Names for people and titles for linked rows, loaded only when the form has such fields. */
export function useAnswerLookups(form: Form): AnswerLookups {
	const hasPeople = form.fields.some((field) => field.kind === 'people')
	const hasRelations = form.fields.some((field) => field.kind === 'relation')
	const users = useQuery({
		...usersQuery(form.tool, form.workspaceId),
		enabled: hasPeople && Boolean(form.workspaceId),
	})
	const database = useQuery({
		...databaseQuery(form.tool, form.databaseId),
		enabled: hasRelations && Boolean(form.databaseId),
	})
	const relationFieldProperties = new Set(
		form.fields.filter((field) => field.kind === 'relation').map((field) => field.propertyId),
	)
	const related = [
		...new Set(
			(database.data?.properties ?? []).flatMap((property) =>
				relationFieldProperties.has(property.id) && property.relationDatabaseId ? [property.relationDatabaseId] : [],
			),
		),
	]
	const rows = useQueries({
		queries: related.map((id) => ({ ...rowsQuery(form.tool, id, { offset: 0, limit: 200 }), staleTime: 60_000 })),
	})
	const signature = rows.map((result) => result.dataUpdatedAt).join(',')
	// biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt when any result changes (the signature)
	const titles = useMemo(
		() =>
			new Map(rows.flatMap((result) => (result.data?.rows ?? []).map((row) => [row.externalId, row.title] as const))),
		[signature],
	)
	const people = useMemo(() => new Map((users.data ?? []).map((user) => [user.id, user.name])), [users.data])
	return useMemo(
		() => ({ personName: (id: string) => people.get(id), rowTitle: (id: string) => titles.get(id) || undefined }),
		[people, titles],
	)
}
