import type { FieldKind } from './form-kinds.ts'

// Conditional logic for forms: rules that show, hide, require or unrequire fields depending on the
// answers. This one module runs in the browser (to show and hide fields as the visitor types) and on
// the server (to validate: a hidden field is never required and never stored), so the two always
// agree. It uses only the language itself: no Node, DOM or Intl APIs.
//
// Rules
// - A field that any `show` rule targets is hidden unless one of those rules matches ("show X when …"
//   means hidden otherwise, as in Tally). A field that no `show` rule targets is visible.
// - A matching `hide` rule hides its fields; hide wins when a show rule matches too.
// - Required starts as the field's own `required`; a matching `require` rule makes it required and a
//   matching `unrequire` rule optional (unrequire wins). A hidden field is never required.
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
//   stored. `checkLogicReferences` reports such loops so that the builder can refuse them.
// - `require` and `unrequire` rules do not change visibility, so they are matched once, on the
//   settled visibility.
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
// - number: `equals`, `greater_than`, `less_than`, `greater_or_equal`, `less_or_equal`, numerically.
//   A string value is read as a decimal number ('1.5', '-2', '1e3'); any other string never matches.
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
// - files: only `is_empty` and `is_not_empty` apply (an answer with no file is empty); every
//   comparison never matches.
// - `before` and `after` apply to dates only; `contains` never applies to numbers, dates or checkboxes.

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
export type LogicField = { id: string; kind: FieldKind; required: boolean }
export type FieldLogicState = { visible: boolean; required: boolean }
/** A problem in a form's logic; `path` is a dotted path such as `logic.3.conditions.0.fieldId`. */
export type LogicProblem = { path: string; message: string }

/** Whether each field of the form is visible and required, given the answers so far (see the header). */
export function evaluateLogic(
	fields: LogicField[],
	rules: LogicRule[],
	answers: Record<string, unknown>,
): Record<string, FieldLogicState> {
	const fieldsById = new Map(fields.map((field) => [field.id, field]))
	const compiled = rules.map((rule) => compileRule(rule, fieldsById, answers))
	const visible = settleVisibility(
		fields,
		compiled.filter((rule) => rule.action === 'show' || rule.action === 'hide'),
	)
	const required = new Set<string>()
	const unrequired = new Set<string>()
	for (const rule of compiled) {
		if ((rule.action === 'require' || rule.action === 'unrequire') && ruleMatches(rule, visible)) {
			const set = rule.action === 'require' ? required : unrequired
			for (const id of rule.fieldIds) {
				set.add(id)
			}
		}
	}
	// fromEntries defines own properties, so a field id such as `__proto__` is an ordinary key.
	return Object.fromEntries(
		fields.map((field) => {
			const isVisible = visible.has(field.id)
			const isRequired = isVisible && !unrequired.has(field.id) && (field.required || required.has(field.id))
			return [field.id, { visible: isVisible, required: isRequired }]
		}),
	)
}

/**
 * The answers to the visible fields: what the server stores and delivers. Answers to ids that are no
 * field of the form are dropped too, since nothing could have asked for them.
 */
export function visibleAnswers(
	fields: LogicField[],
	rules: LogicRule[],
	answers: Record<string, unknown>,
): Record<string, unknown> {
	const states = evaluateLogic(fields, rules, answers)
	return Object.fromEntries(
		fields
			.filter((field) => states[field.id]?.visible && Object.hasOwn(answers, field.id))
			.map((field) => [field.id, answers[field.id]]),
	)
}

/**
 * Problems a form's logic has against its fields, for the builder and for a 400 from the server:
 * a rule that tests or acts on a field not in the form, a comparing operator without a usable value,
 * and a rule that shows or hides a field its own conditions depend on (a loop: see "Settling" above).
 */
export function checkLogicReferences(fieldIds: string[], rules: LogicRule[]): LogicProblem[] {
	const known = new Set(fieldIds)
	const dependsOn = visibilityDependencies(known, rules)
	const problems: LogicProblem[] = []
	rules.forEach((rule, r) => {
		rule.conditions.forEach((condition, c) => {
			if (!known.has(condition.fieldId)) {
				problems.push({ path: `logic.${r}.conditions.${c}.fieldId`, message: 'This field is not in the form.' })
			}
			const message = valueProblem(condition)
			if (message) {
				problems.push({ path: `logic.${r}.conditions.${c}.value`, message })
			}
		})
		rule.fieldIds.forEach((id, f) => {
			if (!known.has(id)) {
				problems.push({ path: `logic.${r}.fieldIds.${f}`, message: 'This field is not in the form.' })
			} else if (
				(rule.action === 'show' || rule.action === 'hide') &&
				rule.conditions.some((condition) => dependsOn(condition.fieldId).has(id))
			) {
				problems.push({
					path: `logic.${r}.fieldIds.${f}`,
					message:
						'The rule shows or hides a field that its own conditions depend on (directly or through other rules).',
				})
			}
		})
	})
	return problems
}

// ---- schema helpers -----------------------------------------------------------------------

/** Why a condition's value cannot be compared with, or null when it can (or needs none). */
export function valueProblem(condition: { operator: ConditionOperator; value?: unknown }): string | null {
	const { operator, value } = condition
	if (operator === 'is_empty' || operator === 'is_not_empty') {
		return null
	}
	if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
		return 'Enter a value to compare with.'
	}
	if ((operator === 'before' || operator === 'after') && (typeof value !== 'string' || !parseDate(value.trim()))) {
		return 'Enter a date as YYYY-MM-DD.'
	}
	return null
}

/** For each field, the fields its visibility depends on, directly or through other show and hide rules. */
function visibilityDependencies(known: Set<string>, rules: LogicRule[]): (fieldId: string) => Set<string> {
	const direct = new Map<string, Set<string>>()
	for (const rule of rules) {
		if (rule.action !== 'show' && rule.action !== 'hide') {
			continue
		}
		for (const target of rule.fieldIds) {
			for (const condition of rule.conditions) {
				if (known.has(target) && known.has(condition.fieldId)) {
					const set = direct.get(target) ?? new Set<string>()
					set.add(condition.fieldId)
					direct.set(target, set)
				}
			}
		}
	}
	const memo = new Map<string, Set<string>>()
	// A condition's field is a dependency itself: its value decides the condition.
	return (fieldId) => {
		let reached = memo.get(fieldId)
		if (!reached) {
			reached = new Set([fieldId])
			const stack = [fieldId]
			for (let id = stack.pop(); id !== undefined; id = stack.pop()) {
				for (const next of direct.get(id) ?? []) {
					if (!reached.has(next)) {
						reached.add(next)
						stack.push(next)
					}
				}
			}
			memo.set(fieldId, reached)
		}
		return reached
	}
}

// ---- evaluation ---------------------------------------------------------------------------

/**
 * A condition reduced to its two possible outcomes. The answers do not change while the logic is
 * evaluated, so a condition can only differ by whether its field is visible or hidden (read as empty).
 */
type CompiledCondition = { fieldId: string; ifVisible: boolean; ifHidden: boolean }
type CompiledRule = Pick<LogicRule, 'match' | 'action'> & { conditions: CompiledCondition[]; fieldIds: string[] }

function compileRule(rule: LogicRule, fieldsById: Map<string, LogicField>, answers: Record<string, unknown>) {
	return {
		match: rule.match,
		action: rule.action,
		conditions: rule.conditions.map((condition) => compileCondition(condition, fieldsById, answers)),
		fieldIds: rule.fieldIds.filter((id) => fieldsById.has(id)),
	} satisfies CompiledRule
}

function compileCondition(
	condition: Condition,
	fieldsById: Map<string, LogicField>,
	answers: Record<string, unknown>,
): CompiledCondition {
	const field = fieldsById.get(condition.fieldId)
	if (!field) {
		return { fieldId: condition.fieldId, ifVisible: false, ifHidden: false }
	}
	// Own properties only: a missing `constructor` answer must not read Object.prototype's.
	const raw = Object.hasOwn(answers, field.id) ? answers[field.id] : undefined
	return { fieldId: field.id, ...outcomesFor(field.kind, condition, raw) }
}

function ruleMatches(rule: CompiledRule, visible: Set<string>): boolean {
	const results = rule.conditions.map((condition) =>
		visible.has(condition.fieldId) ? condition.ifVisible : condition.ifHidden,
	)
	return rule.match === 'all' ? results.every(Boolean) : results.some(Boolean)
}

/** The settled set of visible field ids (see "Settling" in the header). */
function settleVisibility(fields: LogicField[], rules: CompiledRule[]): Set<string> {
	const ids = fields.map((field) => field.id)
	const showTargets = new Set(rules.filter((rule) => rule.action === 'show').flatMap((rule) => rule.fieldIds))
	const hiddenForGood = new Set<string>()
	// Every rule reads the same previous pass, so the order of the rules does not matter.
	const pass = (visible: Set<string>): Set<string> => {
		const shown = new Set<string>()
		const hidden = new Set<string>()
		for (const rule of rules) {
			if (ruleMatches(rule, visible)) {
				const set = rule.action === 'show' ? shown : hidden
				for (const id of rule.fieldIds) {
					set.add(id)
				}
			}
		}
		return new Set(
			ids.filter((id) => !hiddenForGood.has(id) && !hidden.has(id) && (shown.has(id) || !showTargets.has(id))),
		)
	}

	let visible = new Set(ids.filter((id) => !showTargets.has(id)))
	// A chain through every field settles within ids.length passes and the next one confirms it. A round
	// that does not settle hides at least one more field for good, so there are at most ids.length + 1 rounds.
	for (let round = 0; round <= ids.length; round++) {
		for (let index = 0; index <= ids.length; index++) {
			const next = pass(visible)
			if (next.size === visible.size && [...next].every((id) => visible.has(id))) {
				return visible
			}
			if (index === ids.length) {
				for (const id of ids) {
					if (next.has(id) !== visible.has(id)) {
						hiddenForGood.add(id)
					}
				}
			}
			visible = next
		}
	}
	return visible
}

// ---- operators by value shape -------------------------------------------------------------

type ConditionValue = Condition['value']
/** The operators a shape implements itself; the negations and emptiness are derived. */
type Comparison = Exclude<ConditionOperator, 'not_equals' | 'not_contains' | 'is_empty' | 'is_not_empty'>
type Test<T> = (answer: T) => boolean

/** How the answers of some field kinds are read and compared. */
type Shape<T> = {
	/** The answer as compared; undefined and answers of another shape read as empty. */
	read: (raw: unknown) => T
	isEmpty: (answer: T) => boolean
	/** The test for a comparison, or null when it does not apply to the shape or the value does not fit. */
	compare: (operator: Comparison, value: ConditionValue) => Test<T> | null
}

function outcomes<T>(shape: Shape<T>, condition: Condition, raw: unknown): { ifVisible: boolean; ifHidden: boolean } {
	const test = testFor(shape, condition)
	if (!test) {
		return { ifVisible: false, ifHidden: false }
	}
	return { ifVisible: test(shape.read(raw)), ifHidden: test(shape.read(undefined)) }
}

function testFor<T>(shape: Shape<T>, condition: Condition): Test<T> | null {
	switch (condition.operator) {
		case 'is_empty':
			return shape.isEmpty
		case 'is_not_empty':
			return negate(shape.isEmpty)
		case 'not_equals':
			return negate(shape.compare('equals', condition.value))
		case 'not_contains':
			return negate(shape.compare('contains', condition.value))
		default:
			return shape.compare(condition.operator, condition.value)
	}
}

function negate<T>(test: Test<T> | null): Test<T> | null {
	return test && ((answer) => !test(answer))
}

function outcomesFor(kind: FieldKind, condition: Condition, raw: unknown): { ifVisible: boolean; ifHidden: boolean } {
	switch (kind) {
		case 'short_text':
		case 'long_text':
		case 'url':
		case 'email':
		case 'phone':
			return outcomes(textShape, condition, raw)
		case 'number':
		case 'rating':
		case 'scale':
		case 'nps':
		case 'calculated':
			return outcomes(numberShape, condition, raw)
		case 'ranking':
			return outcomes(optionsShape, condition, raw)
		case 'matrix':
			return outcomes(matrixShape, condition, raw)
		case 'select':
		case 'status':
			return outcomes(optionShape, condition, raw)
		case 'multi_select':
			return outcomes(optionsShape, condition, raw)
		case 'people':
		case 'relation':
			return outcomes(idsShape, condition, raw)
		case 'checkbox':
			return outcomes(checkboxShape, condition, raw)
		case 'date':
			return outcomes(dateShape, condition, raw)
		case 'files':
		case 'signature':
			return outcomes(filesShape, condition, raw)
		case 'heading':
		case 'paragraph':
		case 'image':
		case 'divider':
		case 'page_break':
			// Content has no answer: a condition on it never matches.
			return { ifVisible: false, ifHidden: false }
	}
}

const normalizeText = (text: string) => text.trim().toLowerCase()
const trimId = (text: string) => text.trim()

/** A string or number value as normalized text, or null when it is neither or blank. */
function textValue(value: ConditionValue, normalize: (text: string) => string): string | null {
	const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : null
	const normalized = text === null ? '' : normalize(text)
	return normalized === '' ? null : normalized
}

const textShape: Shape<string> = {
	read: (raw) => (typeof raw === 'string' ? normalizeText(raw) : ''),
	isEmpty: (answer) => answer === '',
	compare: (operator, value) => {
		const wanted = textValue(value, normalizeText)
		if (wanted === null) {
			return null
		}
		if (operator === 'equals') {
			return (answer) => answer === wanted
		}
		if (operator === 'contains') {
			return (answer) => answer.includes(wanted)
		}
		return null
	},
}

// Plain decimals only: Number() alone would also take '0x10', 'Infinity' and ' '.
const decimalPattern = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i

function numberValue(value: ConditionValue): number | null {
	if (typeof value === 'number') {
		return Number.isFinite(value) ? value : null
	}
	if (typeof value === 'string' && decimalPattern.test(value.trim())) {
		const parsed = Number(value.trim())
		return Number.isFinite(parsed) ? parsed : null
	}
	return null
}

const numberShape: Shape<number | null> = {
	read: (raw) => (typeof raw === 'number' && Number.isFinite(raw) ? raw : null),
	isEmpty: (answer) => answer === null,
	compare: (operator, value) => {
		const wanted = numberValue(value)
		if (wanted === null) {
			return null
		}
		switch (operator) {
			case 'equals':
				return (answer) => answer === wanted
			case 'greater_than':
				return (answer) => answer !== null && answer > wanted
			case 'less_than':
				return (answer) => answer !== null && answer < wanted
			case 'greater_or_equal':
				return (answer) => answer !== null && answer >= wanted
			case 'less_or_equal':
				return (answer) => answer !== null && answer <= wanted
			default:
				return null
		}
	},
}

/** A choice read as a list; `single` kinds hold one string, the others a list of strings. */
function choiceShape(single: boolean, normalize: (text: string) => string): Shape<string[]> {
	return {
		read: (raw) => {
			const items: unknown[] = single ? [raw] : Array.isArray(raw) ? raw : []
			return items
				.filter((item): item is string => typeof item === 'string')
				.map(normalize)
				.filter((item) => item !== '')
		},
		isEmpty: (answer) => answer.length === 0,
		compare: (operator, value) => {
			const wanted = textValue(value, normalize)
			if (wanted === null || (operator !== 'equals' && operator !== 'contains')) {
				return null
			}
			return (answer) => answer.includes(wanted)
		},
	}
}

const optionShape = choiceShape(true, normalizeText)
const optionsShape = choiceShape(false, normalizeText)
const idsShape = choiceShape(false, trimId)

const checkboxShape: Shape<boolean> = {
	read: (raw) => raw === true,
	isEmpty: (answer) => !answer,
	compare: (operator, value) => {
		if (operator !== 'equals' || typeof value !== 'boolean') {
			return null
		}
		return (answer) => answer === value
	},
}

/** A matrix: only whether any row is answered (its cells are not compared). */
const matrixShape: Shape<number> = {
	read: (raw) =>
		raw && typeof raw === 'object' && !Array.isArray(raw)
			? Object.values(raw).filter((cell) =>
					Array.isArray(cell) ? cell.length > 0 : typeof cell === 'string' && cell !== '',
				).length
			: 0,
	isEmpty: (answer) => answer === 0,
	compare: () => null,
}

/** Uploaded files: only whether there are any (a file has no value to compare with). */
const filesShape: Shape<number> = {
	read: (raw) => (Array.isArray(raw) ? raw.filter((file) => file && typeof file === 'object').length : 0),
	isEmpty: (answer) => answer === 0,
	compare: () => null,
}

/** A day as written (`YYYY-MM-DD`), and the instant in ms when a time and offset came with it. */
type DatePoint = { day: string; instant: number | null }

const dayPattern = /^(\d{4})-(\d{2})-(\d{2})(.*)$/
const timePattern = /^T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:Z|([+-])(\d{2}):(\d{2}))$/

// Parsed by hand rather than with Date.parse, whose handling of anything outside one exact format
// differs between engines; the same string must give the same answer in the browser and on the server.
function parseDate(text: string): DatePoint | null {
	const day = dayPattern.exec(text)
	if (!day) {
		return null
	}
	const [, yearText, monthText, dayText, rest] = day
	const year = Number(yearText)
	const month = Number(monthText)
	const date = Number(dayText)
	if (month < 1 || month > 12 || date < 1 || date > daysInMonth(year, month)) {
		return null
	}
	if (rest === '') {
		return { day: text, instant: null }
	}
	const time = timePattern.exec(rest ?? '')
	if (!time) {
		return null
	}
	const [, hourText, minuteText, secondText, fraction, sign, offsetHourText, offsetMinuteText] = time
	const hour = Number(hourText)
	const minute = Number(minuteText)
	const second = Number(secondText ?? '0')
	const offsetMinutes = Number(offsetHourText ?? '0') * 60 + Number(offsetMinuteText ?? '0')
	if (hour > 23 || minute > 59 || second > 59 || offsetMinutes > 23 * 60 + 59) {
		return null
	}
	const instant = new Date(0)
	// setUTCFullYear, unlike Date.UTC, does not turn years 0–99 into 1900–1999.
	instant.setUTCFullYear(year, month - 1, date)
	instant.setUTCHours(hour, minute, second, Number((fraction ?? '').padEnd(3, '0').slice(0, 3)))
	return { day: text.slice(0, 10), instant: instant.getTime() - (sign === '-' ? -1 : 1) * offsetMinutes * 60_000 }
}

function daysInMonth(year: number, month: number): number {
	if (month === 2) {
		const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0
		return leap ? 29 : 28
	}
	return [4, 6, 9, 11].includes(month) ? 30 : 31
}

/** Instants when both sides have one, otherwise the days as written. */
function compareDates(a: DatePoint, b: DatePoint): number {
	if (a.instant !== null && b.instant !== null) {
		return Math.sign(a.instant - b.instant)
	}
	return a.day < b.day ? -1 : a.day > b.day ? 1 : 0
}

const dateShape: Shape<DatePoint | null> = {
	read: (raw) =>
		typeof raw === 'object' && raw !== null && 'start' in raw && typeof raw.start === 'string'
			? parseDate(raw.start)
			: null,
	isEmpty: (answer) => answer === null,
	compare: (operator, value) => {
		const wanted = typeof value === 'string' ? parseDate(value.trim()) : null
		if (wanted === null) {
			return null
		}
		const test = (accept: (order: number) => boolean): Test<DatePoint | null> => {
			return (answer) => answer !== null && accept(compareDates(answer, wanted))
		}
		switch (operator) {
			case 'equals':
				return test((order) => order === 0)
			case 'before':
			case 'less_than':
				return test((order) => order < 0)
			case 'after':
			case 'greater_than':
				return test((order) => order > 0)
			case 'less_or_equal':
				return test((order) => order <= 0)
			case 'greater_or_equal':
				return test((order) => order >= 0)
			default:
				return null
		}
	},
}
