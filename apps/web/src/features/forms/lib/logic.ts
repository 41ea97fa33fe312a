import type { FieldKind } from '@blocksmith/contracts/form-kinds.ts'
import type { Condition, ConditionOperator, LogicAction, LogicRule } from '@blocksmith/contracts/form-rules.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'

// The rule editor offers, for each field kind, only the comparisons the logic gives a meaning to
// (see the header of form-logic.ts): anything else would never match, which no one means to build.

export const actionLabels: Record<LogicAction, string> = {
	show: 'Show',
	hide: 'Hide',
	require: 'Require',
	unrequire: 'Make optional',
}

const textOperators: ConditionOperator[] = [
	'equals',
	'not_equals',
	'contains',
	'not_contains',
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
	number: ['equals', 'not_equals', 'greater_than', 'less_than', 'greater_or_equal', 'less_or_equal', ...emptiness],
	select: ['equals', 'not_equals', ...emptiness],
	status: ['equals', 'not_equals', ...emptiness],
	multi_select: ['contains', 'not_contains', ...emptiness],
	// Ids of people and rows cannot be typed by hand, files have no value: only whether there is an answer.
	people: emptiness,
	relation: emptiness,
	checkbox: ['equals'],
	date: ['equals', 'before', 'after', ...emptiness],
	files: emptiness,
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
	return operatorLabels[operator]
}

export function operatorsFor(kind: FieldKind | undefined): ConditionOperator[] {
	return kind ? operatorsByKind[kind] : textOperators
}

export function needsValue(operator: ConditionOperator): boolean {
	return operator !== 'is_empty' && operator !== 'is_not_empty'
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
		conditions: [conditionFor(fields[0])],
	}
}
