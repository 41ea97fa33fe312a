import type { OrganizationExport } from '@blocksmith/contracts/data.ts'
import type { Member, OrgDetails } from '@blocksmith/contracts/teams.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { teamKeys } from '#src/core/teams/api/teams.ts'
import { json, makeOrgDetails, mockApi, problem, renderPage } from '#src/test/mock-api.tsx'
import DataSettings from './data-settings.tsx'

// Settings → Data: the export (start, progress, download, history) and deleting the organization.

function makeExport(changes: Partial<OrganizationExport> = {}): OrganizationExport {
	return {
		id: 'e1',
		status: 'queued',
		progress: { done: 0, total: 8, step: null },
		requestedBy: { name: 'Ada Lovelace', email: 'ada@example.com' },
		createdAt: '2026-11-26T10:00:00.000Z',
		finishedAt: null,
		expiresAt: null,
		byteSize: null,
		error: null,
		downloadUrl: null,
		...changes,
	}
}

const readyExport = (changes: Partial<OrganizationExport> = {}) =>
	makeExport({
		status: 'ready',
		progress: { done: 8, total: 8, step: null },
		finishedAt: '2026-11-26T10:05:00.000Z',
		expiresAt: '2099-12-03T10:05:00.000Z',
		byteSize: Math.round(2.5 * 1024 * 1024),
		downloadUrl: '/api/exports/e1/download?expires=1&signature=abc',
		...changes,
	})

function member(name: string, role: Member['role']): Member {
	return {
		id: `m-${name}`,
		userId: `u-${name}`,
		name,
		email: `${name}@example.com`,
		image: null,
		role,
		createdAt: '2026-01-01T10:00:00.000Z',
	}
}

function renderData() {
	return renderPage(DataSettings, '/settings', '/settings?tab=data')
}

afterEach(() => {
	vi.useRealTimers()
})

describe('Settings → Data: the export', () => {
	test('start → progress read every 2 s → ready with its link, size and end; the reads then stop', async () => {
		vi.useFakeTimers({ shouldAdvanceTime: true })
		const reads = [
			makeExport(),
			makeExport({ status: 'running', progress: { done: 3, total: 8, step: 'Forms and answers' } }),
			readyExport(),
		]
		let listed: OrganizationExport[] = []
		const api = mockApi(({ method, path }) => {
			if (method === 'GET' && path === '/dashboard/exports') {
				return json({ exports: listed })
			}
			if (method === 'POST' && path === '/dashboard/exports') {
				listed = [makeExport()]
				return json(makeExport(), 202)
			}
			if (method === 'GET' && path === '/dashboard/exports/e1') {
				const next = reads.shift() ?? readyExport()
				listed = [next]
				return json(next)
			}
			return undefined
		})
		const { user } = renderData()
		expect(await screen.findByText('Invoices as PDF and e-invoice XML')).toBeInTheDocument()
		expect(screen.getByText("We'll also e-mail you a link when it's ready.")).toBeInTheDocument()
		expect(screen.queryByRole('progressbar')).toBeNull()

		await user.click(screen.getByRole('button', { name: 'Export everything' }))
		const bar = await screen.findByRole('progressbar', { name: 'Export progress' })
		expect(bar).toHaveAttribute('aria-valuenow', '0')
		expect(screen.getByText('Waiting to start…')).toBeInTheDocument()
		// One export at a time: the button waits for this one.
		expect(screen.getByRole('button', { name: 'Export everything' })).toBeDisabled()

		await vi.advanceTimersByTimeAsync(2000)
		expect(await screen.findByText('Forms and answers')).toBeInTheDocument()
		expect(screen.getByText('3 of 8')).toBeInTheDocument()
		expect(screen.getByRole('progressbar', { name: 'Export progress' })).toHaveAttribute('aria-valuenow', '3')

		await vi.advanceTimersByTimeAsync(2000)
		const download = await screen.findByRole('link', { name: 'Download' })
		expect(download).toHaveAttribute('href', '/api/exports/e1/download?expires=1&signature=abc')
		expect(download).toHaveAttribute('download')
		expect(screen.getByText(/2\.5 MB/)).toBeInTheDocument()
		expect(screen.getByText(/The link works until Dec 3, 2099/)).toBeInTheDocument()
		expect(screen.queryByRole('progressbar')).toBeNull()
		expect(screen.getByRole('button', { name: 'Export everything' })).toBeEnabled()

		const polls = () => api.calls.filter((call) => call.path === '/dashboard/exports/e1').length
		const seen = polls()
		expect(seen).toBe(3)
		await vi.advanceTimersByTimeAsync(6000)
		expect(polls()).toBe(seen)
		expect(api.calls.filter((call) => call.method === 'POST' && call.path === '/dashboard/exports')).toHaveLength(1)
	})

	test('one already being built (409) is said, and that one is shown instead', async () => {
		let listed: OrganizationExport[] = []
		mockApi(({ method, path }) => {
			if (method === 'GET' && path === '/dashboard/exports') {
				return json({ exports: listed })
			}
			if (method === 'POST' && path === '/dashboard/exports') {
				listed = [makeExport({ id: 'e2', status: 'running', progress: { done: 5, total: 8, step: 'Invoices' } })]
				return problem(409, 'CONFLICT', 'An export of this organization is being built already.')
			}
			if (method === 'GET' && path === '/dashboard/exports/e2') {
				return json(listed[0])
			}
			return undefined
		})
		const { user } = renderData()
		await user.click(await screen.findByRole('button', { name: 'Export everything' }))
		expect(await screen.findByText('An export of this organization is being built already.')).toBeInTheDocument()
		expect(screen.getByText('The export did not start')).toBeInTheDocument()
		expect(await screen.findByRole('progressbar', { name: 'Export progress' })).toHaveAttribute('aria-valuenow', '5')
		expect(screen.getByText('Invoices')).toBeInTheDocument()
		expect(screen.getByRole('button', { name: 'Export everything' })).toBeDisabled()
	})

	test('the history: each export’s state, when, who and size; downloads while ready; a failure says why', async () => {
		mockApi(({ path }) => {
			if (path === '/dashboard/exports') {
				return json({
					exports: [
						makeExport({ id: 'e3', status: 'failed', error: 'The invoices could not be read.' }),
						readyExport({ id: 'e2', createdAt: '2026-11-20T10:00:00.000Z', downloadUrl: '/dl/e2' }),
						// Its link's time is up, though the hourly job has not marked it expired yet.
						readyExport({ id: 'e4', createdAt: '2026-11-10T10:00:00.000Z', expiresAt: '2026-11-17T10:00:00.000Z' }),
						makeExport({ id: 'e1', status: 'expired', createdAt: '2026-11-01T10:00:00.000Z', byteSize: 1024 }),
					],
				})
			}
			return undefined
		})
		renderData()
		// The newest failed: said at the top, with its reason.
		expect(await screen.findByText('The export failed')).toBeInTheDocument()
		expect(screen.getByText('The invoices could not be read.')).toBeInTheDocument()
		const history = screen.getByRole('table')
		const rows = within(history).getAllByRole('row').slice(1)
		expect(rows).toHaveLength(3)
		expect(within(rows[0] as HTMLElement).getByText('Ready')).toBeInTheDocument()
		expect(within(rows[0] as HTMLElement).getByText('Ada Lovelace')).toBeInTheDocument()
		expect(within(rows[0] as HTMLElement).getByText('2.5 MB')).toBeInTheDocument()
		expect(
			within(rows[0] as HTMLElement).getByRole('link', { name: /^Download the export of Nov 20, 2026/ }),
		).toHaveAttribute('href', '/dl/e2')
		expect(within(rows[1] as HTMLElement).queryByRole('link')).toBeNull()
		expect(within(rows[2] as HTMLElement).getByText('Expired')).toBeInTheDocument()
		expect(within(rows[2] as HTMLElement).queryByRole('link')).toBeNull()
		expect(screen.getAllByRole('link')).toHaveLength(1)
	})

	test('a member reads who can export, and sees neither the export nor the deletion', async () => {
		const api = mockApi(() => undefined, { role: 'member' })
		renderData()
		expect(await screen.findByText(/An owner or admin of Acme can export everything it has/)).toBeInTheDocument()
		expect(screen.queryByRole('button', { name: 'Export everything' })).toBeNull()
		expect(screen.queryByRole('button', { name: 'Delete organization' })).toBeNull()
		expect(api.calls.some((call) => call.path === '/dashboard/exports')).toBe(false)
	})
})

describe('Settings → Data: deleting the organization', () => {
	function serveDelete(answer: (name: unknown) => Response) {
		return mockApi(({ method, path, body }) => {
			if (path === '/dashboard/exports') {
				return json({ exports: [] })
			}
			if (method === 'POST' && path === '/dashboard/organization/delete') {
				return answer((body as { name?: unknown }).name)
			}
			return undefined
		})
	}

	test('the confirm button waits for the exact name; the server’s field error shows under the input', async () => {
		const api = serveDelete(() =>
			problem(400, 'VALIDATION', 'The name does not match.', [
				{ field: 'name', message: 'Type the organization’s name exactly.' },
			]),
		)
		const { user } = renderData()
		await user.click(await screen.findByRole('button', { name: 'Delete organization' }))
		const dialog = await screen.findByRole('dialog', { name: 'Delete Acme?' })
		expect(within(dialog).getByText(/public forms, charts, dashboards and portals stop at once/)).toBeInTheDocument()
		expect(within(dialog).getByText(/subscription is canceled/)).toBeInTheDocument()
		expect(within(dialog).getByText(/an owner can restore it/)).toBeInTheDocument()
		const confirm = within(dialog).getByRole('button', { name: 'Delete organization' })
		const input = within(dialog).getByLabelText('Type Acme to confirm')
		expect(confirm).toBeDisabled()
		await user.type(input, 'acme')
		expect(confirm).toBeDisabled()
		await user.clear(input)
		await user.type(input, 'Acme ')
		expect(confirm).toBeDisabled()
		await user.type(input, '{Backspace}')
		expect(confirm).toBeEnabled()
		await user.click(confirm)
		expect(await within(dialog).findByText('Type the organization’s name exactly.')).toBeInTheDocument()
		expect(input).toHaveAttribute('aria-invalid', 'true')
		expect(input).toHaveAccessibleDescription('Type the organization’s name exactly.')
		expect(api.calls.filter((call) => call.path === '/dashboard/organization/delete').map((call) => call.body)).toEqual(
			[{ name: 'Acme' }],
		)
	})

	test('confirmed, the organization’s details carry the deletion (the dashboard’s gate follows)', async () => {
		const deletion: NonNullable<OrgDetails['deletion']> = {
			requestedAt: '2026-11-26T10:00:00.000Z',
			purgeAfter: '2026-12-26T10:00:00.000Z',
			requestedBy: 'Ada Lovelace',
		}
		let isDeleted = false
		const api = mockApi(({ method, path, body }) => {
			if (path === '/dashboard/exports') {
				return json({ exports: [] })
			}
			if (path === '/dashboard/users/get_org_details') {
				return json(makeOrgDetails('owner', { deletion: isDeleted ? deletion : null }))
			}
			if (method === 'POST' && path === '/dashboard/organization/delete') {
				isDeleted = (body as { name: string }).name === 'Acme'
				return isDeleted ? json({ deletion }) : problem(400, 'VALIDATION', 'No.')
			}
			return undefined
		})
		const { user, queryClient } = renderData()
		await user.click(await screen.findByRole('button', { name: 'Delete organization' }))
		const dialog = await screen.findByRole('dialog', { name: 'Delete Acme?' })
		await user.type(within(dialog).getByLabelText('Type Acme to confirm'), 'Acme')
		await user.click(within(dialog).getByRole('button', { name: 'Delete organization' }))
		await waitFor(() => expect(queryClient.getQueryData<OrgDetails>(teamKeys.orgDetails)?.deletion).toEqual(deletion))
		// Read again from the server, not only set here.
		await waitFor(() =>
			expect(api.calls.filter((call) => call.path === '/dashboard/users/get_org_details')).toHaveLength(2),
		)
	})

	test('an admin exports but does not delete: the card names the owners who can', async () => {
		mockApi(
			({ path }) => {
				if (path === '/dashboard/exports') {
					return json({ exports: [] })
				}
				if (path === '/dashboard/team_invites/all_members') {
					return json([member('Ada', 'owner'), member('Grace', 'admin'), member('Linus', 'owner')])
				}
				return undefined
			},
			{ role: 'admin' },
		)
		renderData()
		expect(await screen.findByRole('button', { name: 'Export everything' })).toBeInTheDocument()
		expect(await screen.findByText('Only an owner can delete the organization: Ada, Linus.')).toBeInTheDocument()
		expect(screen.queryByRole('button', { name: 'Delete organization' })).toBeNull()
	})
})
