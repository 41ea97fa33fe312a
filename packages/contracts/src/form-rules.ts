import { calculate } from './form-calc.ts'
import { conditionTest, type RawTest } from './form-conditions.ts'
import type { FieldKind } from './form-kinds.ts'
import {
	endPageId,
	formPages,
	isContent,
	isNumericKind,
	type PageOfForm,
	type PlacedJump,
	pageIndexByField,
	placeJump,
	walkPages,
} from './form-pages.ts'
import type { Condition, FieldLogicState, FormEvaluation, LogicField, LogicRule } from './form-rule-types.ts'

// Conditional logic for forms: rules that show, hide, require or unrequire fields, or jump to a
// page, depending on the answers; the pages a visitor goes through; the calculated fields. This one
// module runs in the browser (to show and hide fields as the visitor types) and on the server (to
// validate: a hidden or skipped field is never required and never stored), so the two always agree.
// It uses only the language itself and big.js: no zod, Node, DOM or Intl APIs. Its parts live in
// form-conditions.ts (comparisons), form-pages.ts (pages, jumps) and form-calc.ts (calculations).
//
// Rules
// - A field that any `show` rule targets is hidden unless one of those rules matches ("show X when …"
//   means hidden otherwise, as in Tally). A field that no `show` rule targets is visible.
// - A matching `hide` rule hides its fields; hide wins when a show rule matches too.
// - Required starts as the field's own `required`; a matching `require` rule makes it required and a
//   matching `unrequire` rule optional (unrequire wins). A hidden or skipped field, and content, are
//   never required.
// - `match: 'all'` needs every condition to match, `'any'` at least one.
// - Targets that are not in the form are ignored. The result depends neither on the order of the
//   rules nor on the order of the fields.
//
// Settling
// - A condition on a hidden field reads it as empty, whatever was typed into it before it was hidden,
//   so with "A shows B, B shows C" C disappears as soon as A stops showing B.
// - So visibility is worked out in passes until nothing changes. The first pass starts from the form
//   as it is when no rule matches (show targets hidden, the rest visible). Without loops it settles
//   within one pass per field.
// - Because of that start a field cannot keep itself, or a loop of fields, shown: "show A when B is
//   filled in" with "show B when A is filled in" leaves both hidden.
// - A loop that never settles ("hide A when A is filled in" with A filled in) still ends: after one
//   pass per field, every field whose visibility is still flipping (in the loop or behind it) is
//   hidden for good, and the rest settles again. Hidden is the safe side: never required, never
//   stored. `checkFormRules` reports such loops so that the builder can refuse them.
// - `require` and `unrequire` rules do not change visibility, so they are matched once, on the
//   settled visibility.
//
// Pages and jumps
// - Each `page_break` starts a page holding it and the items after it, up to the next break. The
//   first page's id is `start`, the others' their page break's id. A page break that is the form's
//   first item titles the first page instead of starting an empty one. Visibility never changes the
//   pages: a hidden page break hides its title only.
// - A `jump` rule leaves from the page of its last condition field in form order (its "source"; a
//   jump without a condition on a field of the form never applies). Its `toPageId` must be a page
//   after the source or `end`; any other target never applies (`checkFormRules` reports it). So jumps
//   only go forward and cannot loop. `fieldIds` of a jump are ignored.
// - The path: start on `start`; from each page go to the earliest target among its matching jumps
//   (whatever the order of the rules; `end` is after every page), or else to the next page; `end`
//   or running past the last page ends it.
// - Fields on pages off the path are skipped: not visible, never required, never stored, and a
//   condition on one reads it as empty (as on a hidden field). A page on the path whose items are all
//   hidden stays on it; whether to show such a page is the page's choice.
// - `nextPageId` is the page after a given one on the path (or `end`), for the page's Next button.
//
// Settling with pages and calculations
// - Visibility, the path and the calculated values are worked out together in the passes of
//   "Settling": each pass reads the previous pass's "active" fields (visible and not skipped; the
//   others read as empty), and gives the visibility by the show and hide rules, then the path by the
//   jump rules, then the active fields again. The first pass starts with no jump matching (every
//   page on the path). A field still flipping after one pass per field (its visibility, or its page
//   going on and off the path) is hidden for good, as above, so that a loop through a jump or a
//   calculation ends too, on the safe side: hidden, never required, never stored.
// - `require` and `unrequire` rules are matched once, on the settled active fields.
//
// Calculations (form-calc.ts; `calculated` fields, `FormCalculation` in forms.ts)
// - A calculated field starts at `start` and applies each step in order; a step applies when all its
//   `when` conditions match (none: always). `add`, `subtract`, `multiply`, `divide` and `set` take a
//   fixed decimal or an earlier numeric question's answer (number, rating, scale, nps, calculated).
// - Exact decimals (big.js): 0.1 + 0.2 is 0.3. A division is carried to 40 decimals; a division by
//   zero is ignored (the step does nothing). The result is rounded half away from zero ("half-up"
//   for negatives too: -2.5 gives -3) to `decimals`, then given as a JS number, what Notion stores.
// - An answer is read exactly as written by JavaScript (`String(19.99)` is '19.99'), the same in
//   every engine. Empty, hidden and skipped operands read as 0; an operand that is not an earlier
//   numeric question makes its step do nothing. `when` conditions read the form as logic conditions
//   do; a condition on a field that is not earlier reads it as empty (not yet answered).
// - A hidden or skipped calculated field has no value (null) and reads as 0 and empty; what a
//   visitor sends for a calculated field is ignored: the value is always worked out here.
// - Logic conditions may test calculated fields: they compare as numbers.
// - A start that is not a decimal (the schema refuses one) gives null; so does a result too large
//   for a JS number.
//
// Conditions
// - A condition on a field that is not in the form never matches, whatever its operator (the builder
//   may leave stale rules after a field is removed). Under `any` the rule's other conditions still count.
// - An operator that does not apply to the field's kind, or a value that does not fit it (a word for
//   a number, `true` for a text), never matches: not even `not_equals` or `not_contains`. Nothing throws.
// - Otherwise `not_equals`, `not_contains` and `is_not_empty` are the exact opposites of `equals`,
//   `contains` and `is_empty`, so an empty answer is "not equal" to any value (as in Notion's filters).
// - An answer that does not have its field's value shape reads as empty; checking shapes is the job
//   of the answer validation, not of the logic.
// - Empty means: text that is blank once trimmed, no number, no choice, no date, an unticked checkbox.
// - Text kinds (short_text, long_text, url, email, phone): `equals` and `contains` (a substring),
//   both on trimmed text, case-insensitively. A number value is compared as its text ('42').
// - number, rating, scale, nps, calculated: `equals`, `greater_than`, `less_than`, `greater_or_equal`,
//   `less_or_equal`, numerically. A string value is read as a decimal number ('1.5', '-2', '1e3');
//   any other string never matches.
// - select, status, multi_select: option names, trimmed and case-insensitive; people, relation: ids,
//   compared exactly (they are case-sensitive). For all of them `equals` and `contains` both mean
//   "the choice includes this value": what "Interests is Music" means to someone building a form,
//   also when other interests are ticked. A value is never a substring: 'Pro' does not match 'Pro Plus'.
// - checkbox: `equals` true (ticked) or false (unticked); only a boolean value fits. Unticked is empty.
// - date: compares `start` (never `end`) with `equals`, `before` and `after`; `less_than` and
//   `greater_than` mean before and after, and the `_or_equal` forms are accepted too. Values are
//   'YYYY-MM-DD' or an ISO date-time with an offset ('Z' or '±HH:MM'). When both sides are date-times
//   the instants are compared; otherwise the days as written (the first 10 characters), so "before
//   2024-05-01" is about the day the visitor picked, in their own time zone.
// - ranking reads as multi_select does (the choices, whatever their order); matrix, files and
//   signature: only `is_empty` and `is_not_empty` apply (a matrix with no row answered, no file).
// - content (headings, paragraphs, images, dividers, page breaks) has no answer: never matches.
// - files: only `is_empty` and `is_not_empty` apply (an answer with no file is empty); every
//   comparison never matches.

export { checkFormRules, checkLogicReferences } from './form-checks.ts'
export {
	type Calculation,
	type Condition,
	type ConditionOperator,
	conditionOperators,
	type FieldEvaluation,
	type FieldLogicState,
	type FormEvaluation,
	type FormLogic,
	type LogicAction,
	type LogicField,
	type LogicProblem,
	type LogicRule,
	logicActions,
} from './form-rule-types.ts'
export { formPages, type PageOfForm }

/** Visibility, requirement and skipping of every field, the path and the calculated values (see the header). */
export function evaluateForm(
	fields: LogicField[],
	rules: LogicRule[],
	answers: Record<string, unknown>,
): FormEvaluation {
	const form = prepare(fields, rules, answers)
	const settled = settle(form)
	const onPath = new Set(settled.path)
	return {
		fields: fieldStates(form, settled, (field, state) => ({
			...state,
			skipped: !onPath.has(form.pageOfField.get(field.id) ?? 0),
		})),
		path: settled.path.map((index) => form.pages[index]?.id ?? endPageId),
		calculated: Object.fromEntries(
			fields
				.filter((field) => field.kind === 'calculated')
				.map((field) => [field.id, settled.calculated.get(field.id) ?? null]),
		),
	}
}

/** Each field's state, by the require and unrequire rules matched once on the settled state. */
function fieldStates<T>(
	form: PreparedForm,
	settled: PassState,
	extend: (field: LogicField, state: FieldLogicState) => T,
): Record<string, T> {
	const required = new Set<string>()
	const unrequired = new Set<string>()
	for (const rule of form.rules) {
		if ((rule.action === 'require' || rule.action === 'unrequire') && ruleMatches(rule, settled)) {
			const set = rule.action === 'require' ? required : unrequired
			for (const id of rule.fieldIds) {
				set.add(id)
			}
		}
	}
	// fromEntries defines own properties, so a field id such as `__proto__` is an ordinary key.
	return Object.fromEntries(
		form.fields.map((field) => {
			const visible = settled.active.has(field.id)
			const isRequired =
				visible && !isContent(field.kind) && !unrequired.has(field.id) && (field.required || required.has(field.id))
			return [field.id, extend(field, { visible, required: isRequired })]
		}),
	)
}

/** Whether each field of the form is visible and required, given the answers so far (see the header). */
export function evaluateLogic(
	fields: LogicField[],
	rules: LogicRule[],
	answers: Record<string, unknown>,
): Record<string, FieldLogicState> {
	const form = prepare(fields, rules, answers)
	return fieldStates(form, settle(form), (_, state) => state)
}

/**
 * Where Next goes from a page, given the answers: the page after it on the path, or `end`. From a
 * page off the path (a visitor's stale state) it is that page's own earliest matching jump or the
 * next page; from an id that is no page, `end`.
 */
export function nextPageId(
	fields: LogicField[],
	rules: LogicRule[],
	answers: Record<string, unknown>,
	fromPageId: string,
): string {
	const form = prepare(fields, rules, answers)
	const settled = settle(form)
	const from = form.pages.find((page) => page.id === fromPageId)
	if (!from) {
		return endPageId
	}
	const at = settled.path.indexOf(from.index)
	let next: number
	if (at >= 0) {
		next = settled.path[at + 1] ?? form.pages.length
	} else {
		next = from.index + 1
		form.jumps.forEach((jump, position) => {
			if (jump.source === from.index && jump.target < next && jumpMatches(form, position, settled)) {
				next = jump.target
			}
		})
	}
	return form.pages[next]?.id ?? endPageId
}

/**
 * The answers the server stores and delivers: those to visible questions on the path, with each
 * calculated field's value in place of anything sent for it. Content, hidden and skipped fields and
 * ids that are no field of the form are dropped, since nothing could have asked for them.
 */
export function visibleAnswers(
	fields: LogicField[],
	rules: LogicRule[],
	answers: Record<string, unknown>,
): Record<string, unknown> {
	const evaluation = evaluateForm(fields, rules, answers)
	const kept: [string, unknown][] = []
	for (const field of fields) {
		if (!evaluation.fields[field.id]?.visible || isContent(field.kind)) {
			continue
		}
		if (field.kind === 'calculated') {
			const value = evaluation.calculated[field.id]
			if (value !== null && value !== undefined) {
				kept.push([field.id, value])
			}
		} else if (Object.hasOwn(answers, field.id)) {
			kept.push([field.id, answers[field.id]])
		}
	}
	return Object.fromEntries(kept)
}

// ---- evaluation ---------------------------------------------------------------------------

/**
 * A condition reduced to what can change while the logic is evaluated: the answers do not, so a
 * condition differs only by whether its field is active or reads as empty, and (for a calculated
 * field) by the value worked out in the pass.
 */
type CompiledCondition = {
	fieldId: string
	ifAnswered: boolean
	ifEmpty: boolean
	/** calculated fields: the test of the value worked out in the pass. */
	test: RawTest | null
	isCalculated: boolean
}
type CompiledRule = Pick<LogicRule, 'match' | 'action'> & { conditions: CompiledCondition[]; fieldIds: string[] }

type PreparedForm = {
	fields: LogicField[]
	pages: PageOfForm[]
	pageOfField: Map<string, number>
	/** Position of each field id in the form. */
	order: Map<string, number>
	kinds: Map<string, FieldKind>
	rules: CompiledRule[]
	/** The jump rules that apply somewhere, and their compiled rules (same positions). */
	jumps: PlacedJump[]
	jumpRules: CompiledRule[]
	answers: Record<string, unknown>
	/** Every field id once, in form order. */
	ids: string[]
	showTargets: Set<string>
	/** The show and hide rules (require and unrequire ones are matched once, after settling). */
	visibilityRules: CompiledRule[]
	hasCalculations: boolean
	/** Compiled `when` conditions of calculations, by their condition object. */
	conditionCache: Map<Condition, CompiledCondition>
}

/** The state of one pass: what reads as answered, what the calculations gave, and the path. */
type PassState = { active: Set<string>; calculated: Map<string, number | null>; path: number[] }

function prepare(fields: LogicField[], rules: LogicRule[], answers: Record<string, unknown>): PreparedForm {
	const order = new Map<string, number>()
	const kinds = new Map<string, FieldKind>()
	fields.forEach((field, position) => {
		if (!order.has(field.id)) {
			order.set(field.id, position)
			kinds.set(field.id, field.kind)
		}
	})
	const pages = formPages(fields)
	const pageOfField = pageIndexByField(pages)
	const compile = (rule: LogicRule): CompiledRule => ({
		match: rule.match,
		action: rule.action,
		conditions: rule.conditions.map((condition) => compileCondition(condition, kinds, answers)),
		fieldIds: rule.fieldIds.filter((id) => kinds.has(id)),
	})
	const jumps: PlacedJump[] = []
	const jumpRules: CompiledRule[] = []
	for (const rule of rules) {
		const jump = placeJump(rule, pages, order, pageOfField)
		if (jump) {
			jumps.push(jump)
			jumpRules.push(compile(rule))
		}
	}
	const compiled = rules.filter((rule) => rule.action !== 'jump').map(compile)
	const visibilityRules = compiled.filter((rule) => rule.action === 'show' || rule.action === 'hide')
	return {
		ids: [...order.keys()],
		showTargets: new Set(visibilityRules.filter((rule) => rule.action === 'show').flatMap((rule) => rule.fieldIds)),
		visibilityRules,
		hasCalculations: fields.some((field) => field.kind === 'calculated'),
		fields,
		pages,
		pageOfField,
		order,
		kinds,
		rules: compiled,
		jumps,
		jumpRules,
		answers,
		conditionCache: new Map(),
	}
}

function compileCondition(
	condition: Condition,
	kinds: Map<string, FieldKind>,
	answers: Record<string, unknown>,
): CompiledCondition {
	const kind = kinds.get(condition.fieldId)
	const test = kind ? conditionTest(kind, condition) : null
	// Own properties only: a missing `constructor` answer must not read Object.prototype's.
	const raw = Object.hasOwn(answers, condition.fieldId) ? answers[condition.fieldId] : undefined
	return {
		fieldId: condition.fieldId,
		ifAnswered: test ? test(raw) : false,
		ifEmpty: test ? test(undefined) : false,
		test,
		isCalculated: kind === 'calculated',
	}
}

function conditionHolds(condition: CompiledCondition, state: Omit<PassState, 'path'>): boolean {
	if (!state.active.has(condition.fieldId)) {
		return condition.ifEmpty
	}
	if (condition.isCalculated) {
		const value = state.calculated.get(condition.fieldId)
		return condition.test ? condition.test(value ?? undefined) : false
	}
	return condition.ifAnswered
}

function ruleMatches(rule: CompiledRule, state: Omit<PassState, 'path'>): boolean {
	const results = rule.conditions.map((condition) => conditionHolds(condition, state))
	return rule.match === 'all' ? results.every(Boolean) : results.some(Boolean)
}

function jumpMatches(form: PreparedForm, position: number, state: Omit<PassState, 'path'>): boolean {
	const rule = form.jumpRules[position]
	return rule ? ruleMatches(rule, state) : false
}

/** The calculated values, in form order, reading only earlier active fields (see "Calculations"). */
function calculateAll(form: PreparedForm, active: Set<string>): Map<string, number | null> {
	const values = new Map<string, number | null>()
	form.fields.forEach((field, position) => {
		if (field.kind !== 'calculated' || values.has(field.id)) {
			return
		}
		if (!active.has(field.id) || !field.calculation) {
			values.set(field.id, null)
			return
		}
		const isEarlier = (id: string) => (form.order.get(id) ?? position) < position
		const state = { active, calculated: values }
		const value = calculate(field.calculation, {
			operand: (id) => {
				const kind = form.kinds.get(id)
				if (!kind || !isNumericKind(kind) || !isEarlier(id)) {
					return undefined
				}
				if (!active.has(id)) {
					return null
				}
				if (kind === 'calculated') {
					return values.get(id) ?? null
				}
				const answer = Object.hasOwn(form.answers, id) ? form.answers[id] : undefined
				return typeof answer === 'number' && Number.isFinite(answer) ? answer : null
			},
			matches: (condition) => {
				let compiled = form.conditionCache.get(condition)
				if (!compiled) {
					compiled = compileCondition(condition, form.kinds, form.answers)
					form.conditionCache.set(condition, compiled)
				}
				// A later field has not been answered yet when this field is worked out: it reads as empty.
				return isEarlier(condition.fieldId) ? conditionHolds(compiled, state) : compiled.ifEmpty
			},
		})
		values.set(field.id, value)
	})
	return values
}

/** One pass: the calculations, the visibility and the path, all read from the previous pass's active fields. */
function pass(form: PreparedForm, active: Set<string>, hiddenForGood: Set<string>): PassState {
	const calculated = form.hasCalculations ? calculateAll(form, active) : new Map<string, number | null>()
	const state = { active, calculated }
	const shown = new Set<string>()
	const hidden = new Set<string>()
	// Every rule reads the same previous pass, so the order of the rules does not matter.
	for (const rule of form.visibilityRules) {
		if (ruleMatches(rule, state)) {
			const set = rule.action === 'show' ? shown : hidden
			for (const id of rule.fieldIds) {
				set.add(id)
			}
		}
	}
	const path = walkPages(form.pages.length, form.jumps, (position) => jumpMatches(form, position, state))
	// Without jumps every page is on the path.
	const onPath = form.jumps.length > 0 ? new Set(path) : null
	const next = new Set<string>()
	for (const id of form.ids) {
		if (
			!hiddenForGood.has(id) &&
			!hidden.has(id) &&
			(shown.has(id) || !form.showTargets.has(id)) &&
			(!onPath || onPath.has(form.pageOfField.get(id) ?? 0))
		) {
			next.add(id)
		}
	}
	return { active: next, calculated, path }
}

/** The settled state (see "Settling" and "Settling with pages and calculations" in the header). */
function settle(form: PreparedForm): PassState {
	const { ids } = form
	const hiddenForGood = new Set<string>()
	let active = new Set(ids.filter((id) => !form.showTargets.has(id)))
	// A chain through every field settles within ids.length passes and the next one confirms it. A round
	// that does not settle hides at least one more field for good, so there are at most ids.length + 1 rounds.
	for (let round = 0; round <= ids.length; round++) {
		for (let index = 0; index <= ids.length; index++) {
			const next = pass(form, active, hiddenForGood)
			if (next.active.size === active.size && [...next.active].every((id) => active.has(id))) {
				return next
			}
			if (index === ids.length) {
				for (const id of ids) {
					if (next.active.has(id) !== active.has(id)) {
						hiddenForGood.add(id)
					}
				}
			}
			active = next.active
		}
	}
	return pass(form, active, hiddenForGood)
}
