import type { Property, RowFilter } from '@blocksmith/contracts/workspaces.ts'
import { useId } from 'react'
import { inputClasses } from './ui.tsx'

// The visitor's filters on a page's `filterable` properties, sent to the server as the
// workspace API's JSON `filter` (the server checks them against the page and its rule; a filter
// never widens what the member sees).

/** A filter's value as the controls hold it: '' is "any". */
export type FilterValues = Record<string, string | { after: string; before: string }>

type Kind = 'option' | 'multi' | 'checkbox' | 'date' | 'number' | 'text'

const dateTypes = new Set(['date', 'created_time', 'last_edited_time'])
// Lists of ids the member cannot choose from by name; a portal never offers them as filters.
const unfilterable = new Set(['people', 'relation', 'files', 'created_by', 'last_edited_by', 'button'])

function kindOf(property: Property): Kind | null {
	if (unfilterable.has(property.type)) {
		return null
	}
	if (property.type === 'select' || property.type === 'status') {
		return 'option'
	}
	if (property.type === 'multi_select') {
		return 'multi'
	}
	if (property.type === 'checkbox') {
		return 'checkbox'
	}
	if (dateTypes.has(property.type)) {
		return 'date'
	}
	if (property.type === 'number') {
		return 'number'
	}
	return 'text'
}

/** The filterable properties the controls can offer, in the page's order. */
export function filterableProperties(properties: Property[], filterable: string[]): Property[] {
	return properties.filter((property) => filterable.includes(property.id) && kindOf(property) !== null)
}

/** The API's filter list for the controls' values; empty controls add nothing. */
export function buildFilters(properties: Property[], values: FilterValues): RowFilter[] {
	const filters: RowFilter[] = []
	for (const property of properties) {
		const value = values[property.id]
		const kind = kindOf(property)
		if (value === undefined || kind === null) {
			continue
		}
		if (typeof value !== 'string') {
			if (kind === 'date' && value.after) {
				filters.push({ property: property.id, operator: 'on_or_after', value: value.after })
			}
			if (kind === 'date' && value.before) {
				filters.push({ property: property.id, operator: 'on_or_before', value: value.before })
			}
			continue
		}
		const trimmed = value.trim()
		if (!trimmed) {
			continue
		}
		switch (kind) {
			case 'option':
				filters.push({ property: property.id, operator: 'equals', value: trimmed })
				break
			case 'multi':
				filters.push({ property: property.id, operator: 'contains', value: trimmed })
				break
			case 'checkbox':
				filters.push({ property: property.id, operator: 'equals', value: trimmed === 'true' })
				break
			case 'number': {
				const n = Number(trimmed)
				if (Number.isFinite(n)) {
					filters.push({ property: property.id, operator: 'equals', value: n })
				}
				break
			}
			case 'text':
				filters.push({ property: property.id, operator: 'contains', value: trimmed })
				break
			default:
				break
		}
	}
	return filters
}

const selectClasses = `${inputClasses} w-auto min-w-[8rem]`

function FilterControl({
	property,
	value,
	onChange,
}: {
	property: Property
	value: FilterValues[string] | undefined
	onChange: (value: FilterValues[string]) => void
}) {
	const id = useId()
	const kind = kindOf(property)
	const label = (
		<label htmlFor={id} className="block text-xs font-medium text-muted-foreground">
			{property.name}
		</label>
	)
	if (kind === 'option' || kind === 'multi') {
		return (
			<div className="space-y-1">
				{label}
				<select
					id={id}
					className={selectClasses}
					value={typeof value === 'string' ? value : ''}
					onChange={(event) => onChange(event.target.value)}
				>
					<option value="">Any</option>
					{(property.options ?? []).map((option) => (
						<option key={option.id} value={option.name}>
							{option.name}
						</option>
					))}
				</select>
			</div>
		)
	}
	if (kind === 'checkbox') {
		return (
			<div className="space-y-1">
				{label}
				<select
					id={id}
					className={selectClasses}
					value={typeof value === 'string' ? value : ''}
					onChange={(event) => onChange(event.target.value)}
				>
					<option value="">Any</option>
					<option value="true">Yes</option>
					<option value="false">No</option>
				</select>
			</div>
		)
	}
	if (kind === 'date') {
		const range = typeof value === 'object' ? value : { after: '', before: '' }
		return (
			<fieldset className="space-y-1">
				<legend className="text-xs font-medium text-muted-foreground">{property.name}</legend>
				<div className="flex items-center gap-2">
					<input
						type="date"
						aria-label={`${property.name} on or after`}
						className={`${inputClasses} w-auto`}
						value={range.after}
						onChange={(event) => onChange({ ...range, after: event.target.value })}
					/>
					<span aria-hidden="true" className="text-muted-foreground">
						–
					</span>
					<input
						type="date"
						aria-label={`${property.name} on or before`}
						className={`${inputClasses} w-auto`}
						value={range.before}
						onChange={(event) => onChange({ ...range, before: event.target.value })}
					/>
				</div>
			</fieldset>
		)
	}
	return (
		<div className="space-y-1">
			{label}
			<input
				id={id}
				type={kind === 'number' ? 'number' : 'text'}
				placeholder={kind === 'number' ? 'Equals' : 'Contains'}
				className={`${inputClasses} w-40`}
				value={typeof value === 'string' ? value : ''}
				onChange={(event) => onChange(event.target.value)}
			/>
		</div>
	)
}

export function Filters({
	properties,
	values,
	onChange,
}: {
	properties: Property[]
	values: FilterValues
	onChange: (values: FilterValues) => void
}) {
	if (properties.length === 0) {
		return null
	}
	return (
		<div className="flex flex-wrap items-end gap-3">
			{properties.map((property) => (
				<FilterControl
					key={property.id}
					property={property}
					value={values[property.id]}
					onChange={(value) => onChange({ ...values, [property.id]: value })}
				/>
			))}
		</div>
	)
}
