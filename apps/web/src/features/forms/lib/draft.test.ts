import { describe, expect, test } from 'vitest'
import { database, makeField, makeForm } from '../testing.tsx'
import {
	changesOf,
	draftFromForm,
	firstFieldWithError,
	isSameDraft,
	newContent,
	newField,
	newQuestion,
	pageNumbers,
	previewForm,
	reindexErrors,
	switchKind,
	unusedProperties,
	validateDraft,
} from './draft.ts'
import { operatorsFor } from './logic.ts'

describe('the draft', () => {
	test('compares by content and sends the password only when it changes', () => {
		const draft = draftFromForm(makeForm())
		const { extras, ...page } = draft.page
		const reordered = { ...draft, page: { extras, ...page } }
		expect(isSameDraft(draft, reordered)).toBe(true)
		expect(isSameDraft(draft, { ...draft, name: 'Other' })).toBe(false)
		expect(changesOf(draft)).not.toHaveProperty('password')
		expect(changesOf({ ...draft, password: null })).toHaveProperty('password', null)
		expect(isSameDraft(draft, { ...draft, password: 'secret' })).toBe(false)
	})

	test('is checked with the contract’s own rules, with friendlier words', () => {
		const draft = draftFromForm(makeForm())
		const errors = validateDraft({
			...draft,
			name: ' ',
			password: 'abc',
			fields: draft.fields.map((field, index) => (index === 2 ? { ...field, label: '' } : field)),
		})
		expect(errors).toEqual({
			name: 'Give the form a name.',
			password: 'Use at least 4 characters.',
			'fields.2.label': 'Give the field a label.',
		})
		expect(firstFieldWithError(errors)).toBe(2)
		expect(validateDraft(draft)).toEqual({})
	})

	test('errors follow their field when fields move or go', () => {
		const fields = makeForm().fields
		const [a, , c] = fields
		const errors = { 'fields.0.label': 'A', 'fields.2.defaultValue': 'C', name: 'N' }
		expect(
			reindexErrors(
				errors,
				fields,
				[c, a].filter((field) => field !== undefined),
			),
		).toEqual({
			'fields.1.label': 'A',
			'fields.0.defaultValue': 'C',
			name: 'N',
		})
	})

	test('offers only askable properties without a field', () => {
		const form = makeForm()
		expect(unusedProperties(database.properties, form.fields).map((property) => property.id)).toEqual(['notes', 'due'])
	})

	test('carries logic, limits, notifications, redirects and hidden fields into the PATCH body', () => {
		const form = makeForm()
		const draft = draftFromForm(form)
		const rule = {
			id: 'r1',
			match: 'all' as const,
			action: 'show' as const,
			fieldIds: ['fc'],
			conditions: [{ fieldId: 'fb', operator: 'is_not_empty' as const }],
		}
		const edited = {
			...draft,
			logic: [rule],
			redirectUrl: 'https://example.com/thanks',
			redirectWithAnswers: true,
			limits: { ...draft.limits, maxSubmissions: 10, oneResponsePer: 'browser' as const },
			notifications: { ...draft.notifications, memberIds: ['u1'] },
			fields: draft.fields.map((field, index) => (index === 2 ? { ...field, hidden: true, param: 'stage' } : field)),
		}
		expect(isSameDraft(draft, edited)).toBe(false)
		expect(changesOf(edited)).toMatchObject({
			logic: [rule],
			redirectUrl: 'https://example.com/thanks',
			redirectWithAnswers: true,
			limits: { maxSubmissions: 10, oneResponsePer: 'browser', timeZone: 'UTC' },
			notifications: { memberIds: ['u1'], respondent: { enabled: false } },
		})
		expect(changesOf(edited).fields?.[2]).toMatchObject({ hidden: true, param: 'stage' })
		expect(validateDraft(edited)).toEqual({})
		// The form itself is not changed by editing its draft.
		expect(form.limits.maxSubmissions).toBeNull()
		const preview = previewForm(form, edited, database.properties, {
			pageThumbnail: null,
			favicon: null,
			logo: null,
			cover: null,
		})
		expect(preview).toMatchObject({ logic: [rule], oneResponsePer: 'browser' })
	})

	test('checks the new settings before sending', () => {
		const draft = draftFromForm(makeForm())
		expect(
			validateDraft({
				...draft,
				redirectUrl: 'ftp://example.com',
				limits: { ...draft.limits, limitReachedMessage: ' ' },
				notifications: { ...draft.notifications, respondent: { ...draft.notifications.respondent, replyTo: 'nope' } },
			}),
		).toEqual({
			redirectUrl: 'Enter a web address starting with https://.',
			'limits.limitReachedMessage': 'Write what visitors read once the form is full.',
			'notifications.respondent.replyTo': 'Enter an e-mail address, or leave it empty.',
		})
	})

	test('refuses rules on fields that are gone, and rules that hide what they depend on', () => {
		const draft = draftFromForm(makeForm())
		const rule = {
			id: 'r1',
			match: 'all' as const,
			action: 'hide' as const,
			fieldIds: ['fb'],
			conditions: [
				{ fieldId: 'gone', operator: 'is_empty' as const },
				{ fieldId: 'fb', operator: 'is_empty' as const },
			],
		}
		expect(validateDraft({ ...draft, logic: [rule] })).toEqual({
			'logic.0.conditions.0.fieldId': 'This field is not in the form.',
			'logic.0.fieldIds.0':
				'The rule shows or hides a field that its own conditions depend on (directly or through other rules).',
		})
	})

	test('previews with the property’s choices and no password or render token', () => {
		const form = makeForm({ hasPassword: true })
		const preview = previewForm(form, draftFromForm(form), database.properties, {
			pageThumbnail: null,
			favicon: null,
			logo: null,
			cover: null,
		})
		expect(preview.fields?.[2]).toMatchObject({ kind: 'select', options: ['New', 'Won'], relationDatabaseId: null })
		expect(preview).toMatchObject({ passwordRequired: false, renderToken: '', pageTitle: 'Lead form' })
	})
})

describe('new items', () => {
	const images = { pageThumbnail: null, favicon: null, logo: null, cover: null }

	test('are made by the contract, so they pass its checks as they are', () => {
		const form = makeForm()
		const draft = draftFromForm(form)
		const fields = [
			...draft.fields,
			newField({ id: 'notes', name: 'Notes', type: 'rich_text', description: 'What else?' }),
			newQuestion('nps'),
			newQuestion('matrix', '  Grid  '),
			newQuestion('calculated'),
			newContent('heading'),
			newContent('paragraph'),
			newContent('divider'),
			newContent('page_break'),
		]
		expect(validateDraft({ ...draft, fields })).toEqual({})
		expect(fields[3]).toMatchObject({
			propertyId: 'notes',
			kind: 'short_text',
			helpText: 'What else?',
			choiceScope: { mode: 'all' },
		})
		expect(fields[4]).toMatchObject({
			propertyId: null,
			kind: 'nps',
			label: 'Net Promoter Score',
			scale: { min: 0, max: 10 },
		})
		expect(fields[5]).toMatchObject({ label: 'Grid', matrix: { columns: ['Column 1', 'Column 2', 'Column 3'] } })
		expect(fields[7]).toMatchObject({ kind: 'heading', propertyId: null, required: false })
		expect(pageNumbers(fields)).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2])
	})

	test('switching kinds brings the new kind’s settings and drops the old one’s', () => {
		const ranking = newQuestion('ranking')
		expect(switchKind(ranking, 'rating')).toMatchObject({ kind: 'rating', choices: null, scale: { min: 1, max: 5 } })
		// Ranking a multi-select property ranks its options; ranking a text property, its own choices.
		const tags = newField({ id: 'tags', name: 'Tags', type: 'multi_select' })
		expect(switchKind(tags, 'ranking', { type: 'multi_select' })).toMatchObject({ kind: 'ranking', choices: null })
		const notes = newField({ id: 'notes', name: 'Notes', type: 'rich_text' })
		expect(switchKind(notes, 'ranking', { type: 'rich_text' }).choices).toHaveLength(3)
		const score = newField({ id: 'score', name: 'Score', type: 'number' })
		expect(switchKind({ ...score, defaultValue: 3 }, 'calculated')).toMatchObject({
			kind: 'calculated',
			defaultValue: null,
			required: false,
			calculation: { start: '0', steps: [] },
		})
	})

	test('the preview gives an unbound question its own choices, a scope only as searchOnly, an image its address', () => {
		const form = makeForm()
		const draft = draftFromForm(form)
		const fields = [
			makeField({ id: 'c', kind: 'select', label: 'Pick', choices: ['X', 'Y'] }),
			makeField({ id: 'p', kind: 'people', label: 'Who', propertyId: 'owner', choiceScope: { mode: 'search' } }),
			makeField({ id: 'i', kind: 'image', label: 'Team', image: { url: 'https://example.com/a.png' } }),
		]
		const preview = previewForm(form, { ...draft, fields }, database.properties, images, {
			i: 'https://example.com/a.png',
		})
		expect(preview.fields?.[0]).toMatchObject({ options: ['X', 'Y'] })
		expect(preview.fields?.[1]).toMatchObject({ searchOnly: true })
		expect(preview.fields?.[1]).not.toHaveProperty('choiceScope')
		expect(preview.fields?.[2]).toMatchObject({ imageUrl: 'https://example.com/a.png' })
		expect(preview.layout).toEqual({ display: 'classic', showProgress: true })
	})
})

describe('the rule editor’s comparisons', () => {
	test('offer only what means something for the field’s kind', () => {
		expect(operatorsFor('checkbox')).toEqual(['equals'])
		expect(operatorsFor('date')).toEqual(['equals', 'before', 'after', 'is_empty', 'is_not_empty'])
		expect(operatorsFor('number')).not.toContain('contains')
		expect(operatorsFor('multi_select')).toEqual(['contains', 'not_contains', 'is_empty', 'is_not_empty'])
		expect(operatorsFor('people')).toEqual(['is_empty', 'is_not_empty'])
	})
})
