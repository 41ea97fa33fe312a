import { type FieldKind, isContentKind, numericKinds } from '@blocksmith/contracts/form-kinds.ts'
import {
	type Condition,
	type ConditionOperator,
	formPages,
	type LogicAction,
	type LogicRule,
	type PageOfForm,
} from '@blocksmith/contracts/form-rules.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'

// The rule editor offers, for each field kind, only the comparisons the logic gives a meaning to
// (see the header of form-rules.ts): anything else would never match, which no one means to build.
// It also words each rule as the sentence it means ("When Budget is greater than 1000, show Company
// size"), for the eye and for screen readers.

export const actionLabels: Record<LogicAction, string> = {
	show: 'Show',
	hide: 'Hide',
	require: 'Require',
	unrequire: 'Make optional',
	jump: 'Jump to page',
}

const textOperators: ConditionOperator[] = [
	'equals',
	'not_equals',
	'contains',
	'not_contains',
	'is_empty',
	'is_not_empty',
]
const numberOperators: ConditionOperator[] = [
	'equals',
	'not_equals',
	'greater_than',
	'less_than',
	'greater_or_equal',
	'less_or_equal',
	'is_empty',
	'is_not_empty',
]
const emptiness: ConditionOperator[] = ['is_empty', 'is_not_empty']

const operatorsByKind: Record<FieldKind, ConditionOperator[]> = {
	short_text: textOperators,
	long_text: textOperators,
	url: textOperators,
	email: textOperators,
	phone: textOperators,
	number: numberOperators,
	rating: numberOperators,
	scale: numberOperators,
	nps: numberOperators,
	calculated: numberOperators,
	select: ['equals', 'not_equals', ...emptiness],
	status: ['equals', 'not_equals', ...emptiness],
	multi_select: ['contains', 'not_contains', ...emptiness],
	// A ranking holds every choice: only whether one is among them (it always is once answered) or empty.
	ranking: emptiness,
	// Ids of people and rows cannot be typed by hand, files and signatures have no value, a matrix's
	// cells are not compared: only whether there is an answer.
	people: emptiness,
	relation: emptiness,
	files: emptiness,
	signature: emptiness,
	matrix: emptiness,
	checkbox: ['equals'],
	date: ['equals', 'before', 'after', ...emptiness],
	// Content has no answer: never offered as a condition.
	heading: [],
	paragraph: [],
	image: [],
	divider: [],
	page_break: [],
}

const operatorLabels: Record<ConditionOperator, string> = {
	equals: 'is',
	not_equals: 'is not',
	contains: 'contains',
	not_contains: 'does not contain',
	is_empty: 'is empty',
	is_not_empty: 'is filled in',
	greater_than: 'is greater than',
	less_than: 'is less than',
	greater_or_equal: 'is at least',
	less_or_equal: 'is at most',
	before: 'is before',
	after: 'is after',
}

/** How an operator reads for a field kind: a multiple choice "includes" an option rather than "contains" it. */
export function operatorLabel(operator: ConditionOperator, kind: FieldKind | undefined): string {
	if (kind === 'multi_select' && operator === 'contains') {
		return 'includes'
	}
	if (kind === 'multi_select' && operator === 'not_contains') {
		return 'does not include'
	}
	if (kind === 'checkbox' && operator === 'equals') {
		return 'is'
	}
	return operatorLabels[operator]
}

export function operatorsFor(kind: FieldKind | undefined): ConditionOperator[] {
	return kind ? operatorsByKind[kind] : textOperators
}

export function needsValue(operator: ConditionOperator): boolean {
	return operator !== 'is_empty' && operator !== 'is_not_empty'
}

export function isNumeric(kind: FieldKind | undefined): boolean {
	return kind !== undefined && numericKinds.includes(kind)
}

/** The questions a condition may test: content has no answer. */
export function conditionFields(fields: readonly FormField[]): FormField[] {
	return fields.filter((field) => !isContentKind(field.kind))
}

/**
 * What a rule may act on: show and hide also take content (a heading, a picture; not a page break,
 * which only starts a page), require and unrequire only questions.
 */
export function targetFields(fields: readonly FormField[], action: LogicAction): FormField[] {
	if (action === 'jump') {
		return []
	}
	if (action === 'show' || action === 'hide') {
		return fields.filter((field) => field.kind !== 'page_break')
	}
	return conditionFields(fields)
}

/** The choices a condition on a choice field picks from: the property's options, or the field's own. */
export function choicesOf(field: FormField | undefined, property: Property | undefined): string[] {
	return property?.options?.map((option) => option.name) ?? field?.choices ?? []
}

/** A condition on a field, with its kind's first comparison and a value of the right shape. */
export function conditionFor(field: FormField | undefined, operator?: ConditionOperator): Condition {
	const chosen = operator ?? operatorsFor(field?.kind)[0] ?? 'is_not_empty'
	const condition: Condition = { fieldId: field?.id ?? '', operator: chosen }
	if (!needsValue(chosen)) {
		return condition
	}
	return { ...condition, value: field?.kind === 'checkbox' ? true : null }
}

export function newRule(fields: readonly FormField[]): LogicRule {
	return {
		id: crypto.randomUUID(),
		match: 'all',
		action: 'show',
		fieldIds: [],
		conditions: [conditionFor(conditionFields(fields)[0])],
	}
}

export const nameOf = (field: Pick<FormField, 'label'>) => field.label.trim() || 'Untitled field'

/** "Page 2: Details", or "Page 2" for a page break without a label. */
export function pageName(page: PageOfForm, fields: readonly FormField[]): string {
	const pageBreak = fields.find((field) => field.id === page.id)
	const label = pageBreak?.label.trim()
	return label ? `Page ${page.index + 1}: ${label}` : `Page ${page.index + 1}`
}

/** Whether the form has more than one page: jumps are offered only then. */
export function hasPages(fields: readonly FormField[]): boolean {
	return formPages(fields).length > 1
}

/**
 * The pages a jump may go to: those after the page of its last condition field in form order (the
 * page it leaves), or all but the first while it has no condition on a field.
 */
export function jumpTargets(rule: Pick<LogicRule, 'conditions'>, fields: readonly FormField[]): PageOfForm[] {
	const pages = formPages(fields)
	const order = new Map(fields.map((field, position) => [field.id, position]))
	let source = 0
	let last = -1
	for (const condition of rule.conditions) {
		const position = order.get(condition.fieldId)
		if (position !== undefined && position > last) {
			last = position
			source = pages.find((page) => page.fieldIds.includes(condition.fieldId))?.index ?? 0
		}
	}
	return pages.filter((page) => page.index > source)
}

/** The same rule acting otherwise: a jump has a page and no fields; the others no page, and fitting fields. */
export function withAction(rule: LogicRule, action: LogicAction, fields: readonly FormField[]): LogicRule {
	if (action === 'jump') {
		const { toPageId: _, ...rest } = rule
		return { ...rest, action, fieldIds: [], toPageId: jumpTargets(rule, fields)[0]?.id ?? 'end' }
	}
	const allowed = new Set(targetFields(fields, action).map((field) => field.id))
	const { toPageId: _, ...rest } = rule
	return { ...rest, action, fieldIds: rule.fieldIds.filter((id) => allowed.has(id)) }
}

// ---- the rule as a sentence -----------------------------------------------------------------

function valueText(condition: Condition, field: FormField | undefined): string {
	const { value } = condition
	if (field?.kind === 'checkbox') {
		return value === false ? 'not ticked' : 'ticked'
	}
	if (value === undefined || value === null || value === '') {
		return '…'
	}
	return typeof value === 'string' ? `“${value}”` : String(value)
}

/** "Budget is greater than 1000", "Email is filled in", "Newsletter is ticked". */
function describeCondition(condition: Condition, fields: readonly FormField[]): string {
	const field = fields.find((item) => item.id === condition.fieldId)
	const name = field ? nameOf(field) : 'a removed field'
	if (field?.kind === 'checkbox' && condition.operator === 'equals') {
		return `${name} is ${valueText(condition, field)}`
	}
	const verb = operatorLabel(condition.operator, field?.kind)
	return needsValue(condition.operator) ? `${name} ${verb} ${valueText(condition, field)}` : `${name} ${verb}`
}

function list(items: string[], joiner: 'and' | 'or'): string {
	if (items.length <= 1) {
		return items[0] ?? ''
	}
	return `${items.slice(0, -1).join(', ')} ${joiner} ${items.at(-1)}`
}

const actionVerbs: Record<Exclude<LogicAction, 'jump'>, string> = {
	show: 'show',
	hide: 'hide',
	require: 'require',
	unrequire: 'make optional',
}

/** The rule as a sentence: "When Budget is greater than 1000, show Company size." */
export function describeRule(rule: LogicRule, fields: readonly FormField[]): string {
	const conditions = list(
		rule.conditions.map((condition) => describeCondition(condition, fields)),
		rule.match === 'all' ? 'and' : 'or',
	)
	let outcome: string
	if (rule.action === 'jump') {
		const page = formPages(fields).find((item) => item.id === rule.toPageId)
		outcome =
			rule.toPageId === 'end'
				? 'go to the end of the form'
				: page
					? `jump to ${pageName(page, fields)}`
					: 'jump to a page still to pick'
	} else {
		const targets = rule.fieldIds.map((id) => {
			const field = fields.find((item) => item.id === id)
			return field ? nameOf(field) : 'a removed field'
		})
		outcome = `${actionVerbs[rule.action]} ${targets.length > 0 ? list(targets, 'and') : 'the fields still to pick'}`
	}
	return `When ${conditions || 'a condition still to set'}, ${outcome}.`
}
