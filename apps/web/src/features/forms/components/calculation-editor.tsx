import { checkFormRules, evaluateForm } from '@blocksmith/contracts/form-rules.ts'
import type { CalculationStep, FormCalculation, FormField } from '@blocksmith/contracts/forms.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react'
import { useId, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { conditionFields, conditionFor, isNumeric, nameOf } from '../lib/logic.ts'
import { ConditionRow } from './condition-row.tsx'

type CalculationEditorProps = {
	/** The calculated field being set up. */
	field: FormField
	/** The whole form, in order: a calculation reads only the questions before its field. */
	fields: FormField[]
	onChange: (calculation: FormCalculation) => void
	/** Choice properties, for the options a step's condition compares with. */
	properties?: Property[]
	/** The server's problems by key under the field (`calculation.steps.0.operand.fieldId`). */
	error?: (key: string) => string | undefined
}

const defaultCalculation: FormCalculation = { start: '0', steps: [], decimals: 0, prefix: null, suffix: null }

const operationLabels: Record<CalculationStep['operation'], string> = {
	add: 'Add',
	subtract: 'Subtract',
	multiply: 'Multiply by',
	divide: 'Divide by',
	set: 'Set to',
}

// As forms.ts's decimalTextSchema, so that a mistake shows while typing rather than on save.
const decimalText = /^-?\d{1,12}(\.\d{1,6})?$/
const decimalMessage = 'Use a number such as 12 or 49.90 (at most 6 decimals).'
const maxSteps = 50
const maxConditions = 10

/**
 * How a calculated field works out its number: a start, steps in order (each with a fixed number or
 * an earlier numeric answer, and conditions that must all match), the decimals kept, and what is
 * shown around the result; with a live example worked out by the same rules as the page and server.
 */
export function CalculationEditor({ field, fields, onChange, properties = [], error }: CalculationEditorProps) {
	const id = useId()
	const calculation = field.calculation ?? defaultCalculation
	const position = fields.findIndex((item) => item.id === field.id)
	const earlier = position >= 0 ? fields.slice(0, position) : fields.filter((item) => item.id !== field.id)
	const questions = conditionFields(earlier)
	const numeric = questions.filter((item) => isNumeric(item.kind))

	// The same checks as the server's, on the form as it would be saved, so problems show as they arise.
	const withThis = position >= 0 ? fields.map((item, at) => (at === position ? { ...item, calculation } : item)) : []
	const prefix = `fields.${position}.`
	const found = new Map(
		checkFormRules(withThis, [])
			.filter((problem) => problem.path.startsWith(`${prefix}calculation`))
			.map((problem) => [problem.path.slice(prefix.length), problem.message]),
	)
	const problem = (key: string) => error?.(key) ?? found.get(key)

	const change = (changes: Partial<FormCalculation>) => onChange({ ...calculation, ...changes })
	const changeStep = (index: number, step: CalculationStep) =>
		change({ steps: calculation.steps.map((item, at) => (at === index ? step : item)) })
	const moveStep = (index: number, by: -1 | 1) => {
		const steps = [...calculation.steps]
		const [moved] = steps.splice(index, 1)
		if (moved) {
			steps.splice(index + by, 0, moved)
			change({ steps })
		}
	}

	return (
		<section className="grid gap-4" aria-labelledby={`${id}-heading`}>
			<div className="grid gap-0.5">
				<h3 id={`${id}-heading`} className="font-medium text-sm">
					Calculation
				</h3>
				<p className="text-muted-foreground text-[13px]">
					Starts at a number and applies each step in order, with exact decimals. Steps read only the questions before
					this field; an unanswered, hidden or skipped one counts as 0.
				</p>
			</div>
			<Field
				label="Start at"
				error={
					problem('calculation.start') ?? (decimalText.test(calculation.start.trim()) ? undefined : decimalMessage)
				}
				className="max-w-48"
			>
				<Input
					inputMode="decimal"
					value={calculation.start}
					onChange={(event) => change({ start: event.target.value })}
				/>
			</Field>
			{calculation.steps.length > 0 ? (
				<ol aria-label="Steps" className="grid gap-3">
					{calculation.steps.map((step, index) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: steps have no id, and their editors keep no state of their own
						<li key={index}>
							<StepEditor
								number={index + 1}
								step={step}
								questions={questions}
								numeric={numeric}
								properties={properties}
								problem={(key) => problem(`calculation.steps.${index}.${key}`)}
								onChange={(changed) => changeStep(index, changed)}
								onMove={{
									up: index > 0 ? () => moveStep(index, -1) : undefined,
									down: index < calculation.steps.length - 1 ? () => moveStep(index, 1) : undefined,
								}}
								onRemove={() => change({ steps: calculation.steps.filter((_, at) => at !== index) })}
							/>
						</li>
					))}
				</ol>
			) : (
				<p className="text-muted-foreground text-sm">No steps yet: the result is the start value.</p>
			)}
			<div>
				<Button
					variant="outline"
					size="sm"
					disabled={calculation.steps.length >= maxSteps}
					onClick={() =>
						change({
							steps: [
								...calculation.steps,
								{ operation: 'add', operand: numeric[0] ? { fieldId: numeric[0].id } : { value: '1' }, when: [] },
							],
						})
					}
				>
					<Plus aria-hidden /> Add step
				</Button>
			</div>
			<div className="grid gap-4 sm:grid-cols-3">
				<Field label="Decimal places" description="Rounded half up.">
					<NativeSelect
						value={calculation.decimals}
						onChange={(event) => change({ decimals: Number(event.target.value) })}
					>
						{[0, 1, 2, 3, 4, 5, 6].map((count) => (
							<option key={count} value={count}>
								{count}
							</option>
						))}
					</NativeSelect>
				</Field>
				<Field label="Before the number" description="Such as € or $.">
					<Input
						maxLength={10}
						value={calculation.prefix ?? ''}
						onChange={(event) => change({ prefix: event.target.value || null })}
					/>
				</Field>
				<Field label="After the number" description="Such as “ pts” or “ kg”.">
					<Input
						maxLength={10}
						value={calculation.suffix ?? ''}
						onChange={(event) => change({ suffix: event.target.value || null })}
					/>
				</Field>
			</div>
			<Example field={field} calculation={calculation} earlier={earlier} numeric={numeric} />
		</section>
	)
}

type StepEditorProps = {
	number: number
	step: CalculationStep
	/** The earlier questions: what a condition may test. */
	questions: FormField[]
	/** The earlier numeric questions: what the step may use. */
	numeric: FormField[]
	properties: Property[]
	problem: (key: string) => string | undefined
	onChange: (step: CalculationStep) => void
	onMove: { up: (() => void) | undefined; down: (() => void) | undefined }
	onRemove: () => void
}

function StepEditor({
	number,
	step,
	questions,
	numeric,
	properties,
	problem,
	onChange,
	onMove,
	onRemove,
}: StepEditorProps) {
	const usesField = 'fieldId' in step.operand
	const source = 'fieldId' in step.operand ? step.operand.fieldId : 'value'
	const isKnownSource = source === 'value' || numeric.some((item) => item.id === source)
	const fixed = 'value' in step.operand ? step.operand.value : ''
	return (
		<fieldset className="grid gap-3 rounded-md border p-3">
			<legend className="px-1 font-medium text-[13px]">Step {number}</legend>
			<div className="flex flex-wrap items-start gap-2">
				<Field label={`Operation of step ${number}`} isLabelHidden error={problem('operation')} className="min-w-36">
					<NativeSelect
						value={step.operation}
						onChange={(event) => onChange({ ...step, operation: event.target.value as CalculationStep['operation'] })}
					>
						{Object.entries(operationLabels).map(([value, label]) => (
							<option key={value} value={value}>
								{label}
							</option>
						))}
					</NativeSelect>
				</Field>
				<Field label={`What step ${number} uses`} isLabelHidden error={problem('operand.fieldId')} className="min-w-44">
					<NativeSelect
						value={source}
						onChange={(event) =>
							onChange({
								...step,
								operand: event.target.value === 'value' ? { value: fixed || '1' } : { fieldId: event.target.value },
							})
						}
					>
						<option value="value">a number</option>
						{isKnownSource ? null : <option value={source}>a question no longer before this field</option>}
						{numeric.map((item) => (
							<option key={item.id} value={item.id}>
								the answer to {nameOf(item)}
							</option>
						))}
					</NativeSelect>
				</Field>
				{usesField ? null : (
					<Field
						label={`Number of step ${number}`}
						isLabelHidden
						error={problem('operand.value') ?? (decimalText.test(fixed.trim()) ? undefined : decimalMessage)}
						className="w-32"
					>
						<Input
							inputMode="decimal"
							value={fixed}
							onChange={(event) => onChange({ ...step, operand: { value: event.target.value } })}
						/>
					</Field>
				)}
				<div className="ml-auto flex gap-1">
					<Button
						variant="ghost"
						size="sm"
						aria-label={`Move step ${number} up`}
						disabled={!onMove.up}
						onClick={onMove.up}
					>
						<ArrowUp aria-hidden />
					</Button>
					<Button
						variant="ghost"
						size="sm"
						aria-label={`Move step ${number} down`}
						disabled={!onMove.down}
						onClick={onMove.down}
					>
						<ArrowDown aria-hidden />
					</Button>
					<Button
						variant="ghost"
						size="sm"
						className="text-error"
						aria-label={`Remove step ${number}`}
						onClick={onRemove}
					>
						<Trash2 aria-hidden />
					</Button>
				</div>
			</div>
			{step.when.length > 0 ? (
				<ol aria-label={`Conditions of step ${number}`} className="grid gap-2">
					{step.when.map((condition, position) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id, and their editors keep no state of their own
						<li key={position}>
							<ConditionRow
								label={`condition ${position + 1} of step ${number}`}
								lead={position === 0 ? 'Only if' : 'and'}
								condition={condition}
								fields={questions}
								properties={properties}
								error={(key) => problem(`when.${position}.${key}`)}
								onChange={(changed) =>
									onChange({ ...step, when: step.when.map((item, at) => (at === position ? changed : item)) })
								}
								onRemove={() => onChange({ ...step, when: step.when.filter((_, at) => at !== position) })}
							/>
						</li>
					))}
				</ol>
			) : null}
			<div>
				<Button
					variant="ghost"
					size="sm"
					aria-label={`Add a condition to step ${number}`}
					disabled={questions.length === 0 || step.when.length >= maxConditions}
					onClick={() => onChange({ ...step, when: [...step.when, conditionFor(questions[0])] })}
				>
					<Plus aria-hidden /> {step.when.length === 0 ? 'Only when…' : 'And when…'}
				</Button>
			</div>
		</fieldset>
	)
}

type ExampleProps = { field: FormField; calculation: FormCalculation; earlier: FormField[]; numeric: FormField[] }

/** Example answers to the numeric questions the steps use, and the result they give. */
function Example({ field, calculation, earlier, numeric }: ExampleProps) {
	const [answers, setAnswers] = useState<Record<string, number>>({})
	const used = new Set(
		calculation.steps.flatMap((step) => [
			...('fieldId' in step.operand ? [step.operand.fieldId] : []),
			...step.when.map((condition) => condition.fieldId),
		]),
	)
	const inputs = numeric.filter((item) => used.has(item.id))
	// The form's own logic is left out: the example is about the arithmetic.
	const result = evaluateForm([...earlier, { ...field, hidden: false, calculation }], [], answers).calculated[field.id]
	const shown =
		result === null || result === undefined
			? 'No result: the start is not a number.'
			: `${calculation.prefix ?? ''}${result.toFixed(calculation.decimals)}${calculation.suffix ?? ''}`
	return (
		<fieldset className="grid gap-3 rounded-md bg-muted/50 p-3">
			<legend className="float-left mb-1 font-medium text-[13px]">Try it</legend>
			{inputs.length > 0 ? (
				<div className="flex flex-wrap gap-3">
					{inputs.map((item) => (
						<Field key={item.id} label={`Example answer to ${nameOf(item)}`} className="w-44">
							<Input
								type="number"
								step="any"
								value={answers[item.id] ?? ''}
								onChange={(event) => {
									const { [item.id]: _, ...rest } = answers
									const number = event.target.valueAsNumber
									setAnswers(Number.isNaN(number) ? rest : { ...rest, [item.id]: number })
								}}
							/>
						</Field>
					))}
				</div>
			) : null}
			<p className="text-sm">
				Result:{' '}
				<output aria-live="polite" className="font-semibold tabular-nums">
					{shown}
				</output>
			</p>
		</fieldset>
	)
}
