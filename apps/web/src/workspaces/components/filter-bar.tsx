import type { Property, RowFilter, rowFilterOperators, WorkspaceUser } from '@blocksmith/contracts/workspaces.ts'
import { ListFilter, Plus, X } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Select } from '#src/components/ui/select.tsx'

type Operator = (typeof rowFilterOperators)[number]

const operatorLabels: Record<Operator, string> = {
	equals: 'is',
	not_equals: 'is not',
	contains: 'contains',
	not_contains: 'does not contain',
	is_empty: 'is empty',
	is_not_empty: 'is not empty',
	greater_than: '>',
	less_than: '<',
	on_or_after: 'on or after',
	on_or_before: 'on or before',
}

const emptiness: Operator[] = ['is_empty', 'is_not_empty']

/** Which operators make sense for a property type. */
function operatorsFor(property: Property): Operator[] {
	switch (property.type) {
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

type FilterDraft = { key: number; property: string; operator: Operator; value: string }

/** A draft as the API filter, or null while it lacks its value. */
function toRowFilter(draft: FilterDraft, property: Property | undefined): RowFilter | null {
	if (!property) {
		return null
	}
	if (emptiness.includes(draft.operator)) {
		return { property: draft.property, operator: draft.operator }
	}
	if (property.type === 'checkbox') {
		return { property: draft.property, operator: 'equals', value: draft.value !== 'false' }
	}
	if (!draft.value.trim()) {
		return null
	}
	if (property.type === 'number') {
		const number = Number(draft.value)
		return Number.isFinite(number) ? { property: draft.property, operator: draft.operator, value: number } : null
	}
	return { property: draft.property, operator: draft.operator, value: draft.value.trim() }
}

type FilterBarProps = {
	properties: readonly Property[]
	users: readonly WorkspaceUser[]
	onChange: (filters: RowFilter[]) => void
}

/** Property + operator + value, as many as wanted; all must match. Typed values wait 300 ms. */
export function FilterBar({ properties, users, onChange }: FilterBarProps) {
	const [drafts, setDrafts] = useState<FilterDraft[]>([])
	const counter = useRef(0)
	const onChangeRef = useRef(onChange)
	onChangeRef.current = onChange
	const serialized = JSON.stringify(
		drafts.flatMap((draft) => {
			const filter = toRowFilter(
				draft,
				properties.find((property) => property.id === draft.property),
			)
			return filter ? [filter] : []
		}),
	)
	useEffect(() => {
		const timer = setTimeout(() => onChangeRef.current(JSON.parse(serialized) as RowFilter[]), 300)
		return () => clearTimeout(timer)
	}, [serialized])

	function add(): void {
		const property = properties[0]
		if (!property) {
			return
		}
		counter.current += 1
		setDrafts((current) => [
			...current,
			{ key: counter.current, property: property.id, operator: operatorsFor(property)[0] ?? 'equals', value: '' },
		])
	}

	function update(key: number, change: Partial<FilterDraft>): void {
		setDrafts((current) => current.map((draft) => (draft.key === key ? { ...draft, ...change } : draft)))
	}

	return (
		<div className="grid gap-2">
			{drafts.map((draft, index) => {
				const property = properties.find((candidate) => candidate.id === draft.property)
				const operators = property ? operatorsFor(property) : []
				const needsValue = !emptiness.includes(draft.operator)
				const label = `Filter ${index + 1}`
				return (
					<fieldset key={draft.key} className="flex flex-wrap items-center gap-2" aria-label={label}>
						<span className="w-12 text-muted-foreground text-xs">{index === 0 ? 'Where' : 'and'}</span>
						<Select
							aria-label={`${label}: property`}
							className="w-44"
							value={draft.property}
							options={properties.map((candidate) => ({ value: candidate.id, label: candidate.name }))}
							onValueChange={(next) => {
								const nextProperty = properties.find((candidate) => candidate.id === next)
								const nextOperators = nextProperty ? operatorsFor(nextProperty) : []
								update(draft.key, {
									property: next,
									operator: nextOperators.includes(draft.operator) ? draft.operator : (nextOperators[0] ?? 'equals'),
									value: nextProperty?.type === 'checkbox' ? 'true' : '',
								})
							}}
						/>
						<Select
							aria-label={`${label}: operator`}
							className="w-40"
							value={draft.operator}
							options={operators.map((operator) => ({ value: operator, label: operatorLabels[operator] }))}
							onValueChange={(operator) => update(draft.key, { operator: operator as Operator })}
						/>
						{needsValue && property ? (
							<FilterValue
								property={property}
								users={users}
								label={`${label}: value`}
								value={draft.value}
								onChange={(value) => update(draft.key, { value })}
							/>
						) : null}
						<Button
							variant="ghost"
							size="icon-sm"
							aria-label={`Remove ${label.toLowerCase()}`}
							onClick={() => setDrafts((current) => current.filter((candidate) => candidate.key !== draft.key))}
						>
							<X aria-hidden />
						</Button>
					</fieldset>
				)
			})}
			<div>
				<Button variant="outline" size="sm" onClick={add} disabled={properties.length === 0}>
					{drafts.length ? <Plus aria-hidden /> : <ListFilter aria-hidden />}
					{drafts.length ? 'Add filter' : 'Filter'}
				</Button>
			</div>
		</div>
	)
}

function FilterValue({
	property,
	users,
	label,
	value,
	onChange,
}: {
	property: Property
	users: readonly WorkspaceUser[]
	label: string
	value: string
	onChange: (value: string) => void
}) {
	if (property.type === 'checkbox') {
		return (
			<Select
				aria-label={label}
				className="w-32"
				value={value || 'true'}
				options={[
					{ value: 'true', label: 'Checked' },
					{ value: 'false', label: 'Unchecked' },
				]}
				onValueChange={onChange}
			/>
		)
	}
	if (
		(property.type === 'select' || property.type === 'status' || property.type === 'multi_select') &&
		property.options?.length
	) {
		return (
			<Select
				aria-label={label}
				className="w-44"
				value={value || undefined}
				placeholder="Choose…"
				options={property.options.map((option) => ({ value: option.name, label: option.name }))}
				onValueChange={onChange}
			/>
		)
	}
	if (property.type === 'people' && users.length) {
		return (
			<Select
				aria-label={label}
				className="w-44"
				value={value || undefined}
				placeholder="Choose…"
				options={users.map((user) => ({ value: user.id, label: user.name }))}
				onValueChange={onChange}
			/>
		)
	}
	const isDate = property.type === 'date' || property.type === 'created_time' || property.type === 'last_edited_time'
	return (
		<Input
			aria-label={label}
			className="w-48"
			type={isDate ? 'date' : 'text'}
			inputMode={property.type === 'number' ? 'decimal' : undefined}
			placeholder="Value"
			value={value}
			onChange={(event) => onChange(event.target.value)}
		/>
	)
}
