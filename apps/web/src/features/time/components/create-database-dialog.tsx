import type { TimeDatabase } from '@blocksmith/contracts/time.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Plus } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { paths } from '#src/app/paths.ts'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { databasesQuery, workspaceKeys, workspacesQuery } from '#src/workspaces/api/workspaces.ts'
import { createTimeDatabase } from '../api/time.ts'
import { timeKeys } from '../api/time-keys.ts'

type FieldName = 'workspaceId' | 'name' | 'projectsDatabaseId'

/** A new, well-formed time entries database in a built-in workspace, mapped at once. */
export function CreateDatabaseDialog({
	onCreated,
	variant = 'outline',
}: {
	onCreated: (database: TimeDatabase) => void
	variant?: 'outline' | 'primary'
}) {
	const [isOpen, setIsOpen] = useState(false)
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button variant={variant}>
					<Plus aria-hidden /> Create a time entries database
				</Button>
			</DialogTrigger>
			<DialogContent
				title="Create a time entries database"
				description="A built-in database with a start and end, duration, person, project, tags and billable, ready for the timer."
			>
				{isOpen ? (
					<CreateForm
						onCancel={() => setIsOpen(false)}
						onCreated={(database) => {
							setIsOpen(false)
							onCreated(database)
						}}
					/>
				) : null}
			</DialogContent>
		</Dialog>
	)
}

function CreateForm({ onCancel, onCreated }: { onCancel: () => void; onCreated: (database: TimeDatabase) => void }) {
	const queryClient = useQueryClient()
	const workspaces = useQuery(workspacesQuery)
	const builtIn = workspaces.data?.filter((workspace) => workspace.tool === 'local') ?? []
	const [chosenWorkspace, setWorkspaceId] = useState<string | null>(null)
	const workspaceId = chosenWorkspace ?? builtIn[0]?.id ?? ''
	const [name, setName] = useState('Time entries')
	const [projectsChoice, setProjectsDatabaseId] = useState<string | null>(null)
	const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({})
	const databases = useQuery({ ...databasesQuery('local', workspaceId), enabled: Boolean(workspaceId) })
	// A workspace's own projects database is what most people mean: chosen until changed.
	const projectsDatabaseId =
		projectsChoice ?? databases.data?.find((database) => /project/i.test(database.name))?.id ?? ''
	const create = useMutation({
		mutationFn: createTimeDatabase,
		meta: { isFormMutation: true },
		onSuccess: async (database) => {
			await Promise.all([
				queryClient.invalidateQueries({ queryKey: timeKeys.databases }),
				queryClient.invalidateQueries({ queryKey: workspaceKeys.all }),
			])
			toast.success(`${database.name} is created and ready for time tracking.`)
			onCreated(database)
		},
		onError: (error) => {
			if (error instanceof ApiError && error.fieldErrors.length > 0) {
				setErrors(
					Object.fromEntries(error.fieldErrors.map(({ field, message }) => [field.split('.')[0] ?? field, message])),
				)
			}
		},
	})

	if (workspaces.isSuccess && builtIn.length === 0) {
		return (
			<div className="grid gap-4">
				<p className="text-muted-foreground text-sm">
					A time entries database is created in a built-in workspace. Add the sample workspace, or a built-in workspace
					of your own, first.
				</p>
				<DialogFooter>
					<Button variant="outline" type="button" onClick={onCancel}>
						Cancel
					</Button>
					<Button asChild>
						<Link to={paths.workspaces}>Go to Workspaces</Link>
					</Button>
				</DialogFooter>
			</div>
		)
	}

	function submit(event: FormEvent): void {
		event.preventDefault()
		setErrors({})
		create.mutate({ workspaceId, name, projectsDatabaseId: projectsDatabaseId || null })
	}

	return (
		<form onSubmit={submit} noValidate className="grid gap-4">
			<Field label="Workspace" error={errors.workspaceId} isRequired>
				<NativeSelect
					value={workspaceId}
					onChange={(event) => {
						setWorkspaceId(event.target.value)
						setProjectsDatabaseId(null)
					}}
				>
					{builtIn.map((workspace) => (
						<option key={workspace.id} value={workspace.id}>
							{workspace.name}
						</option>
					))}
				</NativeSelect>
			</Field>
			<Field label="Name" error={errors.name} isRequired>
				<Input value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
			</Field>
			<Field
				label="Projects"
				error={errors.projectsDatabaseId}
				description="Entries link to rows of this database. Without one, Project is a list of options."
			>
				<NativeSelect value={projectsDatabaseId} onChange={(event) => setProjectsDatabaseId(event.target.value)}>
					<option value="">None (a Project select)</option>
					{databases.data?.map((database) => (
						<option key={database.id} value={database.id}>
							{database.name}
						</option>
					))}
				</NativeSelect>
			</Field>
			<DialogFooter>
				<Button variant="outline" type="button" onClick={onCancel}>
					Cancel
				</Button>
				<Button type="submit" isLoading={create.isPending} disabled={!workspaceId}>
					Create
				</Button>
			</DialogFooter>
		</form>
	)
}
