import type { PortalRowDetail } from '@blocksmith/contracts/portals.ts'
import { render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { StrictMode } from 'react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sessionKey } from './portal-api.ts'
import { PortalApp } from './portal-app.tsx'
import { takeTokenFromAddress } from './router.tsx'
import { type Call, info, json, me, mockFetch, problem, row, rows } from './testing.ts'

// The visitor app end to end against a stubbed API: the router's paths, the sign-in landing, the
// session, a 401 anywhere, the pages and a row page.

const session = { token: 'member-session-token', expiresAt: new Date(Date.now() + 86_400_000).toISOString() }

function at(path: string) {
	window.history.replaceState(null, '', path)
}

function signedIn() {
	window.localStorage.setItem(sessionKey('acme'), JSON.stringify(session))
}

/** The API as a signed-in member sees it; `overrides` answer first (return undefined to fall through). */
function api(overrides: (call: Call) => Response | undefined = () => undefined) {
	return mockFetch((call) => {
		const answer = overrides(call)
		if (answer) {
			return answer
		}
		const path = call.path.replace('/api/portal/acme', '')
		if (path === '') {
			return json(200, info)
		}
		if (call.authorization !== `Bearer ${session.token}`) {
			return problem(401, 'UNAUTHENTICATED', 'Sign in.')
		}
		if (path === '/me') {
			return json(200, me)
		}
		if (path === '/pages/projects/rows') {
			return json(200, rows())
		}
		if (path === '/auth/sign_out') {
			return json(204, null)
		}
		return problem(404, 'NOT_FOUND', 'Nothing here.')
	})
}

function renderApp(basePath = '/p/acme') {
	return render(
		<StrictMode>
			<PortalApp slug="acme" basePath={basePath} />
		</StrictMode>,
	)
}

beforeEach(() => {
	window.localStorage.clear()
	document.documentElement.removeAttribute('style')
})
afterEach(() => {
	at('/')
})

describe('the portal app', () => {
	it('says there is no portal when the API does not know the slug', async () => {
		at('/p/nope/projects')
		mockFetch(() => problem(404, 'NOT_FOUND', 'There is no portal here.'))
		render(<PortalApp slug="nope" basePath="/p/nope" />)
		expect(await screen.findByRole('heading', { name: 'There is no portal here' })).toBeInTheDocument()
	})

	it('shows the branded sign-in page and the same "check your inbox" whatever the e-mail', async () => {
		at('/p/acme/projects')
		const calls = api((call) => (call.path.endsWith('/auth/magic_link') ? json(202, null) : undefined))
		renderApp()
		expect(await screen.findByRole('heading', { name: 'Sign in to Acme Studio' })).toBeInTheDocument()
		expect(document.title).toBe('Sign in · Acme Studio')
		expect(document.documentElement.style.getPropertyValue('--portal-accent')).toBe('#16a34a')
		expect(document.querySelector('meta[name="theme-color"]')).toHaveAttribute('content', '#16a34a')
		expect(document.documentElement.classList.contains('dark')).toBe(false)
		await userEvent.type(screen.getByLabelText('E-mail'), 'someone@client.example')
		await userEvent.click(screen.getByRole('button', { name: 'Send me a sign-in link' }))
		expect(await screen.findByRole('heading', { name: 'Check your inbox' })).toBeInTheDocument()
		expect(calls.find((call) => call.path === '/api/portal/acme/auth/magic_link')?.body).toEqual({
			email: 'someone@client.example',
		})
	})

	it('verifies a mailed link once, removes its token from the address before, keeps the session and opens the portal', async () => {
		at('/p/acme/sign-in?token=mailed-magic-link-token-0123456789')
		const searchAtVerify: string[] = []
		const calls = api((call) => {
			if (call.path.endsWith('/auth/verify')) {
				searchAtVerify.push(window.location.search)
				return json(200, session)
			}
			return undefined
		})
		renderApp()
		expect(await screen.findByRole('heading', { name: 'Welcome, Ana' })).toBeInTheDocument()
		const verifies = calls.filter((call) => call.path.endsWith('/auth/verify'))
		// Once, even under StrictMode's double effects: a second try would find the link used.
		expect(verifies).toHaveLength(1)
		expect(verifies[0]?.body).toEqual({ token: 'mailed-magic-link-token-0123456789' })
		expect(searchAtVerify).toEqual([''])
		expect(window.location.pathname).toBe('/p/acme/')
		expect(window.location.href).not.toContain('mailed-magic-link-token')
		expect(JSON.parse(window.localStorage.getItem(sessionKey('acme')) ?? 'null')).toEqual(session)
		expect(calls.find((call) => call.path === '/api/portal/acme/me')?.authorization).toBe(`Bearer ${session.token}`)
	})

	it('takes the token out of the address before anything renders or calls the API, then verifies it', async () => {
		at('/p/acme/sign-in?token=mailed-magic-link-token-0123456789&utm=mail')
		const addresses: string[] = []
		const calls = api((call) => {
			addresses.push(window.location.href)
			return call.path.endsWith('/auth/verify') ? json(200, session) : undefined
		})
		const token = takeTokenFromAddress()
		expect(token).toBe('mailed-magic-link-token-0123456789')
		expect(window.location.search).toBe('?utm=mail')
		render(<PortalApp slug="acme" basePath="/p/acme" signInToken={token} />)
		expect(await screen.findByRole('heading', { name: 'Welcome, Ana' })).toBeInTheDocument()
		expect(calls.filter((call) => call.path.endsWith('/auth/verify'))).toHaveLength(1)
		expect(addresses.every((address) => !address.includes('mailed-magic-link-token'))).toBe(true)
		// Signing out later shows the sign-in page, without trying the used link again.
		await userEvent.click(screen.getByRole('button', { name: /Account/ }))
		await userEvent.click(screen.getByRole('button', { name: 'Sign out' }))
		expect(await screen.findByLabelText('E-mail')).toBeInTheDocument()
		expect(calls.filter((call) => call.path.endsWith('/auth/verify'))).toHaveLength(1)
		// Not a sign-in page: nothing is taken.
		at('/p/acme/projects?token=abc')
		expect(takeTokenFromAddress()).toBeNull()
	})

	it('says so when a link is used or expired, and offers a new one', async () => {
		at('/p/acme/sign-in?token=used-magic-link-token-0123456789')
		api((call) =>
			call.path.endsWith('/auth/verify') ? problem(400, 'INVALID_TOKEN', 'This link is not valid.') : undefined,
		)
		renderApp()
		expect(await screen.findByText(/This sign-in link has expired or was already used/)).toBeInTheDocument()
		expect(screen.getByLabelText('E-mail')).toBeInTheDocument()
		expect(window.location.search).toBe('')
		expect(window.localStorage.getItem(sessionKey('acme'))).toBeNull()
	})

	it('does not call a link used when it could not be checked (offline, server error)', async () => {
		at('/p/acme/sign-in?token=good-magic-link-token-0123456789')
		api((call) => (call.path.endsWith('/auth/verify') ? problem(503, 'UNAVAILABLE', 'Try again soon.') : undefined))
		renderApp()
		expect(await screen.findByRole('alert')).toHaveTextContent('Try again soon. Open the link in your e-mail again')
		expect(screen.queryByText(/expired or was already used/)).toBeNull()
		expect(screen.getByLabelText('E-mail')).toBeInTheDocument()
	})

	it('signs in with a password when the portal allows it', async () => {
		at('/p/acme/sign-in')
		let attempts = 0
		api((call) => {
			if (call.path.endsWith('/auth/password')) {
				attempts += 1
				return attempts === 1 ? problem(401, 'INVALID_CREDENTIALS', 'Wrong.') : json(200, session)
			}
			return undefined
		})
		renderApp()
		await userEvent.click(await screen.findByRole('button', { name: 'Sign in with a password instead' }))
		await userEvent.type(screen.getByLabelText('E-mail'), 'ana@client.example')
		await userEvent.type(screen.getByLabelText('Password'), 'wrong password')
		await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
		expect(await screen.findByRole('alert')).toHaveTextContent('do not match')
		await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
		expect(await screen.findByRole('heading', { name: 'Welcome, Ana' })).toBeInTheDocument()
	})

	it('returns to sign-in on a 401 anywhere (session ended, member removed)', async () => {
		signedIn()
		at('/p/acme/projects')
		api((call) => (call.path.endsWith('/rows') ? problem(401, 'UNAUTHENTICATED', 'Session ended.') : undefined))
		renderApp()
		expect(await screen.findByText('Your session has ended. Sign in again to continue.')).toBeInTheDocument()
		expect(window.location.pathname).toBe('/p/acme/sign-in')
		expect(window.localStorage.getItem(sessionKey('acme'))).toBeNull()
	})

	it('shows the shell, a page with its rows, search, Load more and the empty state', async () => {
		signedIn()
		at('/p/acme')
		const calls = api((call) => {
			if (call.path !== '/api/portal/acme/pages/projects/rows') {
				return undefined
			}
			const search = call.url.searchParams.get('search')
			if (search === 'nothing') {
				return json(200, rows({ rows: [] }))
			}
			return call.url.searchParams.get('cursor') === 'next-1'
				? json(200, rows({ rows: [row('r3', 'Third project', 'Planned')] }))
				: json(200, rows({ nextCursor: 'next-1' }))
		})
		renderApp()
		expect(await screen.findByText('Your projects with us.')).toBeInTheDocument()
		expect(screen.getByText('Updated 5 minutes ago')).toBeInTheDocument()
		const nav = screen.getByRole('navigation', { name: 'Pages' })
		await userEvent.click(within(nav).getByRole('link', { name: 'Projects' }))
		expect(window.location.pathname).toBe('/p/acme/projects')
		expect(await screen.findByRole('link', { name: 'Website redesign' })).toHaveAttribute('href', '/p/acme/projects/r1')
		expect(within(nav).getByRole('link', { name: 'Projects' })).toHaveAttribute('aria-current', 'page')
		expect(document.title).toBe('Projects · Acme Studio')
		await userEvent.click(screen.getByRole('button', { name: 'Load more' }))
		expect(await screen.findByRole('link', { name: 'Third project' })).toBeInTheDocument()
		expect(screen.getByRole('link', { name: 'Website redesign' })).toBeInTheDocument()
		expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull()
		await userEvent.click(screen.getByRole('link', { name: 'Acme Studio' }))
		expect(await screen.findByRole('heading', { name: 'Welcome, Ana' })).toBeInTheDocument()
		expect(document.title).toBe('Acme Studio')
		await userEvent.click(within(nav).getByRole('link', { name: 'Projects' }))
		expect(await screen.findByRole('link', { name: 'Website redesign' })).toBeInTheDocument()
		await userEvent.selectOptions(screen.getByLabelText('Status'), 'Active')
		await waitFor(() =>
			expect(calls.at(-1)?.url.searchParams.get('filter')).toBe(
				JSON.stringify([{ property: 'status', operator: 'equals', value: 'Active' }]),
			),
		)
		await userEvent.type(screen.getByLabelText('Search'), 'nothing')
		expect(await screen.findByText('No projects match your search and filters.')).toBeInTheDocument()
	})

	it('says plainly when nothing is shared yet', async () => {
		signedIn()
		at('/p/acme/projects')
		api((call) => (call.path.endsWith('/rows') ? json(200, rows({ rows: [] })) : undefined))
		renderApp()
		expect(await screen.findByText('No projects shared with you yet.')).toBeInTheDocument()
	})

	it('opens a row page with its properties and content, and a row outside the rule as not here', async () => {
		signedIn()
		at('/p/acme/projects/r1')
		const detail: PortalRowDetail = {
			page: rows().page,
			row: row('r1', 'Website redesign', 'Active'),
			blocks: [{ type: 'paragraph', text: [{ text: 'Scope of work' }] }],
			lastSyncedAt: null,
		}
		api((call) => {
			if (call.path.endsWith('/rows/r1')) {
				return json(200, detail)
			}
			return call.path.endsWith('/rows/other') ? problem(404, 'NOT_FOUND', 'Not found.') : undefined
		})
		const { unmount } = renderApp()
		expect(await screen.findByRole('heading', { level: 1, name: 'Website redesign' })).toBeInTheDocument()
		expect(screen.getByText('Scope of work')).toBeInTheDocument()
		expect(screen.getByRole('link', { name: 'Globex' })).toHaveAttribute('href', '/p/acme/clients/c1')
		expect(screen.getByRole('link', { name: '← Projects' })).toHaveAttribute('href', '/p/acme/projects')
		unmount()
		at('/p/acme/projects/other')
		renderApp()
		expect(await screen.findByRole('heading', { name: 'This item is not here' })).toBeInTheDocument()
	})

	it('works at the root of a custom domain', async () => {
		signedIn()
		at('/projects')
		api()
		renderApp('')
		expect(await screen.findByRole('link', { name: 'Website redesign' })).toHaveAttribute('href', '/projects/r1')
	})

	it('sets a password from the member menu', async () => {
		signedIn()
		at('/p/acme')
		const calls = api((call) => (call.path.endsWith('/auth/set_password') ? json(204, null) : undefined))
		renderApp()
		await userEvent.click(await screen.findByRole('button', { name: /Account/ }))
		await userEvent.click(screen.getByRole('button', { name: 'Set a password' }))
		const dialog = screen.getByRole('dialog', { name: 'Set a password' })
		await userEvent.type(within(dialog).getByLabelText('New password'), 'short')
		await userEvent.click(within(dialog).getByRole('button', { name: 'Save password' }))
		expect(within(dialog).getByRole('alert')).toHaveTextContent('at least 8 characters')
		await userEvent.type(within(dialog).getByLabelText('New password'), ' but long enough')
		await userEvent.click(within(dialog).getByRole('button', { name: 'Save password' }))
		expect(await within(dialog).findByText(/Password saved/)).toBeInTheDocument()
		const sent = calls.find((call) => call.path.endsWith('/auth/set_password'))
		expect(sent?.body).toEqual({ password: 'short but long enough' })
		expect(sent?.authorization).toBe(`Bearer ${session.token}`)
		await userEvent.keyboard('{Escape}')
		expect(screen.queryByRole('dialog')).toBeNull()
		await userEvent.click(screen.getByRole('button', { name: /Account/ }))
		expect(screen.getByRole('button', { name: 'Change password' })).toBeInTheDocument()
	})

	it("opens one of the team's forms inside the portal, with the member's identity from the server", async () => {
		signedIn()
		at('/p/acme')
		const formUrl = `${window.location.origin}/forms/f1?portal=signed-identity`
		const calls = api((call) => {
			if (call.path === '/api/portal/acme/me') {
				return json(200, { ...me, forms: [{ id: 'f1', title: 'New request' }] })
			}
			return call.path === '/api/portal/acme/forms/f1/open'
				? json(200, { url: formUrl, expiresAt: new Date(Date.now() + 3_600_000).toISOString() })
				: undefined
		})
		renderApp()
		const forms = await screen.findByRole('region', { name: 'Forms' })
		await userEvent.click(within(forms).getByRole('link', { name: 'New request' }))
		expect(window.location.pathname).toBe('/p/acme/_forms/f1')
		const frame = await screen.findByTitle('New request')
		expect(frame).toHaveAttribute('src', formUrl)
		const open = calls.find((call) => call.path.endsWith('/forms/f1/open'))
		expect(open?.method).toBe('POST')
		expect(open?.authorization).toBe(`Bearer ${session.token}`)
		expect(
			within(screen.getByRole('navigation', { name: 'Pages' })).getByRole('link', { name: 'New request' }),
		).toHaveAttribute('aria-current', 'page')
		// The frame grows with the form's reported height, and only from that frame.
		const report = (source: MessageEventSource | null, height: number) =>
			window.dispatchEvent(new MessageEvent('message', { data: { type: 'blocksmith:form-height', height }, source }))
		report(window, 2000)
		expect((frame as HTMLIFrameElement).style.height).toBe('480px')
		report((frame as HTMLIFrameElement).contentWindow, 900)
		await waitFor(() => expect((frame as HTMLIFrameElement).style.height).toBe('900px'))
	})

	it('says a form is not here when the portal does not offer it', async () => {
		signedIn()
		at('/p/acme/_forms/unknown')
		const calls = api()
		renderApp()
		expect(await screen.findByRole('heading', { name: 'This form is not here' })).toBeInTheDocument()
		expect(calls.some((call) => call.path.includes('/forms/'))).toBe(false)
	})

	it("lists the company's invoices when the portal shows them, each opening its own page", async () => {
		signedIn()
		at('/p/acme')
		api((call) => {
			if (call.path === '/api/portal/acme/me') {
				return json(200, { ...me, hasInvoices: true })
			}
			return call.path === '/api/portal/acme/invoices'
				? json(200, {
						invoices: [
							{
								id: 'i1',
								kind: 'invoice',
								number: 'INV-2026-0007',
								status: 'sent',
								isOverdue: true,
								issueDate: '2026-10-01',
								dueDate: '2026-10-31',
								currency: 'USD',
								total: '$1,190.00',
								due: '$1,190.00',
								dueMinor: 119000,
								url: 'http://localhost:3000/i/public-token',
							},
							{
								id: 'i2',
								kind: 'credit_note',
								number: 'CN-2026-0001',
								status: 'paid',
								isOverdue: false,
								issueDate: '2026-09-01',
								dueDate: null,
								currency: 'USD',
								total: '-$100.00',
								due: '$0.00',
								dueMinor: 0,
								url: 'javascript:alert(1)',
							},
						],
					})
				: undefined
		})
		renderApp()
		const nav = await screen.findByRole('navigation', { name: 'Pages' })
		await userEvent.click(within(nav).getByRole('link', { name: 'Billing' }))
		const invoice = await screen.findByRole('link', { name: 'INV-2026-0007' })
		expect(invoice).toHaveAttribute('href', 'http://localhost:3000/i/public-token')
		expect(invoice).toHaveAttribute('target', '_blank')
		const row = invoice.closest('tr') as HTMLElement
		expect(within(row).getByText('Overdue')).toBeInTheDocument()
		expect(within(row).getAllByText('$1,190.00')).toHaveLength(2)
		// A link that is not http(s) is the number alone.
		expect(screen.getByText('Credit note CN-2026-0001').closest('a')).toBeNull()
		expect(screen.getByText('Paid')).toBeInTheDocument()
		expect(window.location.pathname).toBe('/p/acme/_invoices')
	})

	it('draws the charts shared with the member on the home page, as images', async () => {
		signedIn()
		at('/p/acme')
		const svg = '<svg xmlns="http://www.w3.org/2000/svg"><text>3</text></svg>'
		const calls = api((call) => {
			if (call.path === '/api/portal/acme/me' && call.authorization === `Bearer ${session.token}`) {
				return json(200, { ...me, charts: [{ id: 'c1', title: 'Projects by status' }] })
			}
			return call.path === '/api/portal/acme/charts/c1'
				? json(200, { id: 'c1', name: 'Projects by status', svg, rowCount: 3, dataUpdatedAt: null })
				: undefined
		})
		renderApp()
		const charts = await screen.findByRole('region', { name: 'Charts' })
		const image = await within(charts).findByRole('img', { name: 'Chart: Projects by status, over 3 of your rows' })
		expect(image.getAttribute('src')).toBe(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`)
		const chartCall = calls.find((call) => call.path === '/api/portal/acme/charts/c1')
		expect(chartCall?.url.searchParams.get('theme')).toBe('light')
		// Nothing of the drawing reaches the page's own DOM.
		expect(charts.querySelector('svg text')).toBeNull()
	})

	it('signs out from the member menu', async () => {
		signedIn()
		at('/p/acme')
		const calls = api()
		renderApp()
		await userEvent.click(await screen.findByRole('button', { name: /Account/ }))
		await userEvent.click(screen.getByRole('button', { name: 'Sign out' }))
		expect(await screen.findByRole('heading', { name: 'Sign in to Acme Studio' })).toBeInTheDocument()
		expect(calls.some((call) => call.path.endsWith('/auth/sign_out'))).toBe(true)
		expect(window.localStorage.getItem(sessionKey('acme'))).toBeNull()
	})
})
