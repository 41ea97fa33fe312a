import { screen, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { expect, test, vi } from 'vitest'
import { AppConfigContext } from '#src/app/app-config-context.tsx'
import type { AppConfig } from '#src/lib/app-config.ts'
import { createSessionStore } from '#src/lib/session.ts'
import { SessionProvider } from '#src/lib/session-context.tsx'
import { renderWithUser } from '#src/test/render.tsx'
import { LoginPage } from './login-page.tsx'
import { NotionSignInPage } from './notion-sign-in-page.tsx'
import { RegisterPage } from './register-page.tsx'

// "Continue with Notion" in the web app: offered only when configured, its failures explained on
// /login, and its one-time token traded for the bearer token the session keeps.

const config = (isNotionSignInEnabled: boolean): AppConfig => ({
	analyticsScriptUrl: null,
	sessionRefreshIntervalSeconds: 0,
	isNotionSignInEnabled,
	deletionGraceDays: 30,
})

function renderAt(path: string, isNotionSignInEnabled: boolean, store = createSessionStore()) {
	const router = createMemoryRouter(
		[
			{ path: '/login', element: <LoginPage /> },
			{ path: '/register', element: <RegisterPage /> },
			{ path: '/login/notion', element: <NotionSignInPage /> },
			{ path: '/workspaces', element: <p>Workspaces page</p> },
		],
		{ initialEntries: [path] },
	)
	const result = renderWithUser(
		<AppConfigContext value={config(isNotionSignInEnabled)}>
			<SessionProvider store={store}>
				<RouterProvider router={router} />
			</SessionProvider>
		</AppConfigContext>,
	)
	return { ...result, router, store }
}

function jsonResponse(body: unknown, headers: Record<string, string> = {}, status = 200) {
	return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })
}

test('the Notion button shows on sign-in and sign-up only when the server has Notion OAuth settings', async () => {
	const off = renderAt('/login', false)
	expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument()
	expect(screen.queryByRole('button', { name: /Continue with Notion/ })).not.toBeInTheDocument()
	off.unmount()

	const on = renderAt('/login', true)
	expect(await screen.findByRole('button', { name: /Continue with Notion/ })).toBeInTheDocument()
	on.unmount()
	renderAt('/register', true)
	expect(await screen.findByRole('button', { name: /Continue with Notion/ })).toBeInTheDocument()
})

test('pressing it asks the server for the Notion consent page, with where to come back to', async () => {
	const fetchMock = vi.fn(async () =>
		jsonResponse({ url: 'https://api.notion.com/v1/oauth/authorize?x=1', redirect: false }),
	)
	vi.stubGlobal('fetch', fetchMock)
	const assign = vi.fn()
	vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, assign })
	const { user } = renderAt('/login?next=%2Fworkspaces', true)
	await user.click(await screen.findByRole('button', { name: /Continue with Notion/ }))
	await waitFor(() => expect(assign).toHaveBeenCalledWith('https://api.notion.com/v1/oauth/authorize?x=1'))
	const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
	expect(url).toBe('/api/auth/sign-in/social')
	expect(JSON.parse(String(init.body))).toMatchObject({
		provider: 'notion',
		callbackURL: '/auth/notion/finish?next=%2Fworkspaces',
		errorCallbackURL: '/login',
	})
})

test('a refused consent comes back to /login with a message that says so', async () => {
	renderAt('/login?error=access_denied', true)
	expect(await screen.findByRole('alert')).toHaveTextContent('Notion access was not granted')
})

test('the landing page trades the one-time token for the bearer token, keeps it, and goes on', async () => {
	window.history.replaceState(null, '', '/login/notion?next=%2Fworkspaces#token=one-time-abc')
	const fetchMock = vi.fn(async (url: string) =>
		url === '/api/auth/one-time-token/verify'
			? jsonResponse({}, { 'set-auth-token': 'bearer-xyz' })
			: jsonResponse({ success: true, data: { id: 'u1', email: 'a@example.com', name: 'A', emailVerified: true } }),
	)
	vi.stubGlobal('fetch', fetchMock)
	const { store } = renderAt('/login/notion?next=%2Fworkspaces', true)
	expect(await screen.findByText('Workspaces page')).toBeInTheDocument()
	expect(store.getSnapshot()).toMatchObject({ status: 'authenticated', token: 'bearer-xyz' })
	const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit]
	expect(JSON.parse(String(init.body))).toEqual({ token: 'one-time-abc' })
	// The one-time token is gone from the address bar.
	expect(window.location.hash).toBe('')
})

test('a used or missing one-time token says so, with a way back to sign in', async () => {
	window.history.replaceState(null, '', '/login/notion')
	renderAt('/login/notion', true)
	expect(await screen.findByRole('alert')).toHaveTextContent('expired or was started in another browser')
	expect(screen.getByRole('link', { name: 'Back to sign in' })).toBeInTheDocument()
})
