import { isContentKind } from '@blocksmith/contracts/form-kinds.ts'
import type { Form, FormField } from '@blocksmith/contracts/forms.ts'
import { useQuery } from '@tanstack/react-query'
import { Search, X } from 'lucide-react'
import { type FormEvent, useEffect, useId, useRef, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { databaseQuery } from '#src/workspaces/api/workspaces.ts'
import type { SubmissionFilters } from '../api/submissions.ts'

// The search box and the field filter above the submissions. The search applies as one types
// (after a pause); the field filter when applied, since its value is often typed in parts.

/** Kinds a filter can look in: answers that hold ids (people, linked rows) name nothing one could type. */
function filterableFields(form: Form): FormField[] {
	return form.fields.filter(
		(field) => !isContentKind(field.kind) && field.kind !== 'people' && field.kind !== 'relation',
	)
}

const searchDelayMs = 300
const choiceKinds = new Set(['select', 'multi_select', 'status', 'ranking'])

export function SubmissionSearch({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
	const [text, setText] = useState(q)
	// The latest callback, so a parent's re-render (the list polling) does not restart the pause.
	const search = useRef(onSearch)
	search.current = onSearch
	// The address changed by itself (back, a link): the box follows, keeping a space just typed.
	useEffect(() => setText((current) => (current.trim() === q ? current : q)), [q])
	useEffect(() => {
		if (text.trim() === q) {
			return
		}
		const timer = setTimeout(() => search.current(text.trim()), searchDelayMs)
		return () => clearTimeout(timer)
	}, [text, q])
	return (
		// biome-ignore lint/a11y/useSemanticElements: <search> is too new for some browsers still in use (and for jsdom)
		<form
			role="search"
			className="relative w-full sm:w-72"
			onSubmit={(event) => {
				event.preventDefault()
				onSearch(text.trim())
			}}
		>
			<Search aria-hidden className="-translate-y-1/2 absolute top-1/2 left-2.5 size-4 text-muted-foreground" />
			<Input
				type="search"
				aria-label="Search answers"
				placeholder="Search answers"
				maxLength={200}
				value={text}
				onChange={(event) => setText(event.target.value)}
				className="pl-8"
			/>
		</form>
	)
}

/** The choices a field's value can be picked from, when it has a list: its own, or its property's options. */
function useChoices(form: Form, field: FormField | undefined): string[] | null {
	const isChoice = Boolean(field && choiceKinds.has(field.kind))
	const database = useQuery({
		...databaseQuery(form.tool, form.databaseId),
		enabled: isChoice && !field?.choices && Boolean(form.databaseId),
	})
	if (!field || !isChoice) {
		return null
	}
	if (field.choices) {
		return field.choices
	}
	const property = database.data?.properties.find((candidate) => candidate.id === field.propertyId)
	return property && 'options' in property && property.options ? property.options.map((option) => option.name) : null
}

export function FieldFilter({
	form,
	filters,
	error,
	onApply,
}: {
	form: Form
	filters: Pick<SubmissionFilters, 'field' | 'value'>
	/** The server's word on the value (a number field given words). */
	error?: string | undefined
	onApply: (next: { field?: string | undefined; value?: string | undefined }) => void
}) {
	const fields = filterableFields(form)
	const [fieldId, setFieldId] = useState(filters.field ?? '')
	const [value, setValue] = useState(filters.value ?? '')
	useEffect(() => {
		setFieldId(filters.field ?? '')
		setValue(filters.value ?? '')
	}, [filters.field, filters.value])
	const field = fields.find((candidate) => candidate.id === fieldId)
	const choices = useChoices(form, field)
	const valueId = useId()
	const isApplied = Boolean(filters.field && filters.value)

	function apply(event: FormEvent): void {
		event.preventDefault()
		onApply(fieldId && value.trim() ? { field: fieldId, value: value.trim() } : {})
	}

	return (
		<form onSubmit={apply} className="flex flex-wrap items-end gap-2" aria-label="Filter by an answer">
			<Field label="Question" className="w-full sm:w-52">
				<NativeSelect
					value={fieldId}
					onChange={(event) => {
						setFieldId(event.target.value)
						setValue('')
					}}
				>
					<option value="">Any question…</option>
					{fields.map((candidate) => (
						<option key={candidate.id} value={candidate.id}>
							{candidate.label}
						</option>
					))}
				</NativeSelect>
			</Field>
			<Field label="Answer" id={valueId} className="w-full sm:w-52" error={error}>
				{field?.kind === 'checkbox' ? (
					<NativeSelect value={value} onChange={(event) => setValue(event.target.value)}>
						<option value="">Choose…</option>
						<option value="yes">Ticked</option>
						<option value="no">Not ticked</option>
					</NativeSelect>
				) : choices ? (
					<NativeSelect value={value} onChange={(event) => setValue(event.target.value)}>
						<option value="">Choose…</option>
						{choices.map((choice) => (
							<option key={choice} value={choice}>
								{choice}
							</option>
						))}
					</NativeSelect>
				) : (
					<Input
						value={value}
						maxLength={200}
						disabled={!field}
						inputMode={
							field && ['number', 'rating', 'scale', 'nps', 'calculated'].includes(field.kind) ? 'decimal' : undefined
						}
						placeholder={
							field ? (field.kind === 'files' || field.kind === 'signature' ? 'Part of a file name' : 'Contains…') : ''
						}
						onChange={(event) => setValue(event.target.value)}
					/>
				)}
			</Field>
			<Button type="submit" variant="outline" disabled={!field || !value.trim()}>
				Filter
			</Button>
			{isApplied ? (
				<Button type="button" variant="ghost" onClick={() => onApply({})}>
					<X aria-hidden /> Clear filter
				</Button>
			) : null}
		</form>
	)
}
