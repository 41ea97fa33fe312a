import { formTemplates, templateQuestions } from '@blocksmith/contracts/form-templates.ts'
import { describe, expect, test } from 'vitest'
import { buildLocalProperties } from '#src/workspaces/properties.ts'
import { validateFieldDefinitions } from './forms.answers.ts'
import { scratchPropertyInputs, templateFields, templatePropertyInputs } from './forms.templates.ts'

// Each template's fields pass the same checks as a builder's save, against the properties it makes
// on a new database, and against a database that has none of them (every question unbound).

describe.each(formTemplates.map((template) => [template.id, template] as const))('%s', (_id, template) => {
	const properties = buildLocalProperties(templatePropertyInputs(template), [], new Set())

	test('on its own new database, every question writes its property', () => {
		const fields = templateFields(template, properties)
		expect(() => validateFieldDefinitions(properties, fields)).not.toThrow()
		const written = fields.flatMap((field) => (field.propertyId ? [field.propertyId] : []))
		expect(written.sort()).toEqual(properties.map((property) => property.id).sort())
		expect(fields.filter((field) => field.propertyId !== null)).toHaveLength(templateQuestions(template).length)
	})

	test('on a database with only a title named otherwise, the questions keep their answers', () => {
		const bare = buildLocalProperties([{ name: 'Entry', type: 'title' }], [], new Set())
		const fields = templateFields(template, bare)
		expect(fields.every((field) => field.propertyId === null)).toBe(true)
		expect(() => validateFieldDefinitions(bare, fields)).not.toThrow()
	})
})

test('from scratch, the database has one title named Name', () => {
	expect(buildLocalProperties(scratchPropertyInputs, [], new Set())).toEqual([
		{ id: 'title', name: 'Name', type: 'title' },
	])
})
