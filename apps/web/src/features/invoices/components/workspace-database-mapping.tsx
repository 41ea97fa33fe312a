import {
	type InvoiceDatabaseMapping,
	type InvoiceDatabaseState,
	invoiceDatabaseMappingSchema,
	rowStatusKeys,
} from '@blocksmith/contracts/invoice-workspace.ts'
import type { Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { databaseQuery } from '#src/workspaces/api/workspaces.ts'
import { saveInvoiceDatabase } from '../api/invoice-workspace.ts'
import { fieldErrorsOf } from './invoice-actions-errors.ts'
import {
	clientParts,
	fieldOfError,
	lineParts,
	messagesOf,
	ofTypes,
	type PlainField,
	plainFields,
	statusLabels,
} from './workspace-database-fields.ts'

// Which database holds the invoices and which property holds each part of one: every field a
// select of the properties of fitting types, filled in with the saved mapping or the server's
// suggestion, what is missing said in the server's words. A 400 lands on the field it names.

type Candidate = InvoiceDatabaseState['candidates'][number]

/** Every path a 400 may name that the form shows (`mapping.clientMapping` takes its parts too). */
const shownFields = [
	'databaseId',
	...plainFields.map(({ field }) => `mapping.${field}`),
	'mapping.statusOptions',
	'mapping.clientMapping',
	'mapping.lineItems',
]

const toolNames: Record<WorkspaceTool, string> = { local: 'Blocksmith', notion: 'Notion' }

/** Nothing mapped: the schema's defaults (it refuses an empty number, which only a form holds). */
const emptyMapping: InvoiceDatabaseMapping = { ...invoiceDatabaseMappingSchema.parse({ number: '-' }), number: '' }

function startOf(state: InvoiceDatabaseState, databaseId: string): InvoiceDatabaseMapping {
	if (state.mapped?.id === databaseId) {
		return state.mapped.review.mapping
	}
	return state.candidates.find((one) => one.id === databaseId)?.suggested.mapping ?? emptyMapping
}

export function WorkspaceDatabaseMapping({
	state,
	canEdit,
	onSaved,
}: {
	state: InvoiceDatabaseState
	canEdit: boolean
	onSaved?: () => void
}) {
	const queryClient = useQueryClient()
	const [databaseId, setDatabaseId] = useState(state.mapped?.id ?? state.candidates[0]?.id ?? '')
	const [mapping, setMapping] = useState(() => startOf(state, databaseId))
	const [errors, setErrors] = useState<Record<string, string>>({})
	const candidate: Candidate | undefined = state.candidates.find((one) => one.id === databaseId)
	const tool = candidate?.tool ?? state.mapped?.tool ?? 'local'
	const details = useQuery({ ...databaseQuery(tool, databaseId), enabled: Boolean(databaseId) })
	const properties = details.data?.properties ?? []
	const relationTarget = (propertyId: string | null) =>
		properties.find((property) => property.id === propertyId)?.relationDatabaseId ?? ''
	const clientsId = relationTarget(mapping.client)
	const linesId = relationTarget(mapping.lineItems?.propertyId ?? null)
	const clients = useQuery({ ...databaseQuery(tool, clientsId), enabled: Boolean(clientsId) })
	const lines = useQuery({ ...databaseQuery(tool, linesId), enabled: Boolean(linesId) })
	const review = state.mapped?.id === databaseId ? state.mapped.review : candidate?.suggested
	const messages = review ? messagesOf(review) : new Map<string, string>()

	const save = useMutation({
		mutationFn: () => saveInvoiceDatabase(tool, { databaseId, mapping }),
		meta: { isFormMutation: true },
		onSuccess: async (saved) => {
			await queryClient.invalidateQueries({ queryKey: ['invoices'] })
			toast.success(`${saved.mapped?.name ?? 'The database'} now holds your invoices.`)
			onSaved?.()
		},
		onError: (error) => {
			if (error instanceof ApiError && error.fieldErrors.length > 0) {
				const shown = fieldErrorsOf(error, shownFields)
				setErrors(Object.fromEntries(Object.entries(shown).map(([field, message]) => [fieldOfError(field), message])))
			}
		},
	})

	function choose(id: string): void {
		setDatabaseId(id)
		setMapping(startOf(state, id))
		setErrors({})
	}

	function submit(event: FormEvent): void {
		event.preventDefault()
		if (!mapping.number) {
			setErrors({ number: messages.get('number') ?? 'Choose the property that holds the invoice number.' })
			return
		}
		setErrors({})
		save.mutate()
	}

	if (state.candidates.length === 0 && !state.mapped) {
		return (
			<Alert variant="info" title="No database to choose yet">
				Connect a workspace or create a database for your invoices, then come back to map it.
			</Alert>
		)
	}

	const statusProperty = properties.find((property) => property.id === mapping.status)
	const missing = (['number', 'amount', 'status'] as const).filter((field) => !mapping[field])
	const select = (
		label: string,
		value: string | null,
		choices: Property[],
		onChange: (id: string | null) => void,
		error?: string,
		description?: string | null,
	) => (
		<Field key={label} label={label} error={error} description={description ?? undefined}>
			<NativeSelect value={value ?? ''} disabled={!canEdit} onChange={(event) => onChange(event.target.value || null)}>
				<option value="">Not written</option>
				{choices.map((property) => (
					<option key={property.id} value={property.id}>
						{property.name}
					</option>
				))}
			</NativeSelect>
		</Field>
	)

	return (
		<form className="grid gap-5" onSubmit={submit} noValidate aria-label="Invoices database mapping">
			<Field label="Database" error={errors.databaseId}>
				<NativeSelect value={databaseId} disabled={!canEdit} onChange={(event) => choose(event.target.value)}>
					{state.mapped && !candidate ? <option value={state.mapped.id}>{state.mapped.name}</option> : null}
					{state.candidates.map((one) => (
						<option key={one.id} value={one.id}>
							{one.name} ({toolNames[one.tool]})
						</option>
					))}
				</NativeSelect>
			</Field>
			{missing.length > 0 ? (
				<Alert variant="warning" title="Not everything is written to the rows yet">
					{missing.map((field) => messages.get(field) ?? `Choose a property for ${field}.`).join(' ')}
				</Alert>
			) : null}
			{details.isPending && databaseId ? (
				<Skeleton className="h-64 w-full" />
			) : (
				<>
					<div className="grid items-start gap-4 sm:grid-cols-2">
						{plainFields.map(({ field, label, types }) =>
							select(
								field === 'number' ? `${label} (required)` : label,
								mapping[field],
								ofTypes(properties, types),
								(id) => setMapping((current) => withField(current, field, id)),
								errors[field],
								mapping[field] ? null : messages.get(field),
							),
						)}
					</div>
					{statusProperty ? (
						<fieldset className="grid gap-3">
							<legend className="mb-1 font-medium text-sm">Status options of {statusProperty.name}</legend>
							<div className="grid items-start gap-4 sm:grid-cols-2">
								{rowStatusKeys.map((key) => (
									<Field key={key} label={statusLabels[key]} error={errors[`statusOptions.${key}`]}>
										<NativeSelect
											value={mapping.statusOptions[key] ?? ''}
											disabled={!canEdit}
											onChange={(event) =>
												setMapping((current) => ({
													...current,
													statusOptions: { ...current.statusOptions, [key]: event.target.value || null },
												}))
											}
										>
											<option value="">Not written</option>
											{(statusProperty.options ?? []).map((option) => (
												<option key={option.id} value={option.name}>
													{option.name}
												</option>
											))}
										</NativeSelect>
									</Field>
								))}
							</div>
							<UnwrittenStatuses mapping={mapping} />
						</fieldset>
					) : null}
					{mapping.client && clients.data ? (
						<fieldset className="grid gap-3">
							<legend className="mb-1 font-medium text-sm">Client details from {clients.data.name}</legend>
							{errors.clientMapping ? <p className="text-[13px] text-error">{errors.clientMapping}</p> : null}
							<div className="grid items-start gap-4 sm:grid-cols-2">
								{clientParts.map(({ part, label, types }) =>
									select(
										label,
										mapping.clientMapping?.[part] ?? null,
										ofTypes(clients.data.properties, types),
										(id) =>
											setMapping((current) => ({
												...current,
												clientMapping: withClientPart(current.clientMapping, part, id),
											})),
										errors[`clientMapping.${part}`],
									),
								)}
							</div>
						</fieldset>
					) : null}
					<fieldset className="grid gap-3">
						<legend className="mb-1 font-medium text-sm">Line items</legend>
						{select(
							'Relation to the line items',
							mapping.lineItems?.propertyId ?? null,
							ofTypes(properties, ['relation']).filter((property) => property.id !== mapping.client),
							(id) =>
								setMapping((current) => ({
									...current,
									lineItems: id ? { propertyId: id, mapping: { description: '', unitPrice: '' } } : null,
								})),
							errors['lineItems.propertyId'] ?? errors.lineItems,
							mapping.lineItems ? null : messages.get('lineItems'),
						)}
						{mapping.lineItems && lines.data ? (
							<div className="grid items-start gap-4 sm:grid-cols-2">
								{lineParts.map(({ part, label, types }) =>
									select(
										label,
										mapping.lineItems?.mapping[part] ?? null,
										ofTypes(lines.data.properties, types),
										(id) =>
											setMapping((current) =>
												current.lineItems
													? {
															...current,
															lineItems: {
																...current.lineItems,
																mapping: { ...current.lineItems.mapping, [part]: id ?? undefined },
															},
														}
													: current,
											),
										errors[`lineItems.mapping.${part}`],
									),
								)}
							</div>
						) : null}
					</fieldset>
				</>
			)}
			{canEdit ? (
				<div className="flex justify-end">
					<Button type="submit" isLoading={save.isPending} className="w-full sm:w-auto">
						Save mapping
					</Button>
				</div>
			) : (
				<p className="text-muted-foreground text-sm">Only owners and admins choose the invoices database.</p>
			)}
		</form>
	)
}

function withField(mapping: InvoiceDatabaseMapping, field: PlainField, id: string | null): InvoiceDatabaseMapping {
	const next = { ...mapping, [field]: id ?? (field === 'number' ? '' : null) }
	// The client's details are properties of the database the relation points at: another relation, other properties.
	if (field === 'client' && id !== mapping.client) {
		next.clientMapping = null
	}
	return next
}

type ClientMapping = NonNullable<InvoiceDatabaseMapping['clientMapping']>

/** A part of the client's details set or cleared; none left, no client mapping at all. */
function withClientPart(
	current: ClientMapping | null,
	part: keyof ClientMapping,
	id: string | null,
): ClientMapping | null {
	const next: Partial<ClientMapping> = { ...current }
	if (id) {
		next[part] = id
	} else {
		delete next[part]
	}
	if (Object.values(next).every((value) => !value)) {
		return null
	}
	// The name is required once any part is mapped: left empty, the server says so on its field.
	return { ...next, name: next.name ?? '' }
}

function UnwrittenStatuses({ mapping }: { mapping: InvoiceDatabaseMapping }) {
	const unwritten = rowStatusKeys.filter((key) => !mapping.statusOptions[key])
	if (unwritten.length === 0) {
		return null
	}
	return (
		<p className="text-muted-foreground text-sm">
			Not written (the row keeps what it has): {unwritten.map((key) => statusLabels[key]).join(', ')}.
		</p>
	)
}
