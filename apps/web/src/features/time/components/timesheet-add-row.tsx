import type { TimeDatabase } from '@blocksmith/contracts/time.ts'
import { useQuery } from '@tanstack/react-query'
import { Plus } from 'lucide-react'
import { type FormEvent, useMemo, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { databaseQuery, rowsQuery } from '#src/workspaces/api/workspaces.ts'
import type { GridRow } from './timesheet-grid.tsx'

// "Add row": a project and a task for the week. The row exists on this screen only until one of
// its cells gets time. Projects are what the mapped property offers: a select's options, or the
// rows of the database a relation points at (as their ids, which is what entries carry).

type ProjectChoice = { value: string; label: string }

/** The project property's choices, and the projects the week already shows. */
function useProjectChoices(database: TimeDatabase, rows: GridRow[]): ProjectChoice[] {
	const propertyId = database.saved?.mapping.project ?? null
	const details = useQuery({ ...databaseQuery(database.tool, database.id), enabled: propertyId !== null })
	const property = details.data?.properties.find((candidate) => candidate.id === propertyId)
	const relatedId = property?.type === 'relation' ? (property.relationDatabaseId ?? null) : null
	const related = useQuery({
		...rowsQuery(database.tool, relatedId ?? '', { offset: 0, limit: 100 }),
		enabled: relatedId !== null,
	})
	return useMemo(() => {
		const choices = new Map<string, string>()
		for (const row of rows) {
			if (row.project !== null) {
				choices.set(row.project, row.projectName ?? row.project)
			}
		}
		if (property?.type === 'relation') {
			// Entries name a related project by its row's id here, not by its Notion page id (externalId).
			for (const row of related.data?.rows ?? []) {
				choices.set(row.id, row.title || 'Untitled')
			}
		} else {
			for (const option of property?.options ?? []) {
				choices.set(option.name, option.name)
			}
		}
		return [...choices]
			.map(([value, label]) => ({ value, label }))
			.sort((left, right) => left.label.localeCompare(right.label))
	}, [rows, property, related.data])
}

type AddRowProps = {
	database: TimeDatabase
	rows: GridRow[]
	onAdd: (row: { project: string | null; projectName: string | null; task: string | null }) => void
}

export function TimesheetAddRow({ database, rows, onAdd }: AddRowProps) {
	const [isOpen, setIsOpen] = useState(false)
	const [project, setProject] = useState('')
	const [task, setTask] = useState('')
	const choices = useProjectChoices(database, rows)
	const hasProject = Boolean(database.saved?.mapping.project)
	const hasTask = Boolean(database.saved?.mapping.task)

	function submit(event: FormEvent): void {
		event.preventDefault()
		const chosen = choices.find((choice) => choice.value === project)
		onAdd({ project: project || null, projectName: chosen?.label ?? null, task: task.trim() || null })
		setIsOpen(false)
		setProject('')
		setTask('')
	}

	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button variant="outline" size="sm">
					<Plus aria-hidden /> Add row
				</Button>
			</DialogTrigger>
			<DialogContent title="Add a row" description="A project and task to fill in this week.">
				<form className="grid gap-4" onSubmit={submit}>
					{hasProject ? (
						<Field label="Project">
							<NativeSelect value={project} onChange={(event) => setProject(event.target.value)}>
								<option value="">No project</option>
								{choices.map((choice) => (
									<option key={choice.value} value={choice.value}>
										{choice.label}
									</option>
								))}
							</NativeSelect>
						</Field>
					) : null}
					{hasTask ? (
						<Field label="Task" description="Optional.">
							<Input value={task} maxLength={2000} onChange={(event) => setTask(event.target.value)} />
						</Field>
					) : null}
					{!hasProject && !hasTask ? (
						<p className="text-muted-foreground text-sm">
							This database has no project or task property, so the week has a single row.
						</p>
					) : null}
					<DialogFooter>
						<DialogClose asChild>
							<Button variant="outline">Cancel</Button>
						</DialogClose>
						<Button type="submit" disabled={!hasProject && !hasTask}>
							Add row
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
