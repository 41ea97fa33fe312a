import type { Condition, LogicRule } from '@blocksmith/contracts/form-rules.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { Plus, Trash2 } from 'lucide-react'
import { useId } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import type { DraftErrors } from '../lib/draft.ts'
import { actionLabels, conditionFor, needsValue, newRule, operatorLabel, operatorsFor } from '../lib/logic.ts'

type LogicEditorProps = {
	logic: LogicRule[]
	fields: FormField[]
	properties: Property[]
	errors: DraftErrors
	/** `path` is the one whose errors the change answers; a whole rule's path when rules come or go. */
	onChange: (logic: LogicRule[], path: string) => void
}

const nameOf = (field: FormField) => field.label.trim() || 'Untitled field'

/** Rules that show, hide, require or unrequire fields depending on the answers. */
export function LogicEditor({ logic, fields, properties, errors, onChange }: LogicEditorProps) {
	const id = useId()

	function changeRule(index: number, changes: Partial<LogicRule>, path: string): void {
		onChange(
			logic.map((rule, position) => (position === index ? { ...rule, ...changes } : rule)),
			`logic.${index}.${path}`,
		)
	}

	function addRule(): void {
		onChange([...logic, newRule(fields)], 'logic')
		// The new rule's first control takes the focus, so that building it goes on from the keyboard.
		requestAnimationFrame(() => document.getElementById(`${id}-rule-${logic.length}-action`)?.focus())
	}

	return (
		<section className="grid gap-5" aria-labelledby={`${id}-heading`}>
			<div className="grid gap-0.5">
				<h2 id={`${id}-heading`} className="font-semibold text-base">
					Logic
				</h2>
				<p className="text-muted-foreground text-sm">
					Show, hide or require fields depending on the answers. A field that a Show rule targets stays hidden until the
					rule matches.
				</p>
			</div>
			{errors.logic ? <p className="text-error text-sm">{errors.logic}</p> : null}
			{fields.length === 0 ? (
				<p className="text-muted-foreground text-sm">Add fields first: rules act on them.</p>
			) : null}
			{logic.length > 0 ? (
				<ol aria-label="Rules" className="grid gap-4">
					{logic.map((rule, index) => (
						<li key={rule.id}>
							<RuleEditor
								idPrefix={`${id}-rule-${index}`}
								rule={rule}
								index={index}
								fields={fields}
								properties={properties}
								errors={errors}
								onChange={(changes, path) => changeRule(index, changes, path)}
								onRemove={() =>
									onChange(
										logic.filter((_, position) => position !== index),
										'logic',
									)
								}
							/>
						</li>
					))}
				</ol>
			) : (
				<p className="text-muted-foreground text-sm">No rules yet: every field is shown as set up in Fields.</p>
			)}
			<div>
				<Button variant="outline" size="sm" disabled={fields.length === 0} onClick={addRule}>
					<Plus aria-hidden /> Add rule
				</Button>
			</div>
		</section>
	)
}

type RuleEditorProps = {
	idPrefix: string
	rule: LogicRule
	index: number
	fields: FormField[]
	properties: Property[]
	errors: DraftErrors
	onChange: (changes: Partial<LogicRule>, path: string) => void
	onRemove: () => void
}

function RuleEditor({ idPrefix, rule, index, fields, properties, errors, onChange, onRemove }: RuleEditorProps) {
	const number = index + 1
	const base = `logic.${index}`
	const targetsError = Object.entries(errors).find(([path]) => path.startsWith(`${base}.fieldIds`))?.[1]
	const conditionsError = errors[`${base}.conditions`]
	const ruleError = errors[base] ?? errors[`${base}.id`]

	function changeCondition(position: number, condition: Condition, key: string): void {
		onChange(
			{ conditions: rule.conditions.map((item, at) => (at === position ? condition : item)) },
			`conditions.${position}.${key}`,
		)
	}

	function toggleTarget(fieldId: string, checked: boolean): void {
		const fieldIds = checked ? [...rule.fieldIds, fieldId] : rule.fieldIds.filter((target) => target !== fieldId)
		onChange({ fieldIds }, 'fieldIds')
	}

	return (
		<fieldset className="grid gap-4 rounded-lg border p-4">
			<legend className="px-1 font-medium text-sm">Rule {number}</legend>
			{ruleError ? <p className="text-error text-sm">{ruleError}</p> : null}
			<div className="grid gap-4 sm:grid-cols-2">
				<Field id={`${idPrefix}-action`} label={`Action of rule ${number}`} error={errors[`${base}.action`]}>
					<NativeSelect
						value={rule.action}
						onChange={(event) => onChange({ action: event.target.value as LogicRule['action'] }, 'action')}
					>
						{Object.entries(actionLabels).map(([value, label]) => (
							<option key={value} value={value}>
								{label}
							</option>
						))}
					</NativeSelect>
				</Field>
				<Field label={`When, in rule ${number}`} error={errors[`${base}.match`]}>
					<NativeSelect
						value={rule.match}
						onChange={(event) => onChange({ match: event.target.value as LogicRule['match'] }, 'match')}
					>
						<option value="all">All the conditions match</option>
						<option value="any">Any condition matches</option>
					</NativeSelect>
				</Field>
			</div>
			<fieldset className="grid gap-2" aria-describedby={targetsError ? `${idPrefix}-targets-error` : undefined}>
				<legend className="mb-2 font-medium text-sm leading-none">Fields of rule {number}</legend>
				<div className="flex flex-wrap gap-x-5 gap-y-2">
					{fields.map((field) => (
						<label key={field.id} className="flex items-center gap-2 text-sm">
							<input
								type="checkbox"
								className="size-4 accent-primary"
								checked={rule.fieldIds.includes(field.id)}
								// Marks the group's inputs, so that a save with problems puts the focus here.
								aria-invalid={targetsError ? true : undefined}
								onChange={(event) => toggleTarget(field.id, event.target.checked)}
							/>
							{nameOf(field)}
						</label>
					))}
				</div>
				{targetsError ? (
					<p id={`${idPrefix}-targets-error`} className="text-[13px] text-error">
						{targetsError}
					</p>
				) : null}
			</fieldset>
			<ol aria-label={`Conditions of rule ${number}`} className="grid gap-3">
				{rule.conditions.map((condition, position) => (
					// biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id, and their editors keep no state of their own
					<li key={position}>
						<ConditionEditor
							label={`condition ${position + 1} of rule ${number}`}
							condition={condition}
							fields={fields}
							properties={properties}
							errors={errors}
							path={`${base}.conditions.${position}`}
							onChange={(changed, key) => changeCondition(position, changed, key)}
							onRemove={
								rule.conditions.length > 1
									? () => onChange({ conditions: rule.conditions.filter((_, at) => at !== position) }, 'conditions')
									: undefined
							}
						/>
					</li>
				))}
			</ol>
			{conditionsError ? <p className="text-[13px] text-error">{conditionsError}</p> : null}
			<div className="flex flex-wrap gap-2">
				<Button
					variant="outline"
					size="sm"
					aria-label={`Add a condition to rule ${number}`}
					disabled={rule.conditions.length >= 20}
					onClick={() => onChange({ conditions: [...rule.conditions, conditionFor(fields[0])] }, 'conditions')}
				>
					<Plus aria-hidden /> Add condition
				</Button>
				<Button variant="ghost" size="sm" className="text-error" onClick={onRemove}>
					<Trash2 aria-hidden /> Remove rule {number}
				</Button>
			</div>
		</fieldset>
	)
}

type ConditionEditorProps = {
	/** "condition 2 of rule 1": names its controls for assistive technology. */
	label: string
	condition: Condition
	fields: FormField[]
	properties: Property[]
	errors: DraftErrors
	path: string
	onChange: (condition: Condition, key: string) => void
	onRemove: (() => void) | undefined
}

function ConditionEditor({
	label,
	condition,
	fields,
	properties,
	errors,
	path,
	onChange,
	onRemove,
}: ConditionEditorProps) {
	const field = fields.find((item) => item.id === condition.fieldId)
	const operators = operatorsFor(field?.kind)
	const title = label.charAt(0).toUpperCase() + label.slice(1)
	return (
		<div className="grid gap-3 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end">
			<Field label={`Field of ${label}`} error={errors[`${path}.fieldId`]}>
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
			<Field label={`Comparison of ${label}`} error={errors[`${path}.operator`]}>
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
					error={errors[`${path}.value`]}
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
				<span aria-hidden className="hidden sm:block" />
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
		const options = property?.options?.map((option) => option.name) ?? []
		const current = typeof value === 'string' ? value : ''
		return (
			<Field label={label} error={error}>
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
			<Field label={label} error={error}>
				<NativeSelect
					value={value === false ? 'no' : 'yes'}
					onChange={(event) => onChange(event.target.value === 'yes')}
				>
					<option value="yes">Ticked</option>
					<option value="no">Not ticked</option>
				</NativeSelect>
			</Field>
		)
	}
	if (kind === 'number') {
		return (
			<Field label={label} error={error}>
				<Input
					type="number"
					step="any"
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
			<Field label={label} error={error}>
				<Input
					type="date"
					value={typeof value === 'string' ? value.slice(0, 10) : ''}
					onChange={(event) => onChange(event.target.value || null)}
				/>
			</Field>
		)
	}
	return (
		<Field label={label} error={error}>
			<Input
				maxLength={2000}
				value={typeof value === 'string' ? value : value == null ? '' : String(value)}
				onChange={(event) => onChange(event.target.value)}
			/>
		</Field>
	)
}
