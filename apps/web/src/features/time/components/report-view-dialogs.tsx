import type { TimeDatabase } from '@blocksmith/contracts/time.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { MoreHorizontal, PencilLine, Plus, Trash2 } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { paths } from '#src/app/paths.ts'
import { Button } from '#src/components/ui/button.tsx'
import {
	ConfirmDialog,
	Dialog,
	DialogClose,
	DialogContent,
	DialogFooter,
	DialogTrigger,
} from '#src/components/ui/dialog.tsx'
import {
	DropdownMenu,
	DropdownMenuContent,
	DropdownMenuItem,
	DropdownMenuSeparator,
	DropdownMenuTrigger,
} from '#src/components/ui/dropdown-menu.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { createView, deleteView, reportKeys, type ToolView, updateView } from '../api/reports.ts'
import { browserTimeZone, browserWeekStart } from './timesheet-week.ts'

// Saved report views: create one on a mapped database, rename it, delete it.

function nameError(error: unknown): string | undefined {
	return error instanceof ApiError ? error.fieldErrors.find((item) => item.field === 'name')?.message : undefined
}

/**
 * A name and a database; the view starts on this week, grouped by project, in the browser's zone
 * and with its weeks starting on the day the timesheet's do, so "this week" is the same week in both.
 */
export function NewReportDialog({ databases }: { databases: TimeDatabase[] }) {
	const [isOpen, setIsOpen] = useState(false)
	const [name, setName] = useState('')
	const [databaseKey, setDatabaseKey] = useState('')
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const create = useMutation({
		mutationFn: createView,
		meta: { isFormMutation: true },
		onSuccess: async (view) => {
			queryClient.setQueryData(reportKeys.view(view.id), view)
			await queryClient.invalidateQueries({ queryKey: reportKeys.views })
			setIsOpen(false)
			await navigate(paths.timeReport(view.id, view.tool))
		},
	})
	const database = databases.find((candidate) => `${candidate.tool}:${candidate.id}` === databaseKey) ?? databases[0]

	function submit(event: FormEvent): void {
		event.preventDefault()
		if (!database) {
			return
		}
		create.mutate({
			tool: database.tool,
			view: {
				databaseId: database.id,
				name: name.trim() || 'Time report',
				settings: { timeZone: browserTimeZone(), weekStart: browserWeekStart() },
			},
		})
	}

	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button disabled={databases.length === 0}>
					<Plus aria-hidden /> New report
				</Button>
			</DialogTrigger>
			<DialogContent
				title="New report"
				description="A saved view of one time database: its range, filters and grouping."
			>
				<form className="grid gap-4" onSubmit={submit}>
					<Field label="Name" error={nameError(create.error)}>
						<Input
							value={name}
							placeholder="Time report"
							maxLength={200}
							onChange={(event) => setName(event.target.value)}
						/>
					</Field>
					{databases.length > 1 ? (
						<Field label="Time database">
							<NativeSelect value={databaseKey} onChange={(event) => setDatabaseKey(event.target.value)}>
								{databases.map((candidate) => (
									<option key={`${candidate.tool}:${candidate.id}`} value={`${candidate.tool}:${candidate.id}`}>
										{candidate.name}
									</option>
								))}
							</NativeSelect>
						</Field>
					) : null}
					<DialogFooter>
						<DialogClose asChild>
							<Button variant="outline">Cancel</Button>
						</DialogClose>
						<Button type="submit" isLoading={create.isPending}>
							Create report
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}

/** The "…" menu of a view: rename, delete. From the view's own page, a delete goes back to the list. */
export function ReportActionsMenu({ view, isInList }: { view: ToolView; isInList: boolean }) {
	const [dialog, setDialog] = useState<'rename' | 'delete' | null>(null)
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const remove = useMutation({
		mutationFn: deleteView,
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: reportKeys.views })
			toast.success(`${view.name} was deleted.`)
			if (!isInList) {
				await navigate(paths.timeReports)
			}
			queryClient.removeQueries({ queryKey: reportKeys.view(view.id) })
		},
	})
	return (
		<>
			<DropdownMenu>
				<DropdownMenuTrigger asChild>
					<Button
						variant={isInList ? 'ghost' : 'outline'}
						size={isInList ? 'icon-sm' : 'icon'}
						aria-label={isInList ? `Actions for ${view.name}` : 'More actions'}
					>
						<MoreHorizontal aria-hidden />
					</Button>
				</DropdownMenuTrigger>
				<DropdownMenuContent align="end">
					<DropdownMenuItem onSelect={() => setDialog('rename')}>
						<PencilLine aria-hidden /> Rename
					</DropdownMenuItem>
					<DropdownMenuSeparator />
					<DropdownMenuItem isDestructive onSelect={() => setDialog('delete')}>
						<Trash2 aria-hidden /> Delete
					</DropdownMenuItem>
				</DropdownMenuContent>
			</DropdownMenu>
			<RenameReportDialog
				view={view}
				open={dialog === 'rename'}
				onOpenChange={(open) => setDialog(open ? 'rename' : null)}
			/>
			<ConfirmDialog
				open={dialog === 'delete'}
				onOpenChange={(open) => setDialog(open ? 'delete' : null)}
				title={`Delete ${view.name}?`}
				description="The saved view and its shared links go away. The time entries stay as they are."
				confirmLabel="Delete report"
				isDestructive
				onConfirm={() => remove.mutateAsync(view)}
			/>
		</>
	)
}

function RenameReportDialog({
	view,
	open,
	onOpenChange,
}: {
	view: ToolView
	open: boolean
	onOpenChange: (open: boolean) => void
}) {
	const [name, setName] = useState(view.name)
	const queryClient = useQueryClient()
	const rename = useMutation({
		mutationFn: updateView,
		meta: { isFormMutation: true },
		onSuccess: async (saved) => {
			queryClient.setQueryData(reportKeys.view(saved.id), saved)
			await queryClient.invalidateQueries({ queryKey: reportKeys.views })
			onOpenChange(false)
		},
	})
	return (
		<Dialog
			open={open}
			onOpenChange={(next) => {
				setName(view.name)
				onOpenChange(next)
			}}
		>
			<DialogContent title="Rename report">
				<form
					className="grid gap-4"
					onSubmit={(event) => {
						event.preventDefault()
						rename.mutate({ view, changes: { name: name.trim() } })
					}}
				>
					<Field label="Name" error={nameError(rename.error)}>
						<Input value={name} maxLength={200} required onChange={(event) => setName(event.target.value)} />
					</Field>
					<DialogFooter>
						<DialogClose asChild>
							<Button variant="outline">Cancel</Button>
						</DialogClose>
						<Button type="submit" isLoading={rename.isPending} disabled={!name.trim()}>
							Rename
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
