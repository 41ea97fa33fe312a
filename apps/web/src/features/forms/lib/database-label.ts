import type { Form } from '@blocksmith/contracts/forms.ts'
import { useQuery } from '@tanstack/react-query'
import { workspacesQuery } from '#src/workspaces/api/workspaces.ts'

/**
 * The database a form writes to, with its workspace beside it ("Projects · Sample workspace"):
 * two workspaces can both have a Projects database. The workspace list is small and cached.
 */
export function useDatabaseLabel(): (form: Pick<Form, 'workspaceId' | 'databaseName'>) => string {
	const workspaces = useQuery(workspacesQuery)
	return (form) => {
		const workspace = workspaces.data?.find((candidate) => candidate.id === form.workspaceId)
		return workspace ? `${form.databaseName} · ${workspace.name}` : form.databaseName
	}
}
