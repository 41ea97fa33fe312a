import type { Property, RowFilter, rowFilterOperators } from '@blocksmith/contracts/workspaces.ts'
import { Plus, X } from 'lucide-react'
import { Button } from '#src/components/ui/button.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'

// The related rows a relation field offers, as filters on the related database's properties. The
// charts' filter editor lives in its feature (features never import each other) and the table's
// filter bar keeps its own state, so this is the compact property / comparison / value row.

type Operator = (typeof rowFilterOperators)[number]

const operatorLabels: Record<Operator, string> = {
	equals: 'is',
	not_equals: 'is not',
	contains: 'contains',
	not_contains: 'does not contain',
	is_empty: 'is empty',
	is_not_empty: 'is not empty',
	greater_than: 'is more than',
	less_than: 'is less than',
	on_or_after: 'is on or after',
	on_or_before: 'is on or before',
}

const emptiness: Operator[] = ['is_empty', 'is_not_empty']

/** The comparisons that mean something for a property's type. */
function scopeOperatorsFor(property: Property | undefined): Operator[] {
	switch (property?.type) {
		case 'number':
		case 'unique_id':
			return ['equals', 'not_equals', 'greater_than', 'less_than', ...emptiness]
		case 'date':
		case 'created_time':
		case 'last_edited_time':
			return ['equals', 'on_or_after', 'on_or_before', ...emptiness]
		case 'checkbox':
			return ['equals']
		case 'select':
		case 'status':
			return ['equals', 'not_equals', ...emptiness]
		case 'multi_select':
		case 'people':
		case 'relation':
			return ['contains', 'not_contains', ...emptiness]
		case 'files':
			return emptiness
		default:
			return ['contains', 'not_contains', 'equals', 'not_equals', ...emptiness]
	}
}

/** A filter on the property with its first comparison and a value of its kind. */
function filterOn(property: Property): RowFilter {
	const operator = scopeOperatorsFor(property)[0] ?? 'equals'
	if (property.type === 'checkbox') {
		return { property: property.id, operator, value: true }
	}
	return { property: property.id, operator, value: property.options?.[0]?.name ?? '' }
}

type ScopeFiltersProps = {
	properties: readonly Property[]
	filters: readonly RowFilter[]
	/** The error at `.N…` under the filters, or at the list itself for ''. */
	error: (key: string) => string | undefined
	onChange: (filters: RowFilter[]) => void
}

/** Rows of property, comparison and value; a row must match every one. At most 10. */
export function ScopeFilters({ properties, filters, error, onChange }: ScopeFiltersProps) {
	const filterable = properties.filter((property) => property.type !== 'button' && property.type !== 'unsupported')
	const replace = (index: number, filter: RowFilter) =>
		onChange(filters.map((item, position) => (position === index ? filter : item)))
	const first = filterable[0]
	return (
		<div className="grid gap-2 rounded-lg border p-3">
			<p className="font-medium text-sm">Related rows must match every filter</p>
			<ol className="grid gap-2">
				{filters.map((filter, index) => {
					const property = filterable.find((item) => item.id === filter.property)
					const operators = scopeOperatorsFor(property)
					const hasValue = !emptiness.includes(filter.operator)
					const problem =
						error(`.${index}.value`) ?? error(`.${index}.property`) ?? error(`.${index}.operator`) ?? error(`.${index}`)
					const n = index + 1
					return (
						// biome-ignore lint/suspicious/noArrayIndexKey: filters have no id; their inputs keep no state
						<li key={index} className="grid gap-1">
							<div className="flex flex-wrap items-center gap-1.5">
								<NativeSelect
									aria-label={`Property of filter ${n}`}
									className="h-8 w-auto"
									value={filter.property}
									onChange={(event) => {
										const next = filterable.find((item) => item.id === event.target.value)
										if (next) {
											replace(index, filterOn(next))
										}
									}}
								>
									{property ? null : <option value={filter.property}>Removed property</option>}
									{filterable.map((item) => (
										<option key={item.id} value={item.id}>
											{item.name}
										</option>
									))}
								</NativeSelect>
								<NativeSelect
									aria-label={`Comparison of filter ${n}`}
									className="h-8 w-auto"
									value={filter.operator}
									onChange={(event) => {
										const operator = event.target.value as Operator
										const { value: _value, ...rest } = filter
										replace(index, emptiness.includes(operator) ? { ...rest, operator } : { ...filter, operator })
									}}
								>
									{operators.map((operator) => (
										<option key={operator} value={operator}>
											{operatorLabels[operator]}
										</option>
									))}
								</NativeSelect>
								{hasValue ? (
									<ValueInput
										n={n}
										property={property}
										filter={filter}
										isInvalid={Boolean(problem)}
										onChange={(value) => replace(index, { ...filter, value })}
									/>
								) : null}
								<Button
									variant="ghost"
									size="icon-sm"
									aria-label={`Remove filter ${n}`}
									className="text-muted-foreground hover:text-error"
									onClick={() => onChange(filters.filter((_, position) => position !== index))}
								>
									<X aria-hidden />
								</Button>
							</div>
							{problem ? <p className="text-[13px] text-error">{problem}</p> : null}
						</li>
					)
				})}
			</ol>
			<Button
				variant="outline"
				size="sm"
				className="w-fit"
				disabled={!first || filters.length >= 10}
				onClick={() => (first ? onChange([...filters, filterOn(first)]) : undefined)}
			>
				<Plus aria-hidden /> Add filter
			</Button>
			{error('') ? <p className="text-[13px] text-error">{error('')}</p> : null}
		</div>
	)
}

function ValueInput({
	n,
	property,
	filter,
	isInvalid,
	onChange,
}: {
	n: number
	property: Property | undefined
	filter: RowFilter
	isInvalid: boolean
	onChange: (value: RowFilter['value']) => void
}) {
	const label = `Value of filter ${n}`
	if (property?.type === 'checkbox') {
		return (
			<NativeSelect
				aria-label={label}
				className="h-8 w-auto"
				value={String(filter.value === true)}
				onChange={(event) => onChange(event.target.value === 'true')}
			>
				<option value="true">ticked</option>
				<option value="false">not ticked</option>
			</NativeSelect>
		)
	}
	if (property?.options?.length) {
		return (
			<NativeSelect
				aria-label={label}
				className="h-8 w-auto"
				value={typeof filter.value === 'string' ? filter.value : ''}
				onChange={(event) => onChange(event.target.value)}
			>
				{property.options.map((option) => (
					<option key={option.id} value={option.name}>
						{option.name}
					</option>
				))}
			</NativeSelect>
		)
	}
	const isNumber = property?.type === 'number'
	const isDate = property?.type === 'date' || property?.type === 'created_time' || property?.type === 'last_edited_time'
	return (
		<Input
			aria-label={label}
			aria-invalid={isInvalid || undefined}
			type={isNumber ? 'number' : isDate ? 'date' : 'text'}
			className="h-8 w-40"
			value={filter.value === null || filter.value === undefined ? '' : String(filter.value)}
			onChange={(event) => {
				const text = event.target.value
				onChange(isNumber && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text)
			}}
		/>
	)
}
