import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useQuery } from '@tanstack/react-query'
import { Eye } from 'lucide-react'
import { databasesQuery } from '#src/workspaces/api/workspaces.ts'

type ExposureNoticeProps = {
	field: Pick<FormField, 'id' | 'kind'>
	property: Property | undefined
	tool: WorkspaceTool
	workspaceId: string
}

/**
 * What a relation or people field shows anonymous visitors of the published form: its choices,
 * i.e. the title of every row in the related database, or the names of the workspace's people.
 * A new form leaves these fields out; the owner who adds one is told plainly.
 */
export function ExposureNotice({ field, property, tool, workspaceId }: ExposureNoticeProps) {
	if (field.kind === 'relation') {
		return <RelationNotice field={field} property={property} tool={tool} workspaceId={workspaceId} />
	}
	if (field.kind === 'people') {
		return <Notice id={`${field.id}-exposure`}>Visitors will see the names of everyone in this workspace.</Notice>
	}
	return null
}

function RelationNotice({ field, property, tool, workspaceId }: ExposureNoticeProps) {
	const databases = useQuery({ ...databasesQuery(tool, workspaceId), enabled: Boolean(property?.relationDatabaseId) })
	const name = databases.data?.find((database) => database.id === property?.relationDatabaseId)?.name
	return (
		<Notice id={`${field.id}-exposure`}>
			Visitors will see the names of every row in {name ?? 'the related database'}.
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
