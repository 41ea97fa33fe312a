import { formTemplate } from '@blocksmith/contracts/form-templates.ts'
import type { CreateForm } from '@blocksmith/contracts/forms.ts'
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Select, type SelectOptionGroup } from '#src/components/ui/select.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { databasesQuery, workspacesQuery } from '#src/workspaces/api/workspaces.ts'
import { NoDatabases } from '#src/workspaces/components/new-from-database-dialog.tsx'
import { createForm, formKeys } from '../api/forms.ts'
import { formPaths } from '../lib/form-paths.ts'
import { type GalleryChoice, TemplateGallery } from './template-gallery.tsx'

type Target = 'new' | 'existing'

/**
 * Where the answers go (a new built-in database by default, or an existing one), an optional name,
 * then one click on "Start from scratch" or a template creates the form and opens its builder.
 * Shown in the dialog and, before there is any form, on the forms page itself.
 */
export function NewFormChooser({ isActive = true }: { isActive?: boolean }) {
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const [target, setTarget] = useState<Target>('new')
	const [databaseId, setDatabaseId] = useState('')
	const [name, setName] = useState('')
	const [pending, setPending] = useState<GalleryChoice | undefined>(undefined)
	const [isDatabaseMissing, setIsDatabaseMissing] = useState(false)
	const targetName = useId()

	const isExisting = target === 'existing'
	const workspaces = useQuery({ ...workspacesQuery, enabled: isActive && isExisting })
	const databaseLists = useQueries({
		queries: (workspaces.data ?? []).map((workspace) => ({
			...databasesQuery(workspace.tool, workspace.id),
			enabled: isActive && isExisting,
		})),
	})
	const groups: SelectOptionGroup[] = (workspaces.data ?? []).flatMap((workspace, index) => {
		const databases = databaseLists[index]?.data ?? []
		return databases.length
			? [{ label: workspace.name, options: databases.map((d) => ({ value: d.id, label: d.name })) }]
			: []
	})
	const databases = databaseLists.flatMap((list) => list.data ?? [])
	const isLoadingDatabases = isExisting && (workspaces.isPending || databaseLists.some((list) => list.isPending))

	const create = useMutation({
		mutationFn: (input: CreateForm) => createForm(input),
		meta: { isFormMutation: true },
		onSuccess: async (form) => {
			queryClient.setQueryData(formKeys.detail(form.id), form)
			await queryClient.invalidateQueries({ queryKey: formKeys.list })
			toast.success(
				form.databaseName === form.name
					? `${form.name} was created with its own database.`
					: `${form.name} was created on ${form.databaseName}.`,
			)
			await navigate(formPaths.edit(form.id))
		},
		onSettled: () => setPending(undefined),
	})

	function pick(choice: GalleryChoice): void {
		const database = databases.find((candidate) => candidate.id === databaseId)
		if (isExisting && !database) {
			setIsDatabaseMissing(true)
			return
		}
		const fallback = choice ? formTemplate(choice).name : database ? `${database.name} form` : 'Untitled form'
		setPending(choice)
		create.mutate({
			name: name.trim() || fallback,
			...(database && isExisting ? { databaseId: database.id } : { newDatabase: {} }),
			...(choice ? { template: choice } : {}),
		})
	}

	const apiProblem = create.error instanceof ApiError ? create.error : null
	const databaseProblem =
		(isDatabaseMissing && !databaseId ? 'Pick the database the answers go into.' : undefined) ??
		apiProblem?.fieldErrors.find((error) => error.field === 'databaseId')?.message
	const nameProblem = apiProblem?.fieldErrors.find((error) => error.field === 'name')?.message

	return (
		<div className="grid gap-5">
			<div className="grid gap-4 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)]">
				<fieldset className="grid content-start gap-2">
					<legend className="mb-2 font-medium text-sm">Where do the answers go?</legend>
					{(
						[
							['new', 'Create a new database for it', 'A built-in database with a property per question.'],
							['existing', 'Use an existing database', 'Questions take its properties by name.'],
						] as const
					).map(([value, label, hint]) => (
						<label
							key={value}
							className={cn(
								'flex cursor-pointer items-start gap-2.5 rounded-lg border p-3 text-sm',
								'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring has-[:focus-visible]:outline-offset-2',
								target === value ? 'border-primary bg-primary/5' : 'hover:bg-accent/40',
							)}
						>
							<input
								type="radio"
								name={targetName}
								value={value}
								checked={target === value}
								onChange={() => setTarget(value)}
								className="mt-0.5 size-4 accent-primary"
							/>
							<span className="grid gap-0.5">
								<span className="font-medium">{label}</span>
								<span className="text-muted-foreground text-xs">{hint}</span>
							</span>
						</label>
					))}
				</fieldset>
				<div className="grid content-start gap-4">
					<Field
						label="Name"
						description="Optional: the template's name otherwise. Visitors see the page title."
						error={nameProblem}
					>
						<Input value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
					</Field>
					{isExisting ? (
						isLoadingDatabases ? (
							<Skeleton className="h-9 w-full" />
						) : groups.length === 0 ? (
							<NoDatabases lead="A form can write into a workspace database." />
						) : (
							<Field label="Database" error={databaseProblem} isRequired>
								<Select
									options={groups}
									value={databaseId}
									placeholder="Choose a database…"
									onValueChange={(value) => {
										setDatabaseId(value)
										setIsDatabaseMissing(false)
									}}
								/>
							</Field>
						)
					) : null}
				</div>
			</div>
			{create.isError && !nameProblem && !databaseProblem ? (
				<Alert variant="error" title="The form could not be created">
					{errorMessage(create.error)}
				</Alert>
			) : null}
			<TemplateGallery onPick={pick} pending={pending} />
		</div>
	)
}
