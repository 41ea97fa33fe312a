import type { Condition } from '@blocksmith/contracts/form-rules.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { Trash2 } from 'lucide-react'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { choicesOf, conditionFor, isNumeric, nameOf, needsValue, operatorLabel, operatorsFor } from '../lib/logic.ts'

type ConditionRowProps = {
	/** "condition 2 of rule 1": names its controls for assistive technology. */
	label: string
	/** The word that starts the row as it reads: "When", "and", "or". */
	lead: string
	condition: Condition
	/** The questions the condition may test. */
	fields: readonly FormField[]
	properties: readonly Property[]
	/** Problems by key: `fieldId`, `operator`, `value`. */
	error: (key: string) => string | undefined
	onChange: (condition: Condition, key: string) => void
	onRemove: (() => void) | undefined
}

/**
 * One condition, read left to right as a sentence ("and Budget is greater than 1000"): the controls'
 * labels are for screen readers, the visible words are the sentence. Used by the logic editor and by
 * the steps of a calculation.
 */
export function ConditionRow({
	label,
	lead,
	condition,
	fields,
	properties,
	error,
	onChange,
	onRemove,
}: ConditionRowProps) {
	const field = fields.find((item) => item.id === condition.fieldId)
	const operators = operatorsFor(field?.kind)
	const title = label.charAt(0).toUpperCase() + label.slice(1)
	return (
		<div className="grid gap-2 sm:grid-cols-[3.5rem_minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-start">
			<span aria-hidden className="pt-2 text-muted-foreground text-sm sm:text-right">
				{lead}
			</span>
			<Field label={`Field of ${label}`} isLabelHidden error={error('fieldId')}>
				<NativeSelect
					value={field ? condition.fieldId : ''}
					onChange={(event) => onChange(conditionFor(fields.find((item) => item.id === event.target.value)), 'fieldId')}
				>
					{field ? null : <option value="">A field no longer in the form</option>}
					{fields.map((item) => (
						<option key={item.id} value={item.id}>
							{nameOf(item)}
						</option>
					))}
				</NativeSelect>
			</Field>
			<Field label={`Comparison of ${label}`} isLabelHidden error={error('operator')}>
				<NativeSelect
					value={condition.operator}
					onChange={(event) => {
						const operator = event.target.value as Condition['operator']
						// The value stays when it still fits (is → is not), and goes when none is needed.
						const kept = needsValue(operator)
							? { ...condition, operator, value: condition.value ?? conditionFor(field, operator).value }
							: { fieldId: condition.fieldId, operator }
						onChange(kept, 'operator')
					}}
				>
					{operators.includes(condition.operator) ? null : (
						<option value={condition.operator}>{operatorLabel(condition.operator, field?.kind)}</option>
					)}
					{operators.map((operator) => (
						<option key={operator} value={operator}>
							{operatorLabel(operator, field?.kind)}
						</option>
					))}
				</NativeSelect>
			</Field>
			{needsValue(condition.operator) ? (
				<ValueInput
					label={`Value of ${label}`}
					field={field}
					property={properties.find((property) => property.id === field?.propertyId)}
					value={condition.value}
					error={error('value')}
					onChange={(value) => onChange({ ...condition, value }, 'value')}
				/>
			) : (
				<span aria-hidden className="hidden sm:block" />
			)}
			{onRemove ? (
				<Button variant="ghost" size="sm" aria-label={`Remove ${label}`} title={`Remove ${title}`} onClick={onRemove}>
					<Trash2 aria-hidden />
				</Button>
			) : (
				<span aria-hidden className="hidden sm:block sm:w-9" />
			)}
		</div>
	)
}

type ValueInputProps = {
	label: string
	field: FormField | undefined
	property: Property | undefined
	value: Condition['value']
	error: string | undefined
	onChange: (value: Condition['value']) => void
}

/** The value to compare with, in the input its field's kind calls for. */
function ValueInput({ label, field, property, value, error, onChange }: ValueInputProps) {
	const kind = field?.kind
	if (kind === 'select' || kind === 'status' || kind === 'multi_select') {
		const options = choicesOf(field, property)
		const current = typeof value === 'string' ? value : ''
		return (
			<Field label={label} isLabelHidden error={error}>
				<NativeSelect value={current} onChange={(event) => onChange(event.target.value || null)}>
					<option value="">Pick an option…</option>
					{current && !options.includes(current) ? <option value={current}>{current}</option> : null}
					{options.map((option) => (
						<option key={option} value={option}>
							{option}
						</option>
					))}
				</NativeSelect>
			</Field>
		)
	}
	if (kind === 'checkbox') {
		return (
			<Field label={label} isLabelHidden error={error}>
				<NativeSelect
					value={value === false ? 'no' : 'yes'}
					onChange={(event) => onChange(event.target.value === 'yes')}
				>
					<option value="yes">ticked</option>
					<option value="no">not ticked</option>
				</NativeSelect>
			</Field>
		)
	}
	if (isNumeric(kind)) {
		const range =
			kind === 'nps'
				? { min: 0, max: 10 }
				: kind === 'rating' || kind === 'scale'
					? { min: field?.scale?.min ?? 1, max: field?.scale?.max ?? 5 }
					: {}
		return (
			<Field label={label} isLabelHidden error={error}>
				<Input
					type="number"
					step="any"
					{...range}
					placeholder="A number"
					value={typeof value === 'number' ? value : ''}
					onChange={(event) => {
						const number = event.target.valueAsNumber
						onChange(Number.isNaN(number) ? null : number)
					}}
				/>
			</Field>
		)
	}
	if (kind === 'date') {
		return (
			<Field label={label} isLabelHidden error={error}>
				<Input
					type="date"
					value={typeof value === 'string' ? value.slice(0, 10) : ''}
					onChange={(event) => onChange(event.target.value || null)}
				/>
			</Field>
		)
	}
	return (
		<Field label={label} isLabelHidden error={error}>
			<Input
				maxLength={2000}
				placeholder="Some text"
				value={typeof value === 'string' ? value : value == null ? '' : String(value)}
				onChange={(event) => onChange(event.target.value)}
			/>
		</Field>
	)
}
