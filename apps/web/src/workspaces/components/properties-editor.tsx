import {
	type Database,
	numberFormats,
	type OptionColor,
	optionColors,
	type Property,
	type PropertyInput,
	type WritablePropertyType,
	writablePropertyTypes,
} from '@blocksmith/contracts/workspaces.ts'
import { Plus, Trash2, X } from 'lucide-react'
import { useId, useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Dialog, DialogContent, DialogFooter } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Select } from '#src/components/ui/select.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { optionColorClasses, typeLabels } from '../lib/values.ts'

type OptionDraft = { id?: string; name: string; color: OptionColor }

/** One property while it is being edited; `key` tells React the rows apart, `id` is the server's. */
export type PropertyDraft = {
	key: string
	id?: string
	name: string
	type: WritablePropertyType
	format: string
	options: OptionDraft[]
	relationDatabaseId: string
}

let nextKey = 0
function newKey(): string {
	nextKey += 1
	return `draft-${nextKey}`
}

export function draftsFromProperties(properties: readonly Property[]): PropertyDraft[] {
	return properties.flatMap((property): PropertyDraft[] =>
		(writablePropertyTypes as readonly string[]).includes(property.type)
			? [
					{
						key: newKey(),
						id: property.id,
						name: property.name,
						type: property.type as WritablePropertyType,
						format: property.format ?? 'number',
						options: (property.options ?? []).map((option) => ({ ...option })),
						relationDatabaseId: property.relationDatabaseId ?? '',
					},
				]
			: [],
	)
}

export function defaultDrafts(): PropertyDraft[] {
	return [
		{ key: newKey(), name: 'Name', type: 'title', format: 'number', options: [], relationDatabaseId: '' },
		{ key: newKey(), name: 'Notes', type: 'rich_text', format: 'number', options: [], relationDatabaseId: '' },
	]
}

function draftsToInput(drafts: readonly PropertyDraft[]): PropertyInput[] {
	return drafts.map((draft) => {
		const input: PropertyInput = { name: draft.name.trim(), type: draft.type }
		if (draft.id) {
			input.id = draft.id
		}
		if (draft.type === 'number') {
			input.format = draft.format || 'number'
		}
		if (draft.type === 'select' || draft.type === 'multi_select' || draft.type === 'status') {
			input.options = draft.options.map((option) => ({
				...(option.id ? { id: option.id } : {}),
				name: option.name,
				color: option.color,
			}))
		}
		if (draft.type === 'relation' && draft.relationDatabaseId) {
			input.relationDatabaseId = draft.relationDatabaseId
		}
		return input
	})
}

/** What is wrong with the drafts before asking the server, by row key (and '' for the whole list). */
function validate(drafts: readonly PropertyDraft[]): Map<string, string> {
	const problems = new Map<string, string>()
	const seen = new Map<string, string>()
	for (const draft of drafts) {
		const name = draft.name.trim().toLowerCase()
		if (!name) {
			problems.set(draft.key, 'Give the property a name.')
		} else if (seen.has(name)) {
			problems.set(draft.key, 'Another property has this name.')
		} else if (draft.type === 'relation' && !draft.relationDatabaseId) {
			problems.set(draft.key, 'Choose the database it relates to.')
		}
		seen.set(name, draft.key)
	}
	if (drafts.filter((draft) => draft.type === 'title').length !== 1) {
		problems.set('', 'A database has exactly one title property.')
	}
	return problems
}

const typeOptions = writablePropertyTypes
	.filter((type) => type !== 'title')
	.map((type) => ({ value: type, label: typeLabels[type] }))

const formatOptions = numberFormats.map((format) => ({
	value: format,
	label: format.replaceAll('_', ' ').replace(/^./, (letter) => letter.toUpperCase()),
}))

type PropertiesDialogProps = {
	open: boolean
	onOpenChange: (open: boolean) => void
	title: string
	description?: string
	/** Shown when creating a database; left out when editing one's properties. */
	initialName?: string
	initialDrafts: PropertyDraft[]
	/** Databases a relation can point to. */
	relationTargets: readonly Pick<Database, 'id' | 'name'>[]
	submitLabel: string
	onSubmit: (input: { name: string; properties: PropertyInput[] }) => Promise<unknown>
}

/** Name, type and settings of each property (options, number format, relation target). */
export function PropertiesDialog(props: PropertiesDialogProps) {
	return (
		<Dialog open={props.open} onOpenChange={props.onOpenChange}>
			<DialogContent title={props.title} description={props.description} size="lg">
				{/* Mounted with the dialog, so each opening starts from the current properties. */}
				{props.open ? <PropertiesForm {...props} /> : null}
			</DialogContent>
		</Dialog>
	)
}

function PropertiesForm({
	initialName,
	initialDrafts,
	relationTargets,
	submitLabel,
	onSubmit,
	onOpenChange,
}: PropertiesDialogProps) {
	const [name, setName] = useState(initialName ?? '')
	const [drafts, setDrafts] = useState(initialDrafts)
	const [isSubmitted, setIsSubmitted] = useState(false)
	const [isPending, setIsPending] = useState(false)
	const [serverErrors, setServerErrors] = useState<string[]>([])
	const problems = validate(drafts)
	const isNameMissing = initialName !== undefined && !name.trim()

	function update(key: string, change: Partial<PropertyDraft>): void {
		setDrafts((current) => current.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)))
	}

	async function submit(): Promise<void> {
		setIsSubmitted(true)
		if (problems.size > 0 || isNameMissing) {
			return
		}
		setIsPending(true)
		setServerErrors([])
		try {
			await onSubmit({ name: name.trim(), properties: draftsToInput(drafts) })
			onOpenChange(false)
		} catch (error) {
			if (error instanceof ApiError && error.fieldErrors.length > 0) {
				setServerErrors(
					error.fieldErrors.map(({ field, message }) => {
						const index = /^properties\.(\d+)/.exec(field)?.[1]
						const draft = index === undefined ? undefined : drafts[Number(index)]
						return draft ? `${draft.name || 'A property'}: ${message}` : message
					}),
				)
			}
		} finally {
			setIsPending(false)
		}
	}

	return (
		<form
			className="grid gap-5"
			noValidate
			onSubmit={(event) => {
				event.preventDefault()
				void submit()
			}}
		>
			{initialName === undefined ? null : (
				<Field label="Database name" error={isSubmitted && isNameMissing ? 'Give the database a name.' : undefined}>
					<Input value={name} onChange={(event) => setName(event.target.value)} maxLength={200} autoFocus />
				</Field>
			)}
			<fieldset className="grid gap-3">
				<legend className="mb-2 font-medium text-sm">Properties</legend>
				{drafts.map((draft) => (
					<PropertyRow
						key={draft.key}
						draft={draft}
						error={isSubmitted ? problems.get(draft.key) : undefined}
						relationTargets={relationTargets}
						onChange={(change) => update(draft.key, change)}
						onRemove={() => setDrafts((current) => current.filter((candidate) => candidate.key !== draft.key))}
					/>
				))}
				<div>
					<Button
						variant="outline"
						size="sm"
						onClick={() =>
							setDrafts((current) => [
								...current,
								{ key: newKey(), name: '', type: 'rich_text', format: 'number', options: [], relationDatabaseId: '' },
							])
						}
					>
						<Plus aria-hidden /> Add property
					</Button>
				</div>
			</fieldset>
			{isSubmitted && problems.get('') ? <Alert variant="error">{problems.get('')}</Alert> : null}
			{serverErrors.length > 0 ? (
				<Alert variant="error" title="The properties could not be saved">
					<ul className="list-disc pl-4">
						{serverErrors.map((message) => (
							<li key={message}>{message}</li>
						))}
					</ul>
				</Alert>
			) : null}
			<DialogFooter>
				<Button variant="outline" onClick={() => onOpenChange(false)}>
					Cancel
				</Button>
				<Button type="submit" isLoading={isPending}>
					{submitLabel}
				</Button>
			</DialogFooter>
		</form>
	)
}

type PropertyRowProps = {
	draft: PropertyDraft
	error: string | undefined
	relationTargets: readonly Pick<Database, 'id' | 'name'>[]
	onChange: (change: Partial<PropertyDraft>) => void
	onRemove: () => void
}

function PropertyRow({ draft, error, relationTargets, onChange, onRemove }: PropertyRowProps) {
	const isTitle = draft.type === 'title'
	const hasOptions = draft.type === 'select' || draft.type === 'multi_select' || draft.type === 'status'
	const label = draft.name.trim() || 'new property'
	return (
		<div className={cn('grid gap-3 rounded-lg border p-3', error && 'border-error/50')} data-testid="property-row">
			<div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_11rem_auto] sm:items-end">
				<Field label="Name" error={error}>
					<Input value={draft.name} maxLength={200} onChange={(event) => onChange({ name: event.target.value })} />
				</Field>
				<Field label="Type">
					{isTitle ? (
						<Input value="Title" readOnly />
					) : (
						<Select
							value={draft.type}
							options={typeOptions}
							onValueChange={(type) => onChange({ type: type as WritablePropertyType })}
						/>
					)}
				</Field>
				{isTitle ? (
					<span className="hidden w-9 sm:block" />
				) : (
					<Button variant="ghost" size="icon" aria-label={`Remove ${label}`} onClick={onRemove}>
						<Trash2 aria-hidden />
					</Button>
				)}
			</div>
			{draft.type === 'number' ? (
				<Field label="Number format" className="max-w-xs">
					<Select value={draft.format} options={formatOptions} onValueChange={(format) => onChange({ format })} />
				</Field>
			) : null}
			{draft.type === 'relation' ? (
				<Field
					label="Related database"
					className="max-w-xs"
					description={relationTargets.length === 0 ? 'Create the other database first.' : undefined}
				>
					<Select
						value={draft.relationDatabaseId || undefined}
						placeholder="Choose a database…"
						options={relationTargets.map((target) => ({ value: target.id, label: target.name }))}
						onValueChange={(relationDatabaseId) => onChange({ relationDatabaseId })}
					/>
				</Field>
			) : null}
			{hasOptions ? (
				<OptionsEditor options={draft.options} onChange={(options) => onChange({ options })} label={label} />
			) : null}
		</div>
	)
}

const cycleColors = optionColors.filter((color) => color !== 'default')

function OptionsEditor({
	options,
	onChange,
	label,
}: {
	options: OptionDraft[]
	onChange: (options: OptionDraft[]) => void
	label: string
}) {
	const [text, setText] = useState('')
	const inputId = useId()
	function add(): void {
		const name = text.trim().slice(0, 100)
		if (!name || options.some((option) => option.name.toLowerCase() === name.toLowerCase())) {
			setText('')
			return
		}
		onChange([...options, { name, color: cycleColors[options.length % cycleColors.length] ?? 'default' }])
		setText('')
	}
	return (
		<div className="grid gap-2">
			<label htmlFor={inputId} className="font-medium text-sm">
				Options
			</label>
			{options.length > 0 ? (
				<ul className="flex flex-wrap gap-1.5" aria-label={`Options of ${label}`}>
					{options.map((option) => (
						<li
							key={option.id ?? option.name}
							className={cn(
								'inline-flex items-center gap-1 rounded-md py-0.5 pr-0.5 pl-2 text-xs',
								optionColorClasses[option.color],
							)}
						>
							{option.name}
							<button
								type="button"
								className="rounded p-0.5 hover:bg-black/10 dark:hover:bg-white/10"
								aria-label={`Remove option ${option.name}`}
								onClick={() => onChange(options.filter((candidate) => candidate !== option))}
							>
								<X aria-hidden className="size-3" />
							</button>
						</li>
					))}
				</ul>
			) : null}
			<div className="flex max-w-sm gap-2">
				<Input
					id={inputId}
					value={text}
					placeholder="New option, then Enter"
					maxLength={100}
					onChange={(event) => setText(event.target.value)}
					onKeyDown={(event) => {
						if (event.key === 'Enter') {
							event.preventDefault()
							add()
						}
					}}
				/>
				<Button variant="outline" onClick={add} disabled={!text.trim()}>
					Add
				</Button>
			</div>
		</div>
	)
}
