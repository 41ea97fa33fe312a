import type { AccountDeletionPreview } from '@blocksmith/contracts/data.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { renderApp } from '#src/core/billing/testing.tsx'
import { tokenStorageKey } from '#src/lib/token-store.ts'
import { json, mockApi, problem } from '#src/test/mock-api.tsx'
import DeleteAccountCard from './delete-account.tsx'

// Settings → Profile's "Delete account": the preview, the confirmation, and the way out.

function makePreview(changes: Partial<AccountDeletionPreview> = {}): AccountDeletionPreview {
	return {
		hasPassword: true,
		isRecentSignIn: false,
		blockedBy: [],
		deletesOrganizations: [{ id: 'o1', name: 'Side project' }],
		leavesOrganizations: [{ id: 'o2', name: 'Acme' }],
		...changes,
	}
}

function serve(preview: AccountDeletionPreview, answer: (body: unknown) => Response = () => json({ success: true })) {
	return mockApi(({ method, path, body }) => {
		if (path === '/dashboard/users/delete_account') {
			return method === 'GET' ? json(preview) : answer(body)
		}
		if (path === '/api/auth/sign-out') {
			return json({ success: true })
		}
		return undefined
	})
}

function renderCard() {
	return renderApp([{ path: '/settings', element: <DeleteAccountCard /> }], '/settings')
}

const deletes = (calls: { method: string; path: string; body: unknown }[]) =>
	calls.filter((call) => call.method === 'POST' && call.path === '/dashboard/users/delete_account')

describe('Delete account', () => {
	test('the only owner of a team with others is told which, with a link to Members, and no delete button', async () => {
		serve(makePreview({ blockedBy: [{ id: 'o3', name: 'Globex' }] }))
		renderCard()
		const notice = await screen.findByRole('alert')
		expect(notice).toHaveTextContent('You are the only owner of Globex, which has other members.')
		expect(within(notice).getByRole('link', { name: 'Members' })).toHaveAttribute('href', '/settings?tab=members')
		expect(screen.queryByRole('button', { name: 'Delete account' })).toBeNull()
	})

	test('says what goes with the account and what it leaves; a wrong password shows on the field', async () => {
		const api = serve(makePreview(), () =>
			problem(400, 'VALIDATION', 'The password is not right.', [
				{ field: 'password', message: 'This is not your password.' },
			]),
		)
		const { user, store } = renderCard()
		expect(await screen.findByText('Side project')).toBeInTheDocument()
		expect(screen.getByText(/Deleted with it, as you are their only member/)).toBeInTheDocument()
		expect(screen.getByText('Acme')).toBeInTheDocument()
		expect(screen.getByText(/their data stays with the team/)).toBeInTheDocument()

		await user.click(screen.getByRole('button', { name: 'Delete account' }))
		const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' })
		const confirm = within(dialog).getByRole('button', { name: 'Delete my account' })
		expect(confirm).toBeDisabled()
		const password = within(dialog).getByLabelText('Password')
		await user.type(password, 'wrong-one')
		await user.click(confirm)
		expect(await within(dialog).findByText('This is not your password.')).toBeInTheDocument()
		expect(password).toHaveAttribute('aria-invalid', 'true')
		expect(deletes(api.calls).map((call) => call.body)).toEqual([{ password: 'wrong-one' }])
		// Still signed in: a wrong password is the form's business, not a lost session.
		expect(store.getSnapshot().status).toBe('authenticated')
		expect(window.localStorage.getItem(tokenStorageKey)).toBe('token')
	})

	test('the only owner met at the last moment (SOLE_OWNER) is told what to do', async () => {
		serve(makePreview(), () => problem(409, 'SOLE_OWNER', 'You are the only owner of Globex.'))
		const { user } = renderCard()
		await user.click(await screen.findByRole('button', { name: 'Delete account' }))
		const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' })
		await user.type(within(dialog).getByLabelText('Password'), 'secret-password')
		await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }))
		expect(await within(dialog).findByRole('alert')).toHaveTextContent(
			'You are the only owner of Globex. Make another member an owner first.',
		)
	})

	test('deleted: the stored token is gone, the page is /login, and a toast says so', async () => {
		const api = serve(makePreview())
		const { user, store, router } = renderCard()
		expect(window.localStorage.getItem(tokenStorageKey)).toBe('token')
		await user.click(await screen.findByRole('button', { name: 'Delete account' }))
		const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' })
		await user.type(within(dialog).getByLabelText('Password'), 'secret-password')
		await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
		expect(window.localStorage.getItem(tokenStorageKey)).toBeNull()
		expect(store.getSnapshot().status).toBe('unauthenticated')
		expect(await screen.findByText('Your account was deleted')).toBeInTheDocument()
		expect(deletes(api.calls).map((call) => call.body)).toEqual([{ password: 'secret-password' }])
	})

	test('without a password and no recent sign-in: "Sign in again" signs out and goes to /login', async () => {
		const api = serve(makePreview({ hasPassword: false, isRecentSignIn: false }))
		const { user, router } = renderCard()
		await user.click(await screen.findByRole('button', { name: 'Delete account' }))
		const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' })
		expect(within(dialog).getByText(/needs a sign-in of the last few minutes/)).toBeInTheDocument()
		expect(within(dialog).queryByRole('button', { name: 'Delete my account' })).toBeNull()
		await user.click(within(dialog).getByRole('button', { name: 'Sign in again' }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/login'))
		expect(window.localStorage.getItem(tokenStorageKey)).toBeNull()
		expect(api.calls.some((call) => call.path === '/api/auth/sign-out')).toBe(true)
		expect(deletes(api.calls)).toHaveLength(0)
	})

	test('without a password, freshly signed in: confirmed without one; REAUTHENTICATE asks for a new sign-in', async () => {
		const api = serve(makePreview({ hasPassword: false, isRecentSignIn: true }), () =>
			problem(403, 'REAUTHENTICATE', 'Sign in again to confirm.'),
		)
		const { user } = renderCard()
		await user.click(await screen.findByRole('button', { name: 'Delete account' }))
		const dialog = await screen.findByRole('dialog', { name: 'Delete your account?' })
		expect(within(dialog).queryByLabelText('Password')).toBeNull()
		await user.click(within(dialog).getByRole('button', { name: 'Delete my account' }))
		expect(await within(dialog).findByText(/this needs a recent sign-in/)).toBeInTheDocument()
		expect(within(dialog).getByRole('button', { name: 'Sign in again' })).toBeInTheDocument()
		expect(deletes(api.calls).map((call) => call.body)).toEqual([{}])
	})
})
