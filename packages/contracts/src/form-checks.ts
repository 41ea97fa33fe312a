import { calculationInputs, calculationProblems } from './form-calc.ts'
import { valueProblem } from './form-condition-values.ts'
import type { FieldKind } from './form-kinds.ts'
import { formPages, isContent, jumpProblems, pageIndexByField, placeJump } from './form-pages.ts'
import type { Calculation, LogicProblem, LogicRule } from './form-rule-types.ts'

// The problems a form's rules can have, for the builder (shown on the control) and the server (a 400
// naming the same path). What the rules mean is in the header of form-rules.ts.

type CheckedField = { id: string; kind: FieldKind; calculation?: Calculation | null | undefined }

/**
 * Problems a form's logic has against its fields' ids: a rule that tests or acts on a field not in the
 * form, a comparing operator without a usable value, and a rule that shows or hides a field its own
 * conditions depend on (a loop: see "Settling" in form-rules.ts). `checkFormRules` checks more.
 */
export function checkLogicReferences(fieldIds: string[], rules: LogicRule[]): LogicProblem[] {
	const known = new Set(fieldIds)
	return referenceProblems(known, rules, visibilityDependencies(known, rules, new Map()))
}

/**
 * Every problem of a form's rules, with the kinds and order of its fields: those of
 * `checkLogicReferences` (with loops through jumps and calculations too), and
 * - a condition on content, or a require or unrequire rule acting on content (it has no answer);
 * - a jump without a page to go to, or to a page that is not after the page it leaves, or not in the
 *   form (`logic.N.toPageId`). Loops of jumps cannot be built: jumps only go forward;
 * - a calculated field without a calculation, an operand that is not an earlier numeric question
 *   (`fields.N.calculation.steps.M.operand.fieldId`), a step's condition on a field not in the form or
 *   not earlier (`fields.N.calculation.steps.M.when.K.fieldId`).
 */
export function checkFormRules(fields: CheckedField[], rules: LogicRule[]): LogicProblem[] {
	const known = new Set(fields.map((field) => field.id))
	const kinds = new Map(fields.map((field) => [field.id, field.kind]))
	const problems = referenceProblems(
		known,
		rules,
		visibilityDependencies(known, rules, extraDependencies(fields, rules)),
	)
	rules.forEach((rule, r) => {
		rule.conditions.forEach((condition, c) => {
			const kind = kinds.get(condition.fieldId)
			if (kind && isContent(kind)) {
				problems.push({
					path: `logic.${r}.conditions.${c}.fieldId`,
					message: 'Content has no answer to test: pick a question.',
				})
			}
		})
		if (rule.action === 'require' || rule.action === 'unrequire') {
			rule.fieldIds.forEach((id, f) => {
				const kind = kinds.get(id)
				if (kind && isContent(kind)) {
					problems.push({
						path: `logic.${r}.fieldIds.${f}`,
						message: 'Content has no answer to require: pick a question.',
					})
				}
			})
		}
	})
	return [...problems, ...jumpProblems(fields, rules), ...calculationProblems(fields)]
}

function referenceProblems(
	known: Set<string>,
	rules: LogicRule[],
	dependsOn: (fieldId: string) => Set<string>,
): LogicProblem[] {
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
		if (rule.action === 'jump') {
			// A jump acts on a page, not on fields: any it lists are ignored.
			return
		}
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

/**
 * What else a field's value depends on besides show and hide rules: a calculated field on its inputs,
 * and a field a jump may skip (on a page between the jump's page and its target) on the jump's conditions.
 */
function extraDependencies(fields: CheckedField[], rules: LogicRule[]): Map<string, Set<string>> {
	const extra = calculationInputs(fields)
	const pages = formPages(fields)
	const order = new Map(fields.map((field, position) => [field.id, position]))
	const pageOfField = pageIndexByField(pages)
	for (const rule of rules) {
		const jump = placeJump(rule, pages, order, pageOfField)
		if (!jump) {
			continue
		}
		for (const page of pages.slice(jump.source + 1, jump.target)) {
			for (const id of page.fieldIds) {
				const set = extra.get(id) ?? new Set<string>()
				for (const condition of rule.conditions) {
					set.add(condition.fieldId)
				}
				extra.set(id, set)
			}
		}
	}
	return extra
}

/** For each field, the fields its visibility (or value) depends on, directly or through other rules. */
function visibilityDependencies(
	known: Set<string>,
	rules: LogicRule[],
	extra: Map<string, Set<string>>,
): (fieldId: string) => Set<string> {
	const direct = new Map<string, Set<string>>()
	for (const [id, inputs] of extra) {
		direct.set(id, new Set([...inputs].filter((input) => known.has(input))))
	}
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
