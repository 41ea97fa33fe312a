import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { Plus, Sparkles } from 'lucide-react'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Select, type SelectOptionGroup } from '#src/components/ui/select.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { databasesQuery, workspacesQuery } from '#src/workspaces/api/workspaces.ts'
import { createForm, formKeys } from '../api/forms.ts'
import { formPaths } from '../lib/form-paths.ts'

function fieldError(error: unknown, field: string): string | undefined {
	return error instanceof ApiError
		? error.fieldErrors.find((candidate) => candidate.field === field)?.message
		: undefined
}

/** Pick a database (grouped by workspace), name the form, and land in its builder. */
export function NewFormDialog({ variant = 'primary' }: { variant?: 'primary' | 'outline' }) {
	const [isOpen, setIsOpen] = useState(false)
	const [databaseId, setDatabaseId] = useState('')
	const [name, setName] = useState('')
	const [isNameTouched, setIsNameTouched] = useState(false)
	const [isSubmitted, setIsSubmitted] = useState(false)
	const queryClient = useQueryClient()
	const navigate = useNavigate()

	const workspaces = useQuery({ ...workspacesQuery, enabled: isOpen })
	const databaseLists = useQueries({
		queries: (workspaces.data ?? []).map((workspace) => ({
			...databasesQuery(workspace.tool, workspace.id),
			enabled: isOpen,
		})),
	})
	const isLoading = workspaces.isPending || databaseLists.some((list) => list.isPending)
	const groups: SelectOptionGroup[] = (workspaces.data ?? []).flatMap((workspace, index) => {
		const databases = databaseLists[index]?.data ?? []
		return databases.length
			? [
					{
						label: workspace.name,
						options: databases.map((database) => ({ value: database.id, label: database.name })),
					},
				]
			: []
	})
	const databases = databaseLists.flatMap((list) => list.data ?? [])

	const create = useMutation({
		mutationFn: createForm,
		meta: { isFormMutation: true },
		onSuccess: async (form) => {
			queryClient.setQueryData(formKeys.detail(form.id), form)
			await queryClient.invalidateQueries({ queryKey: formKeys.list })
			toast.success(`${form.name} was created with its plain properties as fields.`)
			setIsOpen(false)
			await navigate(formPaths.edit(form.id))
		},
	})

	function reset(): void {
		setDatabaseId('')
		setName('')
		setIsNameTouched(false)
		setIsSubmitted(false)
		create.reset()
	}

	const databaseProblem =
		(isSubmitted && !databaseId ? 'Pick the database the answers go into.' : undefined) ??
		fieldError(create.error, 'databaseId')
	const nameProblem =
		(isSubmitted && !name.trim() ? 'Give the form a name.' : undefined) ?? fieldError(create.error, 'name')

	return (
		<Dialog
			open={isOpen}
			onOpenChange={(open) => {
				setIsOpen(open)
				if (!open) {
					reset()
				}
			}}
		>
			<DialogTrigger asChild>
				<Button variant={variant}>
					<Plus aria-hidden /> New form
				</Button>
			</DialogTrigger>
			<DialogContent
				title="New form"
				description="Each answer becomes a row of the database you pick. Its plain properties start as fields; linked rows, people and status are yours to add."
			>
				{isLoading ? (
					<SkeletonGroup label="Loading your databases…" className="grid gap-3">
						<Skeleton className="h-9 w-full" />
						<Skeleton className="h-9 w-full" />
					</SkeletonGroup>
				) : groups.length === 0 ? (
					<div className="grid gap-4 rounded-lg border border-dashed p-4 text-sm">
						<div className="grid gap-1">
							<p className="font-medium">You have no databases yet</p>
							<p className="text-muted-foreground">
								A form writes into a workspace database. Connect Notion, make a database here, or try everything with a
								sample workspace (clients, projects, time entries and invoices).
							</p>
						</div>
						<div>
							<Button asChild variant="outline">
								<Link to="/workspaces" onClick={() => setIsOpen(false)}>
									<Sparkles aria-hidden /> Create the sample workspace
								</Link>
							</Button>
						</div>
					</div>
				) : (
					<form
						className="grid gap-4"
						noValidate
						onSubmit={(event) => {
							event.preventDefault()
							setIsSubmitted(true)
							if (databaseId && name.trim()) {
								create.mutate({ databaseId, name: name.trim() })
							}
						}}
					>
						<Field label="Database" error={databaseProblem} isRequired>
							<Select
								options={groups}
								value={databaseId}
								placeholder="Choose a database…"
								onValueChange={(value) => {
									setDatabaseId(value)
									const database = databases.find((candidate) => candidate.id === value)
									if (database && !isNameTouched) {
										setName(`${database.name} form`)
									}
								}}
							/>
						</Field>
						<Field label="Name" description="For you; visitors see the page title." error={nameProblem} isRequired>
							<Input
								value={name}
								maxLength={200}
								onChange={(event) => {
									setName(event.target.value)
									setIsNameTouched(true)
								}}
							/>
						</Field>
						<DialogFooter>
							<Button variant="outline" onClick={() => setIsOpen(false)}>
								Cancel
							</Button>
							<Button type="submit" isLoading={create.isPending}>
								Create form
							</Button>
						</DialogFooter>
					</form>
				)}
			</DialogContent>
		</Dialog>
	)
}
