import { z } from 'zod'
import { valueProblem } from './form-condition-values.ts'
import { type Condition, conditionOperators, type FormLogic, type LogicRule, logicActions } from './form-rule-types.ts'

// The schemas of form rules, for the API and the builder. What the rules mean, and the code that
// runs them (in the browser without zod), is in form-rules.ts.

export const conditionOperatorSchema = z.enum(conditionOperators, { error: 'Pick how to compare.' })

export const logicActionSchema = z.enum(logicActions, {
	error: 'Pick what the rule does: show, hide, require, unrequire or jump.',
})

const fieldIdSchema = z.string({ error: 'Pick a field.' }).min(1, 'Pick a field.').max(64)

export const conditionSchema = z
	.object({
		/** The field whose answer is tested. */
		fieldId: fieldIdSchema,
		operator: conditionOperatorSchema,
		/** What the answer is compared with; `is_empty` and `is_not_empty` ignore it. */
		value: z
			.union([z.string().max(2000, 'Use at most 2000 characters.'), z.number(), z.boolean(), z.null()], {
				error: 'Use text, a number, true or false.',
			})
			.optional(),
	})
	.superRefine((condition, ctx) => {
		const message = valueProblem(condition)
		if (message) {
			ctx.addIssue({ code: 'custom', message, path: ['value'] })
		}
	})

export const logicRuleSchema = z
	.object({
		/** Stable across edits, so that the builder can name the rule in its problems. */
		id: z.string().min(1).max(64),
		match: z.enum(['all', 'any'], { error: 'Pick whether all or any of the conditions must match.' }),
		conditions: z
			.array(conditionSchema)
			.min(1, 'Add at least one condition.')
			.max(20, 'A rule has at most 20 conditions.'),
		action: logicActionSchema,
		/** The fields the action applies to; a jump has none. */
		fieldIds: z.array(fieldIdSchema).max(100, 'A rule acts on at most 100 fields.').default([]),
		/** jump: a later page break's id, or `end` (see form-rules.ts). */
		toPageId: z.string().min(1).max(64).optional(),
	})
	.superRefine((rule, ctx) => {
		if (rule.action === 'jump') {
			if (!rule.toPageId) {
				ctx.addIssue({ code: 'custom', message: 'Pick the page to go to.', path: ['toPageId'] })
			}
		} else if (rule.fieldIds.length === 0) {
			ctx.addIssue({ code: 'custom', message: 'Pick at least one field for the rule to act on.', path: ['fieldIds'] })
		}
	})

export const formLogicSchema = z
	.array(logicRuleSchema)
	.max(100, 'A form has at most 100 rules.')
	.superRefine((rules, ctx) => {
		const seen = new Set<string>()
		rules.forEach((rule, index) => {
			if (seen.has(rule.id)) {
				ctx.addIssue({ code: 'custom', message: 'Another rule has the same id.', path: [index, 'id'] })
			}
			seen.add(rule.id)
		})
	})

// The schemas' output is exactly the hand-written types of form-rule-types.ts.
true satisfies z.infer<typeof conditionSchema> extends Condition ? true : false
true satisfies z.infer<typeof logicRuleSchema> extends LogicRule ? true : false
true satisfies z.infer<typeof formLogicSchema> extends FormLogic ? true : false
