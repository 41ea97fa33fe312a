import { maxEntrySeconds, type TimeDatabase, type TimeEntry } from '@blocksmith/contracts/time.ts'
import { formatDuration, parseDuration } from '@blocksmith/contracts/time-duration.ts'
import { useMutation } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { createEntry, updateEntry } from '../api/time.ts'
import { endAfter, instantOf, localDay, localTime } from '../lib/entries.ts'
import type { EntryProperties } from '../lib/hooks.ts'
import { useTimerChanged } from '../lib/timer-channel.ts'
import { BillableToggle, ProjectPicker, TagsPicker } from './detail-pickers.tsx'

// One entry typed by hand ("Add time") or changed ("Edit"): its description and details, the
// day, the start, and the end or the duration (typed like 1:30, 1.5h or 90m). Whichever of the
// end and the duration was typed last decides; the other follows it as it is typed.

type Values = {
	description: string
	project: string | null
	projectName: string | null
	tags: string[]
	billable: boolean
	date: string
	start: string
	end: string
	duration: string
	/** The end or the duration: the one typed last decides the entry's end. */
	endFrom: 'end' | 'duration'
}
type FieldName = 'description' | 'project' | 'tags' | 'date' | 'start' | 'end' | 'duration'
type Errors = Partial<Record<FieldName, string>>

/** The server's field names, as this form shows them. */
const serverFields: Record<string, FieldName> = {
	startedAt: 'start',
	endedAt: 'end',
	duration: 'duration',
	durationSeconds: 'duration',
	description: 'description',
	project: 'project',
	tags: 'tags',
}

function initialValues(entry: TimeEntry | undefined, projectName: (value: string | null) => string | null): Values {
	if (entry) {
		const start = new Date(entry.startedAt)
		const end = entry.endedAt ? new Date(entry.endedAt) : new Date()
		return {
			description: entry.description ?? '',
			project: entry.project,
			projectName: projectName(entry.project),
			tags: entry.tags,
			billable: entry.billable ?? false,
			date: localDay(start),
			start: localTime(start),
			end: localTime(end),
			duration: formatDuration(Math.round((end.getTime() - start.getTime()) / 60_000) * 60),
			endFrom: 'end',
		}
	}
	// A new entry: the hour up to now, to change as needed.
	const end = new Date()
	end.setSeconds(0, 0)
	const start = new Date(end.getTime() - 3600_000)
	return {
		description: '',
		project: null,
		projectName: null,
		tags: [],
		billable: false,
		date: localDay(start),
		start: localTime(start),
		end: localTime(end),
		duration: '1:00',
		endFrom: 'end',
	}
}

/** The entry's start and end from the form, or what is wrong with them, field by field. */
function readSpan(values: Values): { startedAt: Date; endedAt: Date } | { errors: Errors } {
	const startedAt = instantOf(values.date, values.start)
	if (!startedAt) {
		return {
			errors: instantOf(values.date, '00:00') ? { start: 'Type a time such as 09:00.' } : { date: 'Choose a day.' },
		}
	}
	if (values.endFrom === 'duration') {
		const parsed = parseDuration(values.duration, { maxSeconds: maxEntrySeconds })
		if (!parsed.ok) {
			return { errors: { duration: parsed.message } }
		}
		if (parsed.seconds === null) {
			return { errors: { duration: 'Give the duration, or the end.' } }
		}
		return { startedAt, endedAt: new Date(startedAt.getTime() + parsed.seconds * 1000) }
	}
	const endedAt = endAfter(startedAt, values.end)
	return endedAt ? { startedAt, endedAt } : { errors: { end: 'Type a time such as 17:30.' } }
}

type EntryDialogProps = {
	database: TimeDatabase
	properties: EntryProperties
	projectName: (value: string | null) => string | null
	/** The entry to change; none: a new one. */
	entry?: TimeEntry
	isOpen: boolean
	onOpenChange: (isOpen: boolean) => void
}

export function EntryDialog({ isOpen, onOpenChange, ...props }: EntryDialogProps) {
	return (
		<Dialog open={isOpen} onOpenChange={onOpenChange}>
			<DialogContent
				size="lg"
				title={props.entry ? 'Edit entry' : 'Add time'}
				description={props.entry ? undefined : 'Time you did not track with the timer.'}
			>
				{/* Mounted with the dialog, so each opening starts from the entry as it is now. */}
				{isOpen ? <EntryForm {...props} onDone={() => onOpenChange(false)} /> : null}
			</DialogContent>
		</Dialog>
	)
}

function EntryForm({
	database,
	properties,
	projectName,
	entry,
	onDone,
}: Omit<EntryDialogProps, 'isOpen' | 'onOpenChange'> & { onDone: () => void }) {
	const [values, setValues] = useState(() => initialValues(entry, projectName))
	const [errors, setErrors] = useState<Errors>({})
	const changed = useTimerChanged()
	const save = useMutation({
		mutationFn: async ({ startedAt, endedAt }: { startedAt: Date; endedAt: Date }) => {
			const details = {
				description: values.description.trim() || null,
				project: values.project,
				tags: values.tags,
				billable: properties.billable ? values.billable : null,
			}
			const span = { startedAt: startedAt.toISOString(), endedAt: endedAt.toISOString() }
			return entry
				? updateEntry({ tool: database.tool, id: entry.id, changes: { ...span, ...details } })
				: createEntry({ tool: database.tool, entry: { databaseId: database.id, ...span, ...details } })
		},
		meta: { isFormMutation: true },
		onSuccess: async () => {
			toast.success(entry ? 'Entry saved.' : 'Time added.')
			onDone()
			await changed()
		},
		onError: (error) => {
			if (error instanceof ApiError && error.fieldErrors.length > 0) {
				const shown: Errors = {}
				const unshown: string[] = []
				for (const { field, message } of error.fieldErrors) {
					const name = serverFields[field]
					if (name) {
						shown[name] ??= message
					} else {
						unshown.push(message)
					}
				}
				setErrors(shown)
				if (unshown.length > 0) {
					toast.error(error.detail, { description: unshown.join('\n') })
				}
			}
		},
	})

	const set = (changes: Partial<Values>) => setValues((current) => ({ ...current, ...changes }))
	const clear = (...names: FieldName[]) =>
		setErrors((current) =>
			Object.fromEntries(Object.entries(current).filter(([name]) => !names.includes(name as FieldName))),
		)

	function typeEnd(end: string): void {
		clear('end', 'duration')
		const next = { ...values, end, endFrom: 'end' as const }
		const span = readSpan(next)
		set({ end, endFrom: 'end', ...('errors' in span ? {} : { duration: formatDuration(durationOf(span)) }) })
	}

	function typeDuration(duration: string): void {
		clear('end', 'duration')
		const next = { ...values, duration, endFrom: 'duration' as const }
		const span = readSpan(next)
		set({ duration, endFrom: 'duration', ...('errors' in span ? {} : { end: localTime(span.endedAt) }) })
	}

	function submit(event: FormEvent): void {
		event.preventDefault()
		const span = readSpan(values)
		if ('errors' in span) {
			setErrors(span.errors)
			return
		}
		setErrors({})
		save.mutate(span)
	}

	return (
		<form onSubmit={submit} noValidate className="grid gap-4">
			<Field label="Description" error={errors.description}>
				<Input
					value={values.description}
					maxLength={2000}
					placeholder="What did you work on?"
					onChange={(event) => set({ description: event.target.value })}
				/>
			</Field>
			{properties.project || properties.tags || properties.billable ? (
				<div className="grid gap-1">
					<div className="flex flex-wrap items-center gap-1 rounded-md border p-1">
						{properties.project ? (
							<ProjectPicker
								database={database}
								property={properties.project}
								value={values.project}
								name={values.projectName}
								onChange={(project, name) => {
									clear('project')
									set({ project, projectName: name })
								}}
							/>
						) : null}
						{properties.tags ? (
							<TagsPicker property={properties.tags} value={values.tags} onChange={(tags) => set({ tags })} />
						) : null}
						{properties.billable ? (
							<BillableToggle value={values.billable} onChange={(billable) => set({ billable })} />
						) : null}
					</div>
					{errors.project || errors.tags ? (
						<p role="alert" className="text-[13px] text-error">
							{errors.project ?? errors.tags}
						</p>
					) : null}
				</div>
			) : null}
			<div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
				<Field label="Day" error={errors.date} className="col-span-2 sm:col-span-1">
					<Input
						type="date"
						value={values.date}
						onChange={(event) => {
							clear('date')
							set({ date: event.target.value })
						}}
					/>
				</Field>
				<Field label="Start" error={errors.start}>
					<Input
						type="time"
						value={values.start}
						onChange={(event) => {
							clear('start')
							set({ start: event.target.value })
						}}
					/>
				</Field>
				<Field label="End" error={errors.end}>
					<Input type="time" value={values.end} onChange={(event) => typeEnd(event.target.value)} />
				</Field>
				<Field label="Duration" error={errors.duration}>
					<Input
						value={values.duration}
						inputMode="decimal"
						placeholder="1:30"
						onChange={(event) => typeDuration(event.target.value)}
						onBlur={() => {
							const parsed = parseDuration(values.duration, { maxSeconds: maxEntrySeconds })
							if (!parsed.ok) {
								setErrors((current) => ({ ...current, duration: parsed.message }))
							}
						}}
					/>
				</Field>
			</div>
			<p className="-mt-2 text-muted-foreground text-xs">
				Type the duration like 1:30, 1.5h or 90m. An end before the start is on the next day.
			</p>
			<DialogFooter>
				<Button variant="outline" type="button" onClick={onDone}>
					Cancel
				</Button>
				<Button type="submit" isLoading={save.isPending}>
					{entry ? 'Save' : 'Add time'}
				</Button>
			</DialogFooter>
		</form>
	)
}

function durationOf(span: { startedAt: Date; endedAt: Date }): number {
	return Math.round((span.endedAt.getTime() - span.startedAt.getTime()) / 60_000) * 60
}
