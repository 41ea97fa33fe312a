import { fieldKindsFor } from '@blocksmith/contracts/forms.ts'
import { propertyTypeSchema } from '@blocksmith/contracts/workspaces.ts'
import { describe, expect, test } from 'vitest'
import { canDeleteForm, canManageWebhooks, isAskedByDefault } from './forms.policy.ts'

describe('form policy', () => {
	test('owners and admins delete forms; members do not', () => {
		expect(canDeleteForm('owner')).toBe(true)
		expect(canDeleteForm('admin')).toBe(true)
		expect(canDeleteForm('member')).toBe(false)
	})

	test('owners and admins manage webhooks; members do not', () => {
		expect(canManageWebhooks('owner')).toBe(true)
		expect(canManageWebhooks('admin')).toBe(true)
		expect(canManageWebhooks('member')).toBe(false)
	})

	test('a new form asks the plain inputs; relation, people and status are the owner’s to add', () => {
		const askable = propertyTypeSchema.options.filter((type) => fieldKindsFor(type).length > 0)
		expect(askable.filter(isAskedByDefault).sort()).toEqual(
			[
				'checkbox',
				'date',
				'email',
				'files',
				'multi_select',
				'number',
				'phone_number',
				'rich_text',
				'select',
				'title',
				'url',
			].sort(),
		)
		expect(askable.filter((type) => !isAskedByDefault(type)).sort()).toEqual(['people', 'relation', 'status'])
	})
})
