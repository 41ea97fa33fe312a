import type { Role } from '@blocksmith/contracts/teams.ts'
import { screen } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { json, mockApi, renderPage } from '#src/test/mock-api.tsx'
import { makeForm } from '../testing.tsx'
import { FormActionsMenu } from './form-actions.tsx'

// Deleting a form is for owners and admins (the server refuses members with 403): a member sees
// the action disabled with the reason, so never meets the refusal by clicking.

function Menu() {
	return <FormActionsMenu form={makeForm()} isInList />
}

function serverAs(role: Role) {
	return mockApi(({ method, path }) => (method === 'DELETE' && path === '/dashboard/forms/f1' ? json({}) : undefined), {
		role,
	})
}

describe('deleting a form by role', () => {
	test('a member sees Delete disabled, with who can do it, and nothing is sent', async () => {
		const api = serverAs('member')
		const { user } = renderPage(Menu, '/forms', '/forms')
		await user.click(screen.getByRole('button', { name: 'Actions for Lead form' }))
		const item = await screen.findByRole('menuitem', { name: /Delete/ })
		expect(item).toHaveAttribute('aria-disabled', 'true')
		expect(item).toHaveTextContent('Only an owner or admin can delete a form.')
		await user.click(item)
		expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
		expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false)
	})

	test.each(['admin', 'owner'] as const)('an %s deletes after confirming', async (role) => {
		const api = serverAs(role)
		const { user } = renderPage(Menu, '/forms', '/forms')
		await user.click(screen.getByRole('button', { name: 'Actions for Lead form' }))
		const item = await screen.findByRole('menuitem', { name: 'Delete' })
		expect(item).not.toHaveAttribute('aria-disabled')
		await user.click(item)
		await user.click(await screen.findByRole('button', { name: 'Delete form' }))
		expect(api.calls.some((call) => call.method === 'DELETE' && call.path === '/dashboard/forms/f1')).toBe(true)
	})
})
