import type { TimeDatabase } from '@blocksmith/contracts/time.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { renderApp } from '#src/core/billing/testing.tsx'
import { json, mockApi, problem } from '#src/test/mock-api.tsx'
import { makeTimeDatabase, mappedDatabase, review, suggestedMapping, workspaceReads } from '../lib/testing.tsx'
import { TimePage } from './time-page.tsx'
import { TimeSetupPage } from './time-setup-page.tsx'

const routes = [
	{ path: '/time', Component: TimePage },
	{ path: '/time/setup', Component: TimeSetupPage },
]

const missingStart = 'Add a date property for when an entry starts (a date with an end can hold the whole entry).'
const deals = makeTimeDatabase({
	id: 'db-deals',
	name: 'Deals',
	suggested: review(
		{ ...suggestedMapping, start: null, end: null, duration: 'amount', person: null, project: null, client: null },
		{ start: missingStart, person: 'Add a people property.' },
	),
})

/** A database with a date, so its suggestion is complete too, but not named for time. */
const enquiries = makeTimeDatabase({
	id: 'db-enquiries',
	name: 'Enquiries',
	suggested: review({ ...suggestedMapping, duration: null, project: null, client: null, tags: null, billable: null }),
})

describe('time tracking setup', () => {
	test('with nothing mapped, /time offers the sample database with its suggestion filled in; saving it opens the timer', async () => {
		let local: TimeDatabase[] = [deals, enquiries, makeTimeDatabase()]
		const api = mockApi((call) => {
			if (call.path === '/dashboard/local_time/databases' && call.method === 'GET') {
				return json(local)
			}
			if (call.path === '/dashboard/local_time/databases/db-time' && call.method === 'PUT') {
				local = [deals, enquiries, mappedDatabase]
				return json(mappedDatabase)
			}
			if (call.path === '/dashboard/local_time/timer') {
				return json({ entry: null })
			}
			if (call.path === '/dashboard/local_time/entries') {
				return json([])
			}
			return workspaceReads(call)
		})
		const { user, router } = renderApp(routes, '/time')
		expect(await screen.findByRole('heading', { name: 'Where should your time go?' })).toBeInTheDocument()
		const list = screen.getByRole('list', { name: 'Databases for time entries' })
		// The one named for time first (others with a date fit too), then the rest, then what cannot hold time.
		const items = within(list).getAllByRole('listitem')
		expect(items.map((item) => within(item).getByRole('heading').textContent)).toEqual([
			'Time entries',
			'Enquiries',
			'Deals',
		])
		const [first, , third] = items as [HTMLElement, HTMLElement, HTMLElement]
		expect(within(list).getAllByText('Ready to use')).toHaveLength(1)
		expect(within(first).getByText('Ready to use')).toBeInTheDocument()
		expect(within(third).getByText(/Missing: Start/)).toBeInTheDocument()

		await user.click(within(first).getByRole('button', { name: 'Use this database for Time entries' }))
		const dialog = await screen.findByRole('dialog', { name: 'Track time in Time entries' })
		// Each field's select holds the suggestion, among the properties of fitting types only.
		expect(await within(dialog).findByRole('combobox', { name: /^Start/ })).toHaveValue('when')
		expect(within(dialog).getByRole('combobox', { name: /^End/ })).toHaveValue('when')
		expect(within(dialog).getByRole('combobox', { name: /^Duration$/ })).toHaveValue('hours')
		expect(within(dialog).getByRole('combobox', { name: /^Project/ })).toHaveValue('project')
		expect(within(dialog).getByRole('combobox', { name: /^Tags/ })).toHaveValue('tags')
		const startChoices = within(within(dialog).getByRole('combobox', { name: /^Start/ })).getAllByRole('option')
		expect(startChoices.map((option) => option.textContent)).toEqual(['Choose…', 'When'])
		// The client is read through the project's relation.
		await waitFor(() => expect(within(dialog).getByRole('combobox', { name: /^Client/ })).toHaveValue('project:client'))
		expect(within(dialog).queryByText('Not enough to track time yet')).toBeNull()

		await user.click(within(dialog).getByRole('button', { name: 'Save and start tracking' }))
		await waitFor(() => expect(router.state.location.pathname).toBe('/time'))
		expect(await screen.findByRole('form', { name: 'Timer' })).toBeInTheDocument()
		const saved = api.calls.find((call) => call.method === 'PUT')
		expect(saved?.body).toEqual({ mapping: suggestedMapping })
	})

	test('what is missing is said in the server’s words, and a 400 is shown at the field it names', async () => {
		const api = mockApi((call) => {
			if (call.path === '/dashboard/local_time/databases' && call.method === 'GET') {
				return json([deals])
			}
			if (call.path === '/dashboard/local_time/databases/db-deals' && call.method === 'PUT') {
				return problem(400, 'VALIDATION_FAILED', 'The mapping does not fit the database.', [
					{ field: 'mapping.duration', message: 'Amount is a currency, not a duration.' },
				])
			}
			return workspaceReads(call)
		})
		const { user } = renderApp(routes, '/time/setup')
		await user.click(await screen.findByRole('button', { name: 'Use this database for Deals' }))
		const dialog = await screen.findByRole('dialog', { name: 'Track time in Deals' })
		const start = await within(dialog).findByRole('combobox', { name: /^Start/ })
		expect(start).toHaveValue('')
		expect(start).toHaveAttribute('aria-required', 'true')
		expect(within(dialog).getByRole('alert')).toHaveTextContent(missingStart)

		await user.selectOptions(start, 'closed')
		await user.selectOptions(within(dialog).getByRole('combobox', { name: /^End/ }), '')
		expect(within(dialog).queryByText('Not enough to track time yet')).toBeNull()
		await user.click(within(dialog).getByRole('button', { name: 'Save and start tracking' }))

		const duration = within(dialog).getByRole('combobox', { name: 'Duration' })
		await waitFor(() => expect(duration).toHaveAccessibleDescription(/Amount is a currency, not a duration\./))
		expect(duration).toHaveAttribute('aria-invalid', 'true')
		expect(api.calls.find((call) => call.method === 'PUT')?.body).toMatchObject({
			mapping: { start: 'closed', end: null, duration: 'amount' },
		})
		// The dialog stays open to fix it.
		expect(screen.getByRole('dialog', { name: 'Track time in Deals' })).toBeInTheDocument()
	})
})
