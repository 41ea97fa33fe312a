import type { Database } from '@blocksmith/contracts/workspaces.ts'
import { useQueries, useQuery } from '@tanstack/react-query'
import { Plus, Sparkles } from 'lucide-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Select, type SelectOptionGroup } from '#src/components/ui/select.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { databasesQuery, workspacesQuery } from '../api/workspaces.ts'

function fieldError(error: unknown, field: string): string | undefined {
	return error instanceof ApiError
		? error.fieldErrors.find((candidate) => candidate.field === field)?.message
		: undefined
}

type NewFromDatabaseDialogProps = {
	/** What is made ("chart"): the trigger says "New chart", the submit "Create chart". */
	noun: string
	variant?: 'primary' | 'outline'
	description: string
	nameDescription: string
	/** Said when Create is pressed with no database picked. */
	noDatabaseProblem: string
	/** How the new thing uses a database, said when there is none yet. */
	noDatabasesLead: string
	/** Open and closed by the feature: its create closes the dialog once it lands. */
	isOpen: boolean
	onOpenChange: (open: boolean) => void
	create: { isPending: boolean; error: unknown; reset: () => void }
	onCreate: (database: Database, name: string) => void
}

/**
 * Pick a database (grouped by workspace) and name the new thing; a form and a chart both start
 * this way. The name follows the database picked until it is typed.
 */
export function NewFromDatabaseDialog({
	noun,
	variant = 'primary',
	description,
	nameDescription,
	noDatabaseProblem,
	noDatabasesLead,
	isOpen,
	onOpenChange,
	create,
	onCreate,
}: NewFromDatabaseDialogProps) {
	const [databaseId, setDatabaseId] = useState('')
	const [name, setName] = useState('')
	const [isNameTouched, setIsNameTouched] = useState(false)
	const [isSubmitted, setIsSubmitted] = useState(false)

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

	function reset(): void {
		setDatabaseId('')
		setName('')
		setIsNameTouched(false)
		setIsSubmitted(false)
		create.reset()
	}

	const databaseProblem =
		(isSubmitted && !databaseId ? noDatabaseProblem : undefined) ?? fieldError(create.error, 'databaseId')
	const nameProblem =
		(isSubmitted && !name.trim() ? `Give the ${noun} a name.` : undefined) ?? fieldError(create.error, 'name')

	return (
		<Dialog
			open={isOpen}
			onOpenChange={(open) => {
				onOpenChange(open)
				if (!open) {
					reset()
				}
			}}
		>
			<DialogTrigger asChild>
				<Button variant={variant}>
					<Plus aria-hidden /> New {noun}
				</Button>
			</DialogTrigger>
			<DialogContent title={`New ${noun}`} description={description}>
				{isLoading ? (
					<SkeletonGroup label="Loading your databases…" className="grid gap-3">
						<Skeleton className="h-9 w-full" />
						<Skeleton className="h-9 w-full" />
					</SkeletonGroup>
				) : groups.length === 0 ? (
					<NoDatabases lead={noDatabasesLead} onLeave={() => onOpenChange(false)} />
				) : (
					<form
						className="grid gap-4"
						noValidate
						onSubmit={(event) => {
							event.preventDefault()
							setIsSubmitted(true)
							const database = databases.find((candidate) => candidate.id === databaseId)
							if (database && name.trim()) {
								onCreate(database, name.trim())
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
										setName(`${database.name} ${noun}`)
									}
								}}
							/>
						</Field>
						<Field label="Name" description={nameDescription} error={nameProblem} isRequired>
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
							<Button variant="outline" onClick={() => onOpenChange(false)}>
								Cancel
							</Button>
							<Button type="submit" isLoading={create.isPending}>
								Create {noun}
							</Button>
						</DialogFooter>
					</form>
				)}
			</DialogContent>
		</Dialog>
	)
}

/** Without a database there is nothing to build on: say where to get one. */
export function NoDatabases({ lead, onLeave }: { lead: string; onLeave?: () => void }) {
	return (
		<div className="grid gap-4 rounded-lg border border-dashed p-4 text-sm">
			<div className="grid gap-1">
				<p className="font-medium">You have no databases yet</p>
				<p className="text-muted-foreground">
					{lead} Connect Notion, make a database here, or try everything with a sample workspace (clients, projects,
					time entries and invoices).
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
