import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { DateValue, Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useQuery } from '@tanstack/react-query'
import { X } from 'lucide-react'
import { type ReactNode, useEffect, useId, useState } from 'react'
import { Checkbox } from '#src/components/ui/checkbox.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Select } from '#src/components/ui/select.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { searchRows, usersQuery } from '#src/workspaces/api/workspaces.ts'
import { asString, asStringList, isDateValue } from '#src/workspaces/lib/values.ts'

// The default value of a field, asked with an input of the field's own kind and stored in the
// shape of its property's value (the server checks it like an answer).

type DefaultValueInputProps = {
	field: FormField
	property: Property | undefined
	tool: WorkspaceTool
	workspaceId: string
	error?: string | undefined
	onChange: (value: unknown) => void
}

const label = 'Default value'
/** A hidden field is never seen, so its default is only the value when the link brings none. */
const descriptionOf = (field: Pick<FormField, 'hidden'>) =>
	field.hidden ? 'Used when the link does not set it.' : 'Filled in when the form opens; visitors can change it.'
const none = '\u0000none'

export function DefaultValueInput(props: DefaultValueInputProps) {
	const { field, property, error, onChange } = props
	const value = field.defaultValue
	const description = descriptionOf(field)
	// Without a property, a choice question's choices are its own.
	const options = field.choices ?? (property?.options ?? []).map((option) => option.name)
	switch (field.kind) {
		case 'long_text':
			return (
				<Field label={label} description={description} error={error}>
					<Textarea rows={2} value={asString(value)} onChange={(event) => onChange(event.target.value || null)} />
				</Field>
			)
		case 'number':
		case 'rating':
		case 'scale':
		case 'nps':
			return <NumberDefault {...props} />
		case 'select':
		case 'status':
			return (
				<Field label={label} description={description} error={error}>
					<Select
						value={typeof value === 'string' && value ? value : none}
						options={[
							{ value: none, label: 'No default' },
							...options.map((option) => ({ value: option, label: option })),
						]}
						onValueChange={(next) => onChange(next === none ? null : next)}
					/>
				</Field>
			)
		case 'multi_select':
			return (
				<ChoiceList
					error={error}
					description={description}
					empty="There are no choices yet."
					choices={options.map((option) => ({ id: option, label: option }))}
					selected={asStringList(value)}
					onChange={(next) => onChange(next.length ? next : null)}
				/>
			)
		case 'checkbox':
			return (
				<Field label="Ticked by default" orientation="horizontal" error={error}>
					<Checkbox checked={value === true} onCheckedChange={(checked) => onChange(checked === true ? true : null)} />
				</Field>
			)
		case 'date':
			return <DateDefault {...props} />
		case 'people':
			return <PeopleDefault {...props} />
		case 'relation':
			return <RelationDefault {...props} />
		default:
			return (
				<Field label={label} description={description} error={error}>
					<Input
						type={
							field.kind === 'email' ? 'email' : field.kind === 'url' ? 'url' : field.kind === 'phone' ? 'tel' : 'text'
						}
						value={asString(value)}
						onChange={(event) => onChange(event.target.value || null)}
					/>
				</Field>
			)
	}
}

/** Typed as text, so "1." or "-" can be on the way to a number without the input fighting back. */
function NumberDefault({ field, error, onChange }: DefaultValueInputProps) {
	const [text, setText] = useState(typeof field.defaultValue === 'number' ? String(field.defaultValue) : '')
	const trimmed = text.trim()
	const isInvalid = trimmed !== '' && !Number.isFinite(Number(trimmed))
	return (
		<Field
			label={label}
			description={descriptionOf(field)}
			error={error ?? (isInvalid ? 'Enter a number.' : undefined)}
		>
			<Input
				inputMode="decimal"
				value={text}
				onChange={(event) => {
					const next = event.target.value
					setText(next)
					const number = Number(next.trim())
					onChange(next.trim() === '' ? null : Number.isFinite(number) ? number : next)
				}}
			/>
		</Field>
	)
}

/** `2026-05-01T14:30` in the browser's zone, for a datetime-local input. */
function toLocalInput(iso: string): string {
	const date = new Date(iso)
	if (Number.isNaN(date.getTime())) {
		return ''
	}
	return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16)
}

function DateDefault({ field, error, onChange }: DefaultValueInputProps) {
	const description = descriptionOf(field)
	const current = isDateValue(field.defaultValue) ? field.defaultValue : null
	const text = current ? (field.includeTime ? toLocalInput(current.start) : current.start.slice(0, 10)) : ''
	return (
		<Field label={label} description={description} error={error}>
			<Input
				type={field.includeTime ? 'datetime-local' : 'date'}
				className="w-fit"
				value={text}
				onChange={(event) => {
					const next = event.target.value
					if (!next) {
						onChange(null)
						return
					}
					const date = field.includeTime ? new Date(next) : null
					if (date && Number.isNaN(date.getTime())) {
						return
					}
					const value: DateValue = date
						? { start: date.toISOString(), end: null, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }
						: { start: next, end: null, timeZone: null }
					onChange(value)
				}}
			/>
		</Field>
	)
}

type Choice = { id: string; label: ReactNode }

/** Several choices as checkboxes in a named group. */
function ChoiceList({
	choices,
	selected,
	onChange,
	error,
	empty,
	description,
	children,
}: {
	description: string
	choices: readonly Choice[]
	selected: readonly string[]
	onChange: (next: string[]) => void
	error?: string | undefined
	empty: string
	children?: ReactNode
}) {
	const id = useId()
	return (
		<fieldset className="grid gap-2" aria-describedby={`${id}-description${error ? ` ${id}-error` : ''}`}>
			<legend className="mb-2 font-medium text-sm leading-none">{label}</legend>
			<p id={`${id}-description`} className="text-[13px] text-muted-foreground leading-snug">
				{description}
			</p>
			{children}
			{choices.length === 0 ? <p className="text-muted-foreground text-sm">{empty}</p> : null}
			<ul className="grid max-h-56 gap-1 overflow-y-auto">
				{choices.map((choice) => (
					<li key={choice.id}>
						<label htmlFor={`${id}-${choice.id}`} className="flex items-center gap-2 rounded-md px-1 py-1 text-sm">
							<Checkbox
								id={`${id}-${choice.id}`}
								checked={selected.includes(choice.id)}
								onCheckedChange={(checked) =>
									onChange(
										checked === true
											? [...selected.filter((item) => item !== choice.id), choice.id]
											: selected.filter((item) => item !== choice.id),
									)
								}
							/>
							<span className="truncate">{choice.label}</span>
						</label>
					</li>
				))}
			</ul>
			{error ? (
				<p id={`${id}-error`} className="text-[13px] text-error">
					{error}
				</p>
			) : null}
		</fieldset>
	)
}

function PeopleDefault({ field, tool, workspaceId, error, onChange }: DefaultValueInputProps) {
	const users = useQuery(usersQuery(tool, workspaceId))
	return (
		<ChoiceList
			error={error}
			description={descriptionOf(field)}
			empty={users.isPending ? 'Loading people…' : 'No people in this workspace.'}
			choices={(users.data ?? []).map((user) => ({ id: user.id, label: user.name }))}
			selected={asStringList(field.defaultValue)}
			onChange={(next) => onChange(next.length ? next : null)}
		/>
	)
}

/** Rows of the related database, searched by title; a relation holds the rows' workspace ids. */
function RelationDefault({ field, property, tool, error, onChange }: DefaultValueInputProps) {
	const databaseId = property?.relationDatabaseId ?? ''
	const [search, setSearch] = useState('')
	const [debounced, setDebounced] = useState('')
	const [titles, setTitles] = useState<Record<string, string>>({})
	useEffect(() => {
		const timer = setTimeout(() => setDebounced(search), 250)
		return () => clearTimeout(timer)
	}, [search])
	const rows = useQuery({
		queryKey: ['forms', 'relation-choices', tool, databaseId, debounced],
		queryFn: () => searchRows({ tool, databaseId, search: debounced }),
		enabled: Boolean(databaseId),
	})
	const selected = asStringList(field.defaultValue)
	const known = { ...titles, ...Object.fromEntries((rows.data ?? []).map((row) => [row.externalId, row.title])) }
	const titleOf = (id: string) => known[id] || 'Linked row'
	if (!databaseId) {
		return (
			<p className="text-muted-foreground text-sm">
				The related database is not connected here, so no default can be chosen.
			</p>
		)
	}
	return (
		<ChoiceList
			error={error}
			description={descriptionOf(field)}
			empty={rows.isPending ? 'Loading rows…' : 'No rows match.'}
			choices={(rows.data ?? []).map((row) => ({ id: row.externalId, label: row.title || 'Untitled' }))}
			selected={selected}
			onChange={(next) => {
				setTitles(known)
				onChange(next.length ? next : null)
			}}
		>
			{selected.length ? (
				<ul className="flex flex-wrap gap-1" aria-label="Chosen rows">
					{selected.map((id) => (
						<li key={id}>
							<button
								type="button"
								aria-label={`Remove ${titleOf(id)}`}
								className="inline-flex items-center gap-1 rounded-md bg-secondary px-1.5 py-0.5 text-xs hover:bg-secondary-hover"
								onClick={() => {
									const next = selected.filter((item) => item !== id)
									onChange(next.length ? next : null)
								}}
							>
								{titleOf(id)} <X aria-hidden className="size-3" />
							</button>
						</li>
					))}
				</ul>
			) : null}
			<Input
				type="search"
				aria-label={`Search rows of ${property?.name ?? 'the related database'}`}
				placeholder="Search by title…"
				value={search}
				onChange={(event) => setSearch(event.target.value)}
			/>
		</ChoiceList>
	)
}
