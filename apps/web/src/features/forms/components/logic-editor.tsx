import type { LogicAction, LogicRule } from '@blocksmith/contracts/form-rules.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { Plus, Trash2 } from 'lucide-react'
import { useId } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import type { DraftErrors } from '../lib/draft.ts'
import {
	actionLabels,
	conditionFields,
	conditionFor,
	describeRule,
	hasPages,
	jumpTargets,
	nameOf,
	newRule,
	pageName,
	targetFields,
	withAction,
} from '../lib/logic.ts'
import { ConditionRow } from './condition-row.tsx'

type LogicEditorProps = {
	logic: LogicRule[]
	fields: FormField[]
	properties: Property[]
	errors: DraftErrors
	/** `path` is the one whose errors the change answers; a whole rule's path when rules come or go. */
	onChange: (logic: LogicRule[], path: string) => void
}

/** Rules that show, hide, require or unrequire fields, or jump to a page, depending on the answers. */
export function LogicEditor({ logic, fields, properties, errors, onChange }: LogicEditorProps) {
	const id = useId()
	const questions = conditionFields(fields)
	const paged = hasPages(fields)

	function changeRule(index: number, rule: LogicRule, path: string): void {
		onChange(
			logic.map((item, position) => (position === index ? rule : item)),
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
					Show, hide or require fields depending on the answers
					{paged ? ', or jump past pages' : ''}. A field that a Show rule targets stays hidden until the rule matches.
				</p>
			</div>
			{errors.logic ? <p className="text-error text-sm">{errors.logic}</p> : null}
			{questions.length === 0 ? (
				<p className="text-muted-foreground text-sm">Add questions first: rules test their answers.</p>
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
								isPaged={paged}
								properties={properties}
								errors={errors}
								onChange={(changed, path) => changeRule(index, changed, path)}
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
				<Button variant="outline" size="sm" disabled={questions.length === 0} onClick={addRule}>
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
	/** The form has page breaks: jumps are offered. */
	isPaged: boolean
	properties: Property[]
	errors: DraftErrors
	onChange: (rule: LogicRule, path: string) => void
	onRemove: () => void
}

const targetsLegend: Record<Exclude<LogicAction, 'jump'>, string> = {
	show: 'Fields to show',
	hide: 'Fields to hide',
	require: 'Fields to require',
	unrequire: 'Fields to make optional',
}

function RuleEditor({
	idPrefix,
	rule,
	index,
	fields,
	isPaged,
	properties,
	errors,
	onChange,
	onRemove,
}: RuleEditorProps) {
	const number = index + 1
	const base = `logic.${index}`
	const targetsError = Object.entries(errors).find(([path]) => path.startsWith(`${base}.fieldIds`))?.[1]
	const conditionsError = errors[`${base}.conditions`]
	const ruleError = errors[base] ?? errors[`${base}.id`]
	const questions = conditionFields(fields)
	const actions = (Object.keys(actionLabels) as LogicAction[]).filter(
		(action) => action !== 'jump' || isPaged || rule.action === 'jump',
	)
	const lead = rule.match === 'all' ? 'and' : 'or'

	function toggleTarget(fieldId: string, checked: boolean): void {
		const fieldIds = checked ? [...rule.fieldIds, fieldId] : rule.fieldIds.filter((target) => target !== fieldId)
		onChange({ ...rule, fieldIds }, 'fieldIds')
	}

	return (
		<fieldset className="grid gap-4 rounded-lg border p-4" aria-describedby={`${idPrefix}-sentence`}>
			<legend className="px-1 font-medium text-sm">Rule {number}</legend>
			{/* The whole rule in words: what the controls below say, read at a glance (and by screen readers). */}
			<p id={`${idPrefix}-sentence`} className="text-sm">
				{describeRule(rule, fields)}
			</p>
			{ruleError ? <p className="text-error text-sm">{ruleError}</p> : null}
			<div className="flex flex-wrap items-start gap-x-2 gap-y-3">
				<Field
					id={`${idPrefix}-action`}
					label={`Action of rule ${number}`}
					isLabelHidden
					error={errors[`${base}.action`]}
					className="min-w-40"
				>
					<NativeSelect
						value={rule.action}
						onChange={(event) => onChange(withAction(rule, event.target.value as LogicAction, fields), 'action')}
					>
						{actions.map((action) => (
							<option key={action} value={action}>
								{actionLabels[action]}
							</option>
						))}
					</NativeSelect>
				</Field>
				{rule.action === 'jump' ? (
					<JumpTarget
						idPrefix={idPrefix}
						rule={rule}
						number={number}
						fields={fields}
						errors={errors}
						onChange={onChange}
					/>
				) : (
					<span aria-hidden className="pt-2 text-muted-foreground text-sm">
						the fields picked below
					</span>
				)}
				<span aria-hidden className="pt-2 text-muted-foreground text-sm">
					when
				</span>
				<Field label={`When, in rule ${number}`} isLabelHidden error={errors[`${base}.match`]} className="min-w-56">
					<NativeSelect
						value={rule.match}
						onChange={(event) => onChange({ ...rule, match: event.target.value as LogicRule['match'] }, 'match')}
					>
						<option value="all">all of these match</option>
						<option value="any">any of these matches</option>
					</NativeSelect>
				</Field>
			</div>
			{rule.action === 'jump' ? null : (
				<fieldset className="grid gap-2" aria-describedby={targetsError ? `${idPrefix}-targets-error` : undefined}>
					<legend className="mb-2 font-medium text-sm leading-none">
						{targetsLegend[rule.action]} <span className="sr-only">in rule {number}</span>
					</legend>
					<div className="flex flex-wrap gap-x-5 gap-y-2">
						{targetFields(fields, rule.action).map((field) => (
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
			)}
			<ol aria-label={`Conditions of rule ${number}`} className="grid gap-3">
				{rule.conditions.map((condition, position) => (
					// biome-ignore lint/suspicious/noArrayIndexKey: conditions have no id, and their editors keep no state of their own
					<li key={position}>
						<ConditionRow
							label={`condition ${position + 1} of rule ${number}`}
							lead={position === 0 ? 'If' : lead}
							condition={condition}
							fields={questions}
							properties={properties}
							error={(key) => errors[`${base}.conditions.${position}.${key}`]}
							onChange={(changed, key) =>
								onChange(
									{ ...rule, conditions: rule.conditions.map((item, at) => (at === position ? changed : item)) },
									`conditions.${position}.${key}`,
								)
							}
							onRemove={
								rule.conditions.length > 1
									? () =>
											onChange(
												{ ...rule, conditions: rule.conditions.filter((_, at) => at !== position) },
												'conditions',
											)
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
					onClick={() =>
						onChange({ ...rule, conditions: [...rule.conditions, conditionFor(questions[0])] }, 'conditions')
					}
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

type JumpTargetProps = {
	idPrefix: string
	rule: LogicRule
	number: number
	fields: FormField[]
	errors: DraftErrors
	onChange: (rule: LogicRule, path: string) => void
}

/** Where a jump goes: a page after the one its conditions are on, or the end. */
function JumpTarget({ idPrefix, rule, number, fields, errors, onChange }: JumpTargetProps) {
	const targets = jumpTargets(rule, fields)
	const current = rule.toPageId ?? ''
	const isKnown = current === 'end' || targets.some((page) => page.id === current)
	return (
		<Field
			id={`${idPrefix}-page`}
			label={`Page rule ${number} jumps to`}
			isLabelHidden
			error={errors[`logic.${number - 1}.toPageId`]}
			className="min-w-48"
		>
			<NativeSelect
				value={current}
				onChange={(event) => onChange({ ...rule, toPageId: event.target.value }, 'toPageId')}
			>
				{isKnown ? null : (
					<option value={current}>{current ? 'A page no longer after this one' : 'Pick a page…'}</option>
				)}
				{targets.map((page) => (
					<option key={page.id} value={page.id}>
						{pageName(page, fields)}
					</option>
				))}
				<option value="end">the end (submit)</option>
			</NativeSelect>
		</Field>
	)
}
