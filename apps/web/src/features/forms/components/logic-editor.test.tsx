import type { LogicRule } from '@blocksmith/contracts/form-rules.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import { screen, within } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, test } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import type { DraftErrors } from '../lib/draft.ts'
import { describeRule } from '../lib/logic.ts'
import { database, makeField } from '../testing.tsx'
import { LogicEditor } from './logic-editor.tsx'

// The logic editor: each rule reads as a sentence, jumps go only to later pages, and content is never
// a condition nor something to require.

const budget = makeField({ id: 'budget', kind: 'number', label: 'Budget' })
const size = makeField({ id: 'size', kind: 'short_text', label: 'Company size' })
const intro = makeField({ id: 'intro', kind: 'heading', label: 'About you' })
const score = makeField({ id: 'score', kind: 'nps', label: 'Recommend us' })
const details = makeField({ id: 'p2', kind: 'page_break', label: 'Details' })
const extra = makeField({ id: 'extra', kind: 'short_text', label: 'Anything else' })
const thanks = makeField({ id: 'p3', kind: 'page_break', label: 'Last words' })
const paged = [intro, budget, size, details, score, thanks, extra]

function Editor({
	fields,
	initial = [],
	errors = {},
}: {
	fields: FormField[]
	initial?: LogicRule[]
	errors?: DraftErrors
}) {
	const [logic, setLogic] = useState(initial)
	return (
		<>
			<LogicEditor logic={logic} fields={fields} properties={database.properties} errors={errors} onChange={setLogic} />
			<output data-testid="logic">{JSON.stringify(logic)}</output>
		</>
	)
}
const saved = (): LogicRule[] => JSON.parse(screen.getByTestId('logic').textContent ?? '[]')

describe('the logic editor', () => {
	test('a rule reads as a sentence as it is built, for the eye and as the rule group’s description', async () => {
		const { user } = renderWithUser(<Editor fields={[budget, size]} />)
		await user.click(screen.getByRole('button', { name: 'Add rule' }))
		const rule = screen.getByRole('group', { name: 'Rule 1' })
		expect(rule).toHaveAccessibleDescription('When Budget is …, show the fields still to pick.')
		await user.selectOptions(
			screen.getByRole('combobox', { name: 'Comparison of condition 1 of rule 1' }),
			'is greater than',
		)
		await user.type(screen.getByRole('spinbutton', { name: 'Value of condition 1 of rule 1' }), '1000')
		await user.click(
			within(screen.getByRole('group', { name: 'Fields to show in rule 1' })).getByRole('checkbox', {
				name: 'Company size',
			}),
		)
		expect(within(rule).getByText('When Budget is greater than 1000, show Company size.')).toBeVisible()
		expect(rule).toHaveAccessibleDescription('When Budget is greater than 1000, show Company size.')
		expect(saved()).toEqual([
			expect.objectContaining({
				action: 'show',
				fieldIds: ['size'],
				conditions: [{ fieldId: 'budget', operator: 'greater_than', value: 1000 }],
			}),
		])
		// The visible words around the controls say the same: "… when all of these match / If …".
		expect(within(rule).getByText('when')).toBeVisible()
		expect(within(rule).getByText('If')).toBeVisible()
	})

	test('sentences join conditions with and / or, and name checkboxes, choices and empty values', () => {
		const fields = [budget, size, makeField({ id: 'news', kind: 'checkbox', label: 'Newsletter' })]
		const rule: LogicRule = {
			id: 'r',
			match: 'any',
			action: 'require',
			fieldIds: ['size', 'gone'],
			conditions: [
				{ fieldId: 'news', operator: 'equals', value: true },
				{ fieldId: 'size', operator: 'is_not_empty' },
				{ fieldId: 'size', operator: 'contains', value: 'Acme' },
			],
		}
		expect(describeRule(rule, fields)).toBe(
			'When Newsletter is ticked, Company size is filled in or Company size contains “Acme”, require Company size and a removed field.',
		)
	})

	test('numbers-like kinds compare as numbers; content is never a condition, nor required, but may be shown', async () => {
		const { user } = renderWithUser(<Editor fields={paged} />)
		await user.click(screen.getByRole('button', { name: 'Add rule' }))
		const fieldChoice = screen.getByRole('combobox', { name: 'Field of condition 1 of rule 1' })
		const options = within(fieldChoice)
			.getAllByRole('option')
			.map((option) => option.textContent)
		expect(options).toEqual(['Budget', 'Company size', 'Recommend us', 'Anything else'])
		await user.selectOptions(fieldChoice, 'Recommend us')
		expect(
			within(screen.getByRole('combobox', { name: 'Comparison of condition 1 of rule 1' }))
				.getAllByRole('option')
				.map((option) => option.textContent),
		).toEqual([
			'is',
			'is not',
			'is greater than',
			'is less than',
			'is at least',
			'is at most',
			'is empty',
			'is filled in',
		])
		const value = screen.getByRole('spinbutton', { name: 'Value of condition 1 of rule 1' })
		expect(value).toHaveAttribute('max', '10')

		// Show may target the heading (not a page break); require only questions.
		const showTargets = within(screen.getByRole('group', { name: 'Fields to show in rule 1' }))
			.getAllByRole('checkbox')
			.map((box) => box.closest('label')?.textContent)
		expect(showTargets).toEqual(['About you', 'Budget', 'Company size', 'Recommend us', 'Anything else'])
		await user.click(screen.getByRole('checkbox', { name: 'About you' }))
		await user.selectOptions(screen.getByRole('combobox', { name: 'Action of rule 1' }), 'Require')
		const requireTargets = within(screen.getByRole('group', { name: 'Fields to require in rule 1' }))
			.getAllByRole('checkbox')
			.map((box) => box.closest('label')?.textContent)
		expect(requireTargets).toEqual(['Budget', 'Company size', 'Recommend us', 'Anything else'])
		// Switching to require drops the heading it can no longer act on.
		expect(saved()[0]?.fieldIds).toEqual([])
	})

	test('a jump picks a later page by its label, or the end, and is offered only on a paged form', async () => {
		const { user, unmount } = renderWithUser(<Editor fields={[budget, size]} />)
		await user.click(screen.getByRole('button', { name: 'Add rule' }))
		expect(
			within(screen.getByRole('combobox', { name: 'Action of rule 1' }))
				.getAllByRole('option')
				.map((option) => option.textContent),
		).toEqual(['Show', 'Hide', 'Require', 'Make optional'])
		unmount()

		const { user: next } = renderWithUser(<Editor fields={paged} />)
		await next.click(screen.getByRole('button', { name: 'Add rule' }))
		await next.selectOptions(screen.getByRole('combobox', { name: 'Action of rule 1' }), 'Jump to page')
		// The condition is on Budget (page 1): pages 2 and 3, or the end.
		const page = screen.getByRole('combobox', { name: 'Page rule 1 jumps to' })
		expect(
			within(page)
				.getAllByRole('option')
				.map((option) => option.textContent),
		).toEqual(['Page 2: Details', 'Page 3: Last words', 'the end (submit)'])
		expect(screen.queryByRole('group', { name: /Fields to/ })).toBeNull()
		await next.selectOptions(page, 'Page 3: Last words')
		expect(saved()[0]).toMatchObject({ action: 'jump', fieldIds: [], toPageId: 'p3' })
		expect(screen.getByRole('group', { name: 'Rule 1' })).toHaveAccessibleDescription(
			'When Budget is …, jump to Page 3: Last words.',
		)
		// A condition on page 2 leaves page 2: only page 3 and the end remain.
		await next.selectOptions(screen.getByRole('combobox', { name: 'Field of condition 1 of rule 1' }), 'Recommend us')
		expect(
			within(page)
				.getAllByRole('option')
				.map((option) => option.textContent),
		).toEqual(['Page 3: Last words', 'the end (submit)'])
		// Back to a show rule: no page left behind.
		await next.selectOptions(screen.getByRole('combobox', { name: 'Action of rule 1' }), 'Show')
		expect(saved()[0]).not.toHaveProperty('toPageId')
	})

	test('a jump whose page is no longer after its conditions says so, and a server problem shows on the page', () => {
		const rule: LogicRule = {
			id: 'r',
			match: 'all',
			action: 'jump',
			fieldIds: [],
			toPageId: 'p2',
			conditions: [{ fieldId: 'extra', operator: 'is_empty' }],
		}
		renderWithUser(<Editor fields={paged} initial={[rule]} errors={{ 'logic.0.toPageId': 'Jump to a later page.' }} />)
		const page = screen.getByRole('combobox', { name: 'Page rule 1 jumps to' })
		expect(page).toHaveDisplayValue('A page no longer after this one')
		expect(page).toHaveAccessibleDescription('Jump to a later page.')
	})
})
