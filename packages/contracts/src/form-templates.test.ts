import { describe, expect, test } from 'vitest'
import { isContentKind, unboundQuestionKinds } from './form-kinds.ts'
import {
	formTemplate,
	formTemplateIds,
	formTemplates,
	isTemplateQuestion,
	templateFieldInput,
	templatePageCount,
	templateQuestions,
} from './form-templates.ts'
import { fieldKindsByPropertyType, formFieldSchema } from './forms.ts'

describe('form templates', () => {
	test('there is one template per id, in the order of the ids', () => {
		expect(formTemplates.map((template) => template.id)).toEqual([...formTemplateIds])
	})

	test.each(formTemplates.map((template) => [template.id, template] as const))(
		'%s: every item parses as a field, bound or not',
		(_id, template) => {
			template.items.forEach((item, index) => {
				const bound = formFieldSchema.safeParse(
					templateFieldInput(item, `f${index}`, isTemplateQuestion(item) ? 'p' : null),
				)
				expect(bound.error).toBeUndefined()
				const unbound = formFieldSchema.safeParse(templateFieldInput(item, `f${index}`, null))
				expect(unbound.error).toBeUndefined()
				if (isTemplateQuestion(item)) {
					// Unbound, a select keeps its choices itself; a question must be askable without its property.
					expect(unboundQuestionKinds).toContain(item.kind)
					if (item.kind === 'select' || item.kind === 'multi_select') {
						expect(unbound.data?.choices).toEqual(item.choices)
						expect(bound.data?.choices).toBeNull()
					}
				} else {
					expect(isContentKind(item.kind)).toBe(true)
				}
			})
		},
	)

	test.each(formTemplates.map((template) => [template.id, template] as const))(
		'%s: one title, unique property names, and kinds their property types allow',
		(_id, template) => {
			const questions = templateQuestions(template)
			expect(questions.filter((question) => question.property.type === 'title')).toHaveLength(1)
			const names = questions.map((question) => question.property.name.toLowerCase())
			expect(new Set(names).size).toBe(names.length)
			for (const question of questions) {
				expect(fieldKindsByPropertyType[question.property.type]).toContain(question.kind)
				if (question.kind === 'select' || question.kind === 'multi_select') {
					expect(question.choices?.length).toBeGreaterThan(1)
				}
			}
			expect(template.name.length).toBeGreaterThan(0)
			expect(template.description.length).toBeLessThanOrEqual(100)
			expect(template.items[0]?.kind).toBe('heading')
		},
	)

	test('the job application is on three pages; the short forms on one', () => {
		const pages = Object.fromEntries(formTemplates.map((template) => [template.id, templatePageCount(template)]))
		expect(pages).toMatchObject({ job_application: 3, client_onboarding: 2, contact: 1, bug_report: 1 })
	})

	test('the feedback template asks an NPS question and a rating', () => {
		const kinds = templateQuestions(formTemplate('feedback_nps')).map((question) => question.kind)
		expect(kinds).toEqual(expect.arrayContaining(['nps', 'rating']))
	})
})
