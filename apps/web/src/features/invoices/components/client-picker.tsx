import type { ClientRow } from '@blocksmith/contracts/invoice-documents.ts'
import type { Database } from '@blocksmith/contracts/workspaces.ts'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { rowsQuery } from '#src/workspaces/api/workspaces.ts'
import type { ClientDraft, FieldErrors, InvoiceDraft } from '../lib/invoice-draft.ts'
import { DatabaseSelect, PropertySelect, useAllDatabases } from './rows-picker.tsx'

// Who is billed: typed in, or a row of a clients database with which property holds the name,
// e-mail, tax id and address (the server copies them from the row on each save, and freezes
// them when the invoice is finalized).

type Props = {
	draft: InvoiceDraft
	errors: FieldErrors
	onChange: (changes: Partial<InvoiceDraft>) => void
}

export function ClientPicker({ draft, errors, onChange }: Props) {
	return (
		<fieldset className="grid gap-3">
			<legend className="mb-2 font-semibold text-base">Client</legend>
			<div className="flex w-fit gap-1 rounded-lg bg-muted p-1">
				{(['typed', 'row'] as const).map((source) => (
					<Button
						key={source}
						size="sm"
						variant={draft.clientSource === source ? 'outline' : 'ghost'}
						aria-pressed={draft.clientSource === source}
						className="h-7"
						onClick={() => onChange({ clientSource: source })}
					>
						{source === 'typed' ? 'Typed in' : 'From a workspace row'}
					</Button>
				))}
			</div>
			{draft.clientSource === 'typed' ? (
				<TypedClient client={draft.client} errors={errors} onChange={(client) => onChange({ client })} />
			) : (
				<RowClient clientRow={draft.clientRow} errors={errors} onChange={(clientRow) => onChange({ clientRow })} />
			)}
		</fieldset>
	)
}

function TypedClient({
	client,
	errors,
	onChange,
}: {
	client: ClientDraft
	errors: FieldErrors
	onChange: (client: ClientDraft) => void
}) {
	const set = (key: keyof ClientDraft) => (event: { target: { value: string } }) =>
		onChange({ ...client, [key]: event.target.value })
	return (
		<div className="grid items-start gap-3 sm:grid-cols-2">
			<Field label="Client name" error={errors['client.name']}>
				<Input value={client.name} onChange={set('name')} autoComplete="organization" />
			</Field>
			<Field label="Client e-mail" error={errors['client.email']}>
				<Input type="email" value={client.email} onChange={set('email')} />
			</Field>
			<Field label="Client tax id" error={errors['client.taxId']}>
				<Input value={client.taxId} onChange={set('taxId')} />
			</Field>
			<Field label="Country" description="Two letters, e.g. DE" error={errors['client.address.country']}>
				<Input value={client.country} maxLength={2} onChange={set('country')} />
			</Field>
			<Field
				label="Address"
				description="One line each"
				error={errors['client.address.lines']}
				className="sm:col-span-2"
			>
				<Textarea rows={2} value={client.addressLines} onChange={set('addressLines')} />
			</Field>
			<Field label="Postcode" error={errors['client.address.postcode']}>
				<Input value={client.postcode} onChange={set('postcode')} />
			</Field>
			<Field label="City" error={errors['client.address.city']}>
				<Input value={client.city} onChange={set('city')} />
			</Field>
		</div>
	)
}

const mappingParts = [
	['name', 'Name'],
	['email', 'E-mail'],
	['taxId', 'Tax id'],
	['addressLines', 'Address lines'],
	['postcode', 'Postcode'],
	['city', 'City'],
	['country', 'Country'],
] as const

function RowClient({
	clientRow,
	errors,
	onChange,
}: {
	clientRow: ClientRow | null
	errors: FieldErrors
	onChange: (clientRow: ClientRow | null) => void
}) {
	const { databases } = useAllDatabases()
	const [databaseId, setDatabaseId] = useState(clientRow?.databaseId ?? '')
	const [search, setSearch] = useState('')
	const database = databases.find((candidate) => candidate.id === databaseId)
	const rows = useQuery({
		...rowsQuery(database?.tool ?? 'local', databaseId, { offset: 0, limit: 50, search }),
		enabled: Boolean(database),
	})
	// The mapping is chosen before the row: kept here until a row makes it a clientRow.
	const [shown, setShown] = useState<ClientRow['mapping']>(clientRow?.mapping ?? { name: '' })

	function choose(next: Database | undefined): void {
		setDatabaseId(next?.id ?? '')
		const title = next?.properties.find((property) => property.type === 'title')?.id ?? ''
		const email = next?.properties.find((property) => property.type === 'email')?.id
		setShown({ name: title, ...(email ? { email } : {}) })
		onChange(null)
	}

	function setMapping(part: string, value: string): void {
		const next = { ...shown, [part]: value || undefined } as ClientRow['mapping']
		setShown(next)
		if (clientRow) {
			onChange({ ...clientRow, mapping: next })
		}
	}

	return (
		<div className="grid gap-3">
			<DatabaseSelect label="Clients database" databases={databases} value={databaseId} onChange={choose} />
			{database ? (
				<>
					<div className="grid gap-3 sm:grid-cols-2">
						<Field label="Search clients">
							<Input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
						</Field>
						<Field label="Client row" error={errors['clientRow.rowId']}>
							<NativeSelect
								value={clientRow?.rowId ?? ''}
								onChange={(event) =>
									onChange(
										event.target.value ? { databaseId: database.id, rowId: event.target.value, mapping: shown } : null,
									)
								}
							>
								<option value="">Choose a client</option>
								{(rows.data?.rows ?? []).map((row) => (
									<option key={row.id} value={row.id}>
										{row.title || 'Untitled'}
									</option>
								))}
							</NativeSelect>
						</Field>
					</div>
					<div className="grid gap-3 sm:grid-cols-3">
						{mappingParts.map(([part, label]) => (
							<PropertySelect
								key={part}
								label={label}
								isOptional={part !== 'name'}
								properties={database.properties}
								value={shown[part] ?? ''}
								onChange={(value) => setMapping(part, value)}
								error={errors[`clientRow.mapping.${part}`]}
							/>
						))}
					</div>
				</>
			) : null}
		</div>
	)
}
