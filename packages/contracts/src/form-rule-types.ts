import type { FieldKind } from './form-kinds.ts'

// The types of form rules, shared by the modules of the rules engine (form-rules.ts and its parts)
// and by the schemas (form-logic.ts). A leaf: it imports nothing that imports it back. What the rules
// mean is in the header of form-rules.ts.

export const conditionOperators = [
	'equals',
	'not_equals',
	'contains',
	'not_contains',
	'is_empty',
	'is_not_empty',
	'greater_than',
	'less_than',
	'greater_or_equal',
	'less_or_equal',
	'before',
	'after',
] as const
export type ConditionOperator = (typeof conditionOperators)[number]

export const logicActions = ['show', 'hide', 'require', 'unrequire', 'jump'] as const
export type LogicAction = (typeof logicActions)[number]

export type Condition = {
	/** The field whose answer is tested. */
	fieldId: string
	operator: ConditionOperator
	/** What the answer is compared with; `is_empty` and `is_not_empty` ignore it. */
	value?: string | number | boolean | null
}

export type LogicRule = {
	/** Stable across edits, so that the builder can name the rule in its problems. */
	id: string
	match: 'all' | 'any'
	conditions: Condition[]
	action: LogicAction
	/** The fields the action applies to; a jump has none. */
	fieldIds: string[]
	/**
	 * jump: where Next goes from the page of the rule's last condition (in form order) when the rule
	 * matches: a later page break's id (its page), or `end` (straight to submitting).
	 */
	toPageId?: string | undefined
}

export type FormLogic = LogicRule[]

/** What the logic needs to know of a field (a FormField or PublicField will do). */
export type LogicField = {
	id: string
	kind: FieldKind
	required: boolean
	/** calculated: what it works out; null or absent gives no value. */
	calculation?: Calculation | null | undefined
}
export type FieldLogicState = { visible: boolean; required: boolean }
/** `visible` is false for a skipped field: it is on a page off the path. */
export type FieldEvaluation = FieldLogicState & { skipped: boolean }
export type FormEvaluation = {
	/** Every field id, content included. */
	fields: Record<string, FieldEvaluation>
	/** The ids of the pages the visitor goes through, in order, given the answers. */
	path: string[]
	/** Each calculated field's value; null when it is hidden, skipped or has no calculation. */
	calculated: Record<string, number | null>
}
/** A problem in a form's logic; `path` is a dotted path such as `logic.3.conditions.0.fieldId`. */
export type LogicProblem = { path: string; message: string }

/**
 * A calculated field's calculation as the engine reads it: `FormCalculation` of forms.ts (its schema
 * is the source; form-calc.test.ts checks that it fits this type).
 */
export type Calculation = {
	start: string
	steps: {
		/** All must match; empty: always. */
		when: Condition[]
		operation: 'add' | 'subtract' | 'multiply' | 'divide' | 'set'
		operand: { value: string } | { fieldId: string }
	}[]
	decimals: number
	prefix?: string | null | undefined
	suffix?: string | null | undefined
}
