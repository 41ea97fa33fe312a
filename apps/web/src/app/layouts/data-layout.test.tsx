import type { User } from '@blocksmith/contracts/auth.ts'
import { useQuery } from '@tanstack/react-query'
import { act, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { expect, test } from 'vitest'
import { createSessionStore } from '#src/lib/session.ts'
import { SessionProvider } from '#src/lib/session-context.tsx'
import { DataLayout } from './data-layout.tsx'

// The data cache across sign-in, sign-out and a change of account.

function user(id: string): User {
	return { id, email: `${id}@example.com`, name: id, emailVerified: true } as User
}

let reads = 0

function Reader() {
	const query = useQuery({
		queryKey: ['public-thing'],
		queryFn: async () => {
			reads++
			return `read ${reads}`
		},
		staleTime: Number.POSITIVE_INFINITY,
	})
	const [renders, setRenders] = useState(0)
	return (
		<button type="button" onClick={() => setRenders(renders + 1)}>
			{query.data ?? 'loading'}
		</button>
	)
}

test('signing in keeps what was read signed out; another account or signing out drops it', async () => {
	const store = createSessionStore()
	const router = createMemoryRouter([{ element: <DataLayout />, children: [{ path: '/', element: <Reader /> }] }])
	render(
		<SessionProvider store={store}>
			<RouterProvider router={router} />
		</SessionProvider>,
	)
	expect(await screen.findByText('read 1')).toBeInTheDocument()

	act(() => store.signIn('token-a', user('a')))
	// Nothing is read again, even once the page renders anew (a click): it keeps its data as the
	// visitor signs in.
	fireEvent.click(screen.getByRole('button'))
	await act(() => new Promise((resolve) => setTimeout(resolve, 20)))
	expect(screen.getByRole('button')).toHaveTextContent('read 1')
	expect(reads).toBe(1)

	act(() => store.signIn('token-b', user('b')))
	expect(await screen.findByText('read 2')).toBeInTheDocument()

	act(() => store.clear())
	expect(await screen.findByText('read 3')).toBeInTheDocument()
})
