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
import { chartKeys, createChart } from '../api/charts.ts'
import { chartPaths } from '../lib/chart-paths.ts'

function fieldError(error: unknown, field: string): string | undefined {
	return error instanceof ApiError
		? error.fieldErrors.find((candidate) => candidate.field === field)?.message
		: undefined
}

/** Pick a database (grouped by workspace), name the chart, and land in its builder. */
export function NewChartDialog({ variant = 'primary' }: { variant?: 'primary' | 'outline' }) {
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
		mutationFn: createChart,
		meta: { isFormMutation: true },
		onSuccess: async (chart) => {
			queryClient.setQueryData(chartKeys.detail(chart.id), chart)
			await queryClient.invalidateQueries({ queryKey: chartKeys.list })
			toast.success(`${chart.name} was created. Shape it on the left; the preview follows.`)
			setIsOpen(false)
			await navigate(chartPaths.edit(chart.id, chart.tool))
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
		(isSubmitted && !databaseId ? 'Pick the database to chart.' : undefined) ?? fieldError(create.error, 'databaseId')
	const nameProblem =
		(isSubmitted && !name.trim() ? 'Give the chart a name.' : undefined) ?? fieldError(create.error, 'name')

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
					<Plus aria-hidden /> New chart
				</Button>
			</DialogTrigger>
			<DialogContent
				title="New chart"
				description="A chart counts or sums the rows of one database. It starts as a bar chart of its first useful property; change anything in the builder."
			>
				{isLoading ? (
					<SkeletonGroup label="Loading your databases…" className="grid gap-3">
						<Skeleton className="h-9 w-full" />
						<Skeleton className="h-9 w-full" />
					</SkeletonGroup>
				) : groups.length === 0 ? (
					<NoDatabases onLeave={() => setIsOpen(false)} />
				) : (
					<form
						className="grid gap-4"
						noValidate
						onSubmit={(event) => {
							event.preventDefault()
							setIsSubmitted(true)
							const database = databases.find((candidate) => candidate.id === databaseId)
							if (database && name.trim()) {
								create.mutate({
									tool: database.tool,
									// Date buckets and "this month" follow the creator's clock until they choose another zone.
									chart: { databaseId, name: name.trim(), timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
								})
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
										setName(`${database.name} chart`)
									}
								}}
							/>
						</Field>
						<Field
							label="Name"
							description="For you; the chart's title is set in the builder."
							error={nameProblem}
							isRequired
						>
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
								Create chart
							</Button>
						</DialogFooter>
					</form>
				)}
			</DialogContent>
		</Dialog>
	)
}

/** A chart reads a database: without one, say where to get one. */
export function NoDatabases({ onLeave }: { onLeave?: () => void }) {
	return (
		<div className="grid gap-4 rounded-lg border border-dashed p-4 text-sm">
			<div className="grid gap-1">
				<p className="font-medium">You have no databases yet</p>
				<p className="text-muted-foreground">
					A chart is drawn from a workspace database. Connect Notion, make a database here, or try everything with a
					sample workspace (clients, projects, time entries and invoices).
				</p>
			</div>
			<div>
				<Button asChild variant="outline">
					<Link to="/workspaces" onClick={onLeave}>
						<Sparkles aria-hidden /> Create the sample workspace
					</Link>
				</Button>
			</div>
		</div>
	)
}
