import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { Database, Property } from '@blocksmith/contracts/workspaces.ts'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { screen, within } from '@testing-library/react'
import { type ReactElement, useState } from 'react'
import { describe, expect, test } from 'vitest'
import { json, mockApi } from '#src/test/mock-api.tsx'
import { renderWithUser } from '#src/test/render.tsx'
import { database, makeForm } from '../testing.tsx'
import { ExposureNotice } from './exposure-notice.tsx'
import { FieldsEditor } from './fields-editor.tsx'

// A relation or people field shows every visitor its choices; the builder says so on the field.

const clients: Database = {
	...database,
	id: 'db2',
	name: 'Clients',
	properties: [{ id: 't', name: 'Name', type: 'title' }],
}
const client: Property = { id: 'client', name: 'Client', type: 'relation', relationDatabaseId: 'db2' }
const owner: Property = { id: 'owner', name: 'Account manager', type: 'people' }
const leads: Database = { ...database, properties: [...database.properties, client, owner] }

function databasesServer() {
	return mockApi(({ path, search }) => {
		if (path === '/dashboard/local/databases' && search.get('workspaceId') === 'ws1') {
			return json([leads, clients])
		}
		return undefined
	})
}

function withQueries(ui: ReactElement) {
	const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } })
	return renderWithUser(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>)
}

function Editor() {
	const [fields, setFields] = useState<FormField[]>(makeForm().fields)
	const [expandedId, setExpandedId] = useState<string | null>(null)
	return (
		<FieldsEditor
			fields={fields}
			properties={leads.properties}
			database={leads}
			uploads={{}}
			onUploaded={() => undefined}
			tool="local"
			workspaceId="ws1"
			errors={{}}
			expandedId={expandedId}
			onExpandedChange={setExpandedId}
			onFieldsChange={setFields}
			onFieldChange={(index, changes) =>
				setFields((current) => current.map((field, at) => (at === index ? { ...field, ...changes } : field)))
			}
			publicLink="http://localhost/forms/f1"
		/>
	)
}

describe('the notice on fields that show visitors their choices', () => {
	test('a relation field names the database whose rows every visitor will see', async () => {
		databasesServer()
		withQueries(
			<ExposureNotice field={{ id: 'f', kind: 'relation' }} property={client} tool="local" workspaceId="ws1" />,
		)
		expect(await screen.findByText('Visitors will see the names of every row in Clients.')).toBeInTheDocument()
	})

	test('a limited field says what it limits visitors to', async () => {
		databasesServer()
		const { rerender } = withQueries(
			<ExposureNotice
				field={{ id: 'f', kind: 'people', choiceScope: { mode: 'subset', ids: ['u1', 'u2'] } }}
				property={owner}
				tool="local"
				workspaceId="ws1"
			/>,
		)
		expect(screen.getByText('Visitors will see the names of the 2 people you chose.')).toBeInTheDocument()
		rerender(
			<QueryClientProvider client={new QueryClient()}>
				<ExposureNotice
					field={{ id: 'f', kind: 'relation', choiceScope: { mode: 'search' } }}
					property={client}
					tool="local"
					workspaceId="ws1"
				/>
			</QueryClientProvider>,
		)
		expect(
			screen.getByText('Visitors see no list: up to 10 matches appear once they type two letters.'),
		).toBeInTheDocument()
	})

	test('a people field says the workspace’s names are shown; plain fields say nothing', async () => {
		databasesServer()
		const { rerender } = withQueries(
			<ExposureNotice field={{ id: 'f', kind: 'people' }} property={owner} tool="local" workspaceId="ws1" />,
		)
		expect(screen.getByText('Visitors will see the names of everyone in this workspace.')).toBeInTheDocument()
		rerender(
			<QueryClientProvider client={new QueryClient()}>
				<ExposureNotice
					field={{ id: 'f', kind: 'short_text' }}
					property={database.properties[0]}
					tool="local"
					workspaceId="ws1"
				/>
			</QueryClientProvider>,
		)
		expect(screen.queryByText(/Visitors will see/)).not.toBeInTheDocument()
	})

	test('the plain fields of a form carry no notice; adding the Client relation shows it on that field', async () => {
		databasesServer()
		const { user } = withQueries(<Editor />)
		const list = screen.getByRole('list', { name: 'Fields' })
		expect(within(list).queryByText(/Visitors will see/)).not.toBeInTheDocument()

		await user.click(screen.getByRole('button', { name: 'Add' }))
		await user.click(await screen.findByRole('menuitem', { name: /Client/ }))
		const notice = await within(list).findByText('Visitors will see the names of every row in Clients.')
		expect(notice).toBeInTheDocument()
		// Read with the field's name by screen readers.
		expect(screen.getByRole('button', { name: 'Edit Client' })).toHaveAccessibleDescription(
			'Visitors will see the names of every row in Clients.',
		)

		await user.click(screen.getByRole('button', { name: 'Add' }))
		await user.click(await screen.findByRole('menuitem', { name: /Account manager/ }))
		expect(
			await within(list).findByText('Visitors will see the names of everyone in this workspace.'),
		).toBeInTheDocument()
	})
})
