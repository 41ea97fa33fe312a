import { screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { createChoiceReader } from '../../public/public-api.ts'
import { field, json, mockFetch } from '../../public/testing.ts'
import type { DraftValue } from './field-values.ts'
import { type LoadChoices, ReferenceField } from './reference-field.tsx'

// People and relation questions: a search-only one lists nothing until two letters are typed,
// asks again (debounced, the previous search cancelled) on each keystroke, and is a combobox
// driven by the keyboard; the others list their choices at once. The page's reader names the
// question in every read, so the server gives only that question's choices.

const clients = [
	{ id: 'r1', label: 'Acme Ltd' },
	{ id: 'r2', label: 'Acorn Labs' },
]

function Harness(props: { loadChoices: LoadChoices | undefined; searchOnly?: boolean }) {
	const [value, setValue] = useState<DraftValue>([])
	return (
		<>
			<ReferenceField
				field={field('client', 'relation', 'Client', {
					relationDatabaseId: 'db-clients',
					searchOnly: props.searchOnly ?? true,
				})}
				value={value}
				onChange={setValue}
				error={undefined}
				controlId="client"
				loadChoices={props.loadChoices}
			/>
			<pre data-testid="value">{JSON.stringify(value)}</pre>
		</>
	)
}

afterEach(() => {
	vi.unstubAllGlobals()
})

describe('a search-only question', () => {
	it('lists nothing until two letters are typed, then the matches', async () => {
		const loadChoices = vi.fn<LoadChoices>(async (_field, search) =>
			clients.filter((client) => client.label.toLowerCase().includes(search.toLowerCase())),
		)
		const { user } = renderWithUser(<Harness loadChoices={loadChoices} />)
		const input = await screen.findByRole('combobox', { name: 'Client' })
		expect(input).toHaveAttribute('aria-expanded', 'false')
		expect(screen.getByRole('status')).toHaveTextContent('Type at least 2 letters to search.')
		expect(screen.queryByRole('option')).not.toBeInTheDocument()

		await user.type(input, 'a')
		await new Promise((resolve) => setTimeout(resolve, 400))
		expect(loadChoices).not.toHaveBeenCalled()
		expect(screen.getByRole('status')).toHaveTextContent('Type at least 2 letters to search.')

		await user.type(input, 'c')
		expect(await screen.findByRole('option', { name: 'Acme Ltd' })).toBeInTheDocument()
		expect(screen.getByRole('option', { name: 'Acorn Labs' })).toBeInTheDocument()
		expect(loadChoices).toHaveBeenCalledTimes(1)
		expect(loadChoices.mock.calls[0]?.[1]).toBe('ac')
		expect(input).toHaveAttribute('aria-expanded', 'true')
		expect(screen.getByRole('status')).toHaveTextContent('2 matches.')
		expect(screen.getByRole('listbox', { name: 'Client' })).toHaveAttribute('aria-multiselectable', 'true')
	})

	it('cancels the search under way on each keystroke and waits before asking again', async () => {
		const signals: AbortSignal[] = []
		const loadChoices = vi.fn<LoadChoices>((_field, search, signal) => {
			signals.push(signal)
			// The first search hangs, as a slow server would.
			return search === 'ac' ? new Promise(() => {}) : Promise.resolve(clients.slice(0, 1))
		})
		const { user } = renderWithUser(<Harness loadChoices={loadChoices} />)
		const input = await screen.findByRole('combobox', { name: 'Client' })
		await user.type(input, 'ac')
		await waitFor(() => expect(loadChoices).toHaveBeenCalledTimes(1))
		expect(screen.getByRole('status')).toHaveTextContent('Searching…')
		await user.type(input, 'me')
		// 'acm' never asked: 'e' came within the wait. 'ac' was cancelled at the first keystroke.
		expect(signals[0]?.aborted).toBe(true)
		expect(await screen.findByRole('option', { name: 'Acme Ltd' })).toBeInTheDocument()
		expect(loadChoices.mock.calls.map((call) => call[1])).toEqual(['ac', 'acme'])
		// Back under two letters: nothing listed, nothing asked.
		await user.clear(input)
		await user.type(input, 'x')
		expect(screen.queryByRole('option')).not.toBeInTheDocument()
		expect(screen.getByRole('status')).toHaveTextContent('Type at least 2 letters to search.')
		expect(loadChoices).toHaveBeenCalledTimes(2)
	})

	it('is worked by the keyboard: arrows move, Enter picks or unpicks, Escape closes', async () => {
		const loadChoices = vi.fn<LoadChoices>(async () => clients)
		const { user } = renderWithUser(<Harness loadChoices={loadChoices} />)
		const input = await screen.findByRole('combobox', { name: 'Client' })
		await user.type(input, 'ac')
		await screen.findByRole('option', { name: 'Acme Ltd' })
		expect(input).not.toHaveAttribute('aria-activedescendant')

		await user.keyboard('{ArrowDown}{ArrowDown}')
		const acorn = screen.getByRole('option', { name: 'Acorn Labs' })
		expect(input).toHaveAttribute('aria-activedescendant', acorn.id)
		await user.keyboard('{Enter}')
		expect(screen.getByTestId('value')).toHaveTextContent('["r2"]')
		expect(acorn).toHaveAttribute('aria-selected', 'true')
		await user.keyboard('{ArrowUp}{Enter}')
		expect(screen.getByTestId('value')).toHaveTextContent('["r2","r1"]')
		expect(screen.getByRole('list', { name: 'Chosen for Client' })).toHaveTextContent('Acorn Labs')

		await user.keyboard('{Escape}')
		expect(input).toHaveAttribute('aria-expanded', 'false')
		expect(input).not.toHaveAttribute('aria-activedescendant')
		expect(input).toHaveFocus()

		// A chosen one stays chosen (and named) whatever is searched next, and can be removed.
		await user.click(screen.getByRole('button', { name: 'Remove Acme Ltd' }))
		expect(screen.getByTestId('value')).toHaveTextContent('["r2"]')
	})

	it('offers to try again when the search fails', async () => {
		let fails = true
		const loadChoices = vi.fn<LoadChoices>(async () => {
			if (fails) {
				throw new Error('offline')
			}
			return clients
		})
		const { user } = renderWithUser(<Harness loadChoices={loadChoices} />)
		await user.type(await screen.findByRole('combobox', { name: 'Client' }), 'ac')
		expect(await screen.findByRole('alert')).toHaveTextContent("Couldn't search the choices.")
		fails = false
		await user.click(screen.getByRole('button', { name: 'Try again' }))
		expect(await screen.findByRole('option', { name: 'Acme Ltd' })).toBeInTheDocument()
	})
})

describe('a question that lists its choices', () => {
	it('lists them at once, without typing', async () => {
		const loadChoices = vi.fn<LoadChoices>(async () => clients)
		renderWithUser(<Harness loadChoices={loadChoices} searchOnly={false} />)
		expect(await screen.findByRole('checkbox', { name: 'Acme Ltd' })).toBeInTheDocument()
		expect(loadChoices.mock.calls[0]?.[1]).toBe('')
		expect(screen.queryByRole('combobox')).not.toBeInTheDocument()
	})
})

describe('createChoiceReader', () => {
	it('names the question in every read; search-only people are searched by the server', async () => {
		const calls = mockFetch(({ path, url }) => {
			if (path === '/api/local/users') {
				return json(200, [
					{
						id: 'u1',
						name: url.searchParams.get('search') ? 'Ada Admin' : 'Max Member',
						email: null,
						avatarUrl: null,
						type: 'person',
					},
					{ id: 'bot', name: 'Zapier', email: null, avatarUrl: null, type: 'bot' },
				])
			}
			return json(200, [{ id: 'db-clients', name: 'Clients', properties: [], rows: [{ id: 'r1', title: '' }] }])
		})
		const read = createChoiceReader('local', 'form:f1')
		const signal = new AbortController().signal
		const owner = field('owner', 'people', 'Owner')
		const helper = field('helper', 'people', 'Helper', { searchOnly: true })
		const client = field('client', 'relation', 'Client', { relationDatabaseId: 'db-clients' })

		expect(await read(owner, '', signal)).toEqual([{ id: 'u1', label: 'Max Member' }])
		// Listed people are read once per question and searched in the page.
		expect(await read(owner, 'zzz', signal)).toEqual([])
		expect(await read(helper, 'ad', signal)).toEqual([{ id: 'u1', label: 'Ada Admin' }])
		expect(await read(client, 'ac', signal)).toEqual([{ id: 'r1', label: 'Untitled' }])

		expect(calls.map((call) => Object.fromEntries(call.url.searchParams))).toEqual([
			{ scope: 'form:f1', field: 'owner' },
			{ scope: 'form:f1', field: 'helper', search: 'ad' },
			{ scope: 'form:f1', database: 'db-clients', search: 'ac', field: 'client' },
		])
	})
})
