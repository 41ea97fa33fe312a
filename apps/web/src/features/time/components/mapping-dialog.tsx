import type { TimeDatabase, TimeField, TimeMapping } from '@blocksmith/contracts/time.ts'
import type { Property, PropertyType } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { databaseQuery } from '#src/workspaces/api/workspaces.ts'
import { saveMapping } from '../api/time.ts'
import { timeKeys } from '../api/time-keys.ts'

// How the database's properties hold an entry, field by field: each a select of the properties
// of fitting types, pre-filled with the saved mapping (or the suggestion), required fields
// marked and what is missing said with the server's words. Save checks it on the server; a 400
// lands on the field it names (`mapping.<field>`).

/** The types each field can be stored in (as the server checks them). */
const fieldTypes: Record<TimeField, readonly PropertyType[]> = {
	start: ['date'],
	end: ['date'],
	duration: ['number'],
	person: ['people'],
	project: ['relation', 'select'],
	client: ['relation', 'select'],
	task: ['title', 'rich_text', 'select', 'relation'],
	tags: ['multi_select'],
	billable: ['checkbox'],
	description: ['title', 'rich_text'],
}

export const fieldLabels: Record<TimeField, string> = {
	start: 'Start',
	end: 'End',
	duration: 'Duration',
	person: 'Person',
	project: 'Project',
	client: 'Client',
	task: 'Task',
	tags: 'Tags',
	billable: 'Billable',
	description: 'Description',
}

const fieldHints: Partial<Record<TimeField, string>> = {
	end: 'Choose the same date as Start when one date holds the whole entry (a range).',
	duration: 'Filled in when an entry stops; enough on its own when there is no end date.',
}

const none = ''

/** Required as the server has it: the start, and an end or a duration. */
function isRequired(field: TimeField, mapping: TimeMapping): boolean {
	return field === 'start' || (field === 'end' && !mapping.duration) || (field === 'duration' && !mapping.end)
}

function mappedValue(field: TimeField, mapping: TimeMapping): string {
	if (field === 'client') {
		return mapping.client ? `${mapping.client.through}:${mapping.client.propertyId}` : none
	}
	return mapping[field] ?? none
}

function withValue(field: TimeField, mapping: TimeMapping, value: string): TimeMapping {
	if (field === 'client') {
		const [through, ...id] = value.split(':')
		return {
			...mapping,
			client: value ? { through: through === 'project' ? 'project' : 'entry', propertyId: id.join(':') } : null,
		}
	}
	const next = { ...mapping, [field]: value || null }
	// A client read through the project only exists while the project is that relation.
	if (field === 'project' && mapping.client?.through === 'project') {
		next.client = null
	}
	return next
}

type MappingDialogProps = {
	database: TimeDatabase
	isOpen: boolean
	onOpenChange: (isOpen: boolean) => void
	onSaved: (database: TimeDatabase) => void
}

export function MappingDialog({ database, isOpen, onOpenChange, onSaved }: MappingDialogProps) {
	return (
		<Dialog open={isOpen} onOpenChange={onOpenChange}>
			<DialogContent
				title={`Track time in ${database.name}`}
				description="Which property holds each part of an entry. We filled in what fits; check it and save."
				size="lg"
			>
				{isOpen ? <MappingForm database={database} onCancel={() => onOpenChange(false)} onSaved={onSaved} /> : null}
			</DialogContent>
		</Dialog>
	)
}

function MappingForm({
	database,
	onCancel,
	onSaved,
}: {
	database: TimeDatabase
	onCancel: () => void
	onSaved: (database: TimeDatabase) => void
}) {
	const queryClient = useQueryClient()
	const details = useQuery(databaseQuery(database.tool, database.id))
	const [mapping, setMapping] = useState<TimeMapping>(() => (database.saved ?? database.suggested).mapping)
	const [errors, setErrors] = useState<Partial<Record<TimeField, string>>>({})
	const properties = details.data?.properties ?? []
	const project = properties.find((property) => property.id === mapping.project)
	const projectsId = project?.type === 'relation' ? (project.relationDatabaseId ?? null) : null
	const projects = useQuery({ ...databaseQuery(database.tool, projectsId ?? ''), enabled: Boolean(projectsId) })
	// The server's words for a missing field (each review says them for the fields it misses).
	const messages = new Map(
		[...(database.saved?.fields ?? []), ...database.suggested.fields]
			.filter((check) => check.message)
			.map((check) => [check.field, check.message]),
	)

	const save = useMutation({
		mutationFn: saveMapping,
		meta: { isFormMutation: true },
		onSuccess: async (saved) => {
			await queryClient.invalidateQueries({ queryKey: timeKeys.databases })
			toast.success(`${saved.name} is ready for time tracking.`)
			onSaved(saved)
		},
		onError: (error) => {
			if (!(error instanceof ApiError) || error.fieldErrors.length === 0) {
				return
			}
			const shown: Partial<Record<TimeField, string>> = {}
			const unshown: string[] = []
			for (const { field, message } of error.fieldErrors) {
				const name = field.split('.')[1] as TimeField | undefined
				if (field.startsWith('mapping.') && name && name in fieldTypes) {
					shown[name] ??= message
				} else {
					unshown.push(message)
				}
			}
			setErrors(shown)
			if (unshown.length > 0) {
				toast.error(error.detail, { description: unshown.join('\n') })
			}
		},
	})

	if (details.isPending) {
		return (
			<SkeletonGroup label="Loading the database's properties…">
				<Skeleton className="h-64 w-full" />
			</SkeletonGroup>
		)
	}

	const fields = Object.keys(fieldTypes) as TimeField[]
	const missing = fields.filter((field) => isRequired(field, mapping) && !mappedValue(field, mapping))

	function choicesFor(field: TimeField): { label: string; options: { value: string; label: string }[] }[] {
		const fitting = (list: Property[]) => list.filter((property) => fieldTypes[field].includes(property.type))
		const own = fitting(properties).map((property) => ({
			value: field === 'client' ? `entry:${property.id}` : property.id,
			label: property.name,
		}))
		if (field !== 'client' || !project || !projectsId) {
			return [{ label: '', options: own }]
		}
		const through = fitting(projects.data?.properties ?? []).map((property) => ({
			value: `project:${property.id}`,
			label: `${project.name} → ${property.name}`,
		}))
		return [
			{ label: 'On the entry', options: own },
			{ label: `Through ${project.name}`, options: through },
		]
	}

	function submit(event: FormEvent): void {
		event.preventDefault()
		setErrors({})
		save.mutate({ database, mapping })
	}

	return (
		<form onSubmit={submit} noValidate className="grid gap-4">
			{missing.length > 0 ? (
				<Alert variant="warning" title="Not enough to track time yet">
					{missing.length === 2 && missing.includes('end') && missing.includes('duration')
						? (messages.get('end') ?? 'Choose an end date, or a number for the duration.')
						: missing.map((field) => messages.get(field) ?? `Choose a property for ${fieldLabels[field]}.`).join(' ')}
				</Alert>
			) : null}
			<div className="grid gap-x-4 gap-y-3 sm:grid-cols-2">
				{fields.map((field) => {
					const value = mappedValue(field, mapping)
					const groups = choicesFor(field)
					const isMissingRequired = isRequired(field, mapping) && !value
					return (
						<Field
							key={field}
							className="content-start"
							label={fieldLabels[field]}
							isRequired={isRequired(field, mapping)}
							error={errors[field]}
							description={
								value ? fieldHints[field] : isMissingRequired ? undefined : (messages.get(field) ?? fieldHints[field])
							}
						>
							<NativeSelect
								value={value}
								onChange={(event) => {
									setErrors(({ [field]: _dropped, ...rest }) => rest)
									setMapping(withValue(field, mapping, event.target.value))
								}}
							>
								<option value={none}>{isRequired(field, mapping) ? 'Choose…' : 'None'}</option>
								{groups.map((group) =>
									group.label ? (
										<optgroup key={group.label} label={group.label}>
											{group.options.map((option) => (
												<option key={option.value} value={option.value}>
													{option.label}
												</option>
											))}
										</optgroup>
									) : (
										group.options.map((option) => (
											<option key={option.value} value={option.value}>
												{option.label}
											</option>
										))
									),
								)}
							</NativeSelect>
						</Field>
					)
				})}
				{mapping.duration ? (
					<Field label="Duration unit" className="content-start">
						<NativeSelect
							value={mapping.durationUnit}
							onChange={(event) =>
								setMapping({ ...mapping, durationUnit: event.target.value === 'minutes' ? 'minutes' : 'hours' })
							}
						>
							<option value="hours">Hours</option>
							<option value="minutes">Minutes</option>
						</NativeSelect>
					</Field>
				) : null}
			</div>
			<DialogFooter>
				<Button variant="outline" type="button" onClick={onCancel}>
					Cancel
				</Button>
				<Button type="submit" isLoading={save.isPending}>
					Save and start tracking
				</Button>
			</DialogFooter>
		</form>
	)
}
