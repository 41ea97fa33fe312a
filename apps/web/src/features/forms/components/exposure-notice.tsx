import type { ChoiceScope, FormField } from '@blocksmith/contracts/forms.ts'
import type { Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useQuery } from '@tanstack/react-query'
import { Eye } from 'lucide-react'
import { databasesQuery } from '#src/workspaces/api/workspaces.ts'

type ExposureNoticeProps = {
	field: Pick<FormField, 'id' | 'kind'> & { choiceScope?: ChoiceScope }
	property: Property | undefined
	tool: WorkspaceTool
	workspaceId: string
}

/**
 * What a relation or people field shows anonymous visitors of the published form: its choices,
 * as far as the field's "Choices visitors may see" allows (every row of the related database or
 * every person, by default). The owner who adds one is told plainly.
 */
export function ExposureNotice({ field, property, tool, workspaceId }: ExposureNoticeProps) {
	const scope = field.choiceScope ?? { mode: 'all' }
	if (field.kind !== 'relation' && field.kind !== 'people') {
		return null
	}
	if (scope.mode === 'search') {
		return (
			<Notice id={`${field.id}-exposure`}>
				Visitors see no list: up to 10 matches appear once they type two letters.
			</Notice>
		)
	}
	if (scope.mode === 'subset') {
		return (
			<Notice id={`${field.id}-exposure`}>
				{`Visitors will see the names of the ${scope.ids.length} ${field.kind === 'people' ? 'people' : 'rows'} you chose.`}
			</Notice>
		)
	}
	if (field.kind === 'relation') {
		return (
			<RelationNotice
				field={field}
				isFiltered={scope.mode === 'filter'}
				property={property}
				tool={tool}
				workspaceId={workspaceId}
			/>
		)
	}
	return <Notice id={`${field.id}-exposure`}>Visitors will see the names of everyone in this workspace.</Notice>
}

function RelationNotice({
	field,
	isFiltered,
	property,
	tool,
	workspaceId,
}: ExposureNoticeProps & { isFiltered: boolean }) {
	const databases = useQuery({ ...databasesQuery(tool, workspaceId), enabled: Boolean(property?.relationDatabaseId) })
	const name = databases.data?.find((database) => database.id === property?.relationDatabaseId)?.name
	return (
		<Notice id={`${field.id}-exposure`}>
			{isFiltered
				? `Visitors will see the names of the rows in ${name ?? 'the related database'} that match the filters.`
				: `Visitors will see the names of every row in ${name ?? 'the related database'}.`}
		</Notice>
	)
}

function Notice({ id, children }: { id: string; children: string | string[] }) {
	return (
		<p id={id} className="flex items-start gap-1.5 px-3 pb-2 text-muted-foreground text-xs sm:px-4">
			<Eye aria-hidden className="mt-px size-3.5 shrink-0 text-warning" />
			<span>{children}</span>
		</p>
	)
}
