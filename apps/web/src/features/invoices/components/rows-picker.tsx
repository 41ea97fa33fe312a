import type { LinesFromRows } from '@blocksmith/contracts/invoice-documents.ts'
import type { TaxRate } from '@blocksmith/contracts/invoices.ts'
import type { Database, Property } from '@blocksmith/contracts/workspaces.ts'
import { useQueries, useQuery } from '@tanstack/react-query'
import { Rows3 } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Checkbox } from '#src/components/ui/checkbox.tsx'
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { databasesQuery, rowsQuery, workspacesQuery } from '#src/workspaces/api/workspaces.ts'
import { plainText } from '#src/workspaces/lib/values.ts'
import { type FieldErrors, rateLabel } from '../lib/invoice-draft.ts'

// "Add from rows": a database of any connected workspace, some of its rows ticked, and which
// property gives each part of a line. The server reads the rows from the mirror and adds the lines.

/** Every database of every workspace, for a chooser. */
export function useAllDatabases() {
	const workspaces = useQuery(workspacesQuery)
	const lists = useQueries({
		queries: (workspaces.data ?? []).map((workspace) => databasesQuery(workspace.tool, workspace.id)),
	})
	return {
		databases: lists.flatMap((list) => list.data ?? []),
		isPending: workspaces.isPending || lists.some((list) => list.isPending),
	}
}

/** A select of properties (by id), with "none" when the part is optional. */
export function PropertySelect({
	label,
	properties,
	value,
	onChange,
	isOptional = false,
	error,
}: {
	label: string
	properties: Property[]
	value: string
	onChange: (value: string) => void
	isOptional?: boolean
	error?: string | undefined
}) {
	return (
		<Field label={label} error={error} isRequired={!isOptional}>
			<NativeSelect value={value} onChange={(event) => onChange(event.target.value)}>
				<option value="">{isOptional ? 'None' : 'Choose a property'}</option>
				{properties.map((property) => (
					<option key={property.id} value={property.id}>
						{property.name}
					</option>
				))}
			</NativeSelect>
		</Field>
	)
}

export function DatabaseSelect({
	databases,
	value,
	onChange,
	label = 'Database',
}: {
	databases: Database[]
	value: string
	onChange: (database: Database | undefined) => void
	label?: string
}) {
	return (
		<Field label={label} isRequired>
			<NativeSelect value={value} onChange={(event) => onChange(databases.find((db) => db.id === event.target.value))}>
				<option value="">Choose a database</option>
				{databases.map((database) => (
					<option key={database.id} value={database.id}>
						{database.name}
					</option>
				))}
			</NativeSelect>
		</Field>
	)
}

/** The property of one of `types` whose name says it is the part, or '' when none does. */
const byName = (properties: Property[], types: string[], names: RegExp) =>
	properties.find((property) => types.includes(property.type) && names.test(property.name))?.id ?? ''

/** As `byName`, else the first property of those types (a title is the description, whatever its name). */
const guess = (properties: Property[], types: string[], names: RegExp) =>
	byName(properties, types, names) || (properties.find((property) => types.includes(property.type))?.id ?? '')

export function RowsPicker({
	taxRates,
	onAdd,
}: {
	taxRates: TaxRate[]
	/** Adds the lines (saving the draft first); rejects with the server's error. */
	onAdd: (input: LinesFromRows) => Promise<void>
}) {
	const [isOpen, setIsOpen] = useState(false)
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button variant="outline">
					<Rows3 aria-hidden /> Add from rows
				</Button>
			</DialogTrigger>
			<DialogContent
				size="lg"
				title="Add lines from rows"
				description="A line per row you tick, with its description, quantity, unit and price from the properties you choose."
			>
				{isOpen ? (
					<RowsForm
						taxRates={taxRates}
						onAdd={async (input) => {
							await onAdd(input)
							setIsOpen(false)
						}}
					/>
				) : null}
			</DialogContent>
		</Dialog>
	)
}

function RowsForm({ taxRates, onAdd }: { taxRates: TaxRate[]; onAdd: (input: LinesFromRows) => Promise<void> }) {
	const { databases, isPending } = useAllDatabases()
	const [database, setDatabase] = useState<Database | undefined>()
	const [search, setSearch] = useState('')
	const [ticked, setTicked] = useState<string[]>([])
	const [mapping, setMapping] = useState({ description: '', quantity: '', unit: '', unitPrice: '' })
	const [taxRateId, setTaxRateId] = useState(taxRates.find((rate) => rate.isDefault)?.id ?? taxRates[0]?.id ?? '')
	const [errors, setErrors] = useState<FieldErrors>({})
	const [failure, setFailure] = useState<string | null>(null)
	const [isAdding, setIsAdding] = useState(false)
	const rows = useQuery({
		...rowsQuery(database?.tool ?? 'local', database?.id ?? '', { offset: 0, limit: 100, search }),
		enabled: Boolean(database),
	})
	const properties = database?.properties ?? []

	function choose(next: Database | undefined): void {
		setDatabase(next)
		setTicked([])
		const props = next?.properties ?? []
		setMapping({
			description: guess(props, ['title'], /name|title|description/i),
			// Only by name: any number would do as a quantity, and on a Projects database the first
			// one is the budget, which then multiplied the price by itself (2,500 × 2,500).
			quantity: byName(props, ['number'], /qty|quantity|hours|amount of/i),
			unit: byName(props, ['select', 'rich_text'], /unit/i),
			unitPrice: guess(props, ['number', 'formula', 'rollup'], /price|rate|fee|budget/i),
		})
	}

	async function submit(): Promise<void> {
		if (!database) {
			return
		}
		setIsAdding(true)
		setFailure(null)
		try {
			await onAdd({
				databaseId: database.id,
				rowIds: ticked,
				mapping: {
					description: mapping.description,
					unitPrice: mapping.unitPrice,
					...(mapping.quantity ? { quantity: mapping.quantity } : {}),
					...(mapping.unit ? { unit: mapping.unit } : {}),
				},
				...(taxRateId ? { taxRateId } : {}),
			})
		} catch (error) {
			const fields = (error as { fieldErrors?: { field: string; message: string }[] }).fieldErrors ?? []
			setErrors(Object.fromEntries(fields.map((item) => [item.field, item.message])))
			setFailure(errorMessage(error))
		} finally {
			setIsAdding(false)
		}
	}

	if (isPending) {
		return <Skeleton className="h-32 w-full" />
	}
	if (databases.length === 0) {
		return <p className="text-muted-foreground text-sm">No databases yet: connect a workspace or create one first.</p>
	}
	return (
		<div className="grid gap-4">
			<DatabaseSelect databases={databases} value={database?.id ?? ''} onChange={choose} />
			{database ? (
				<>
					<div className="grid gap-3 sm:grid-cols-2">
						<PropertySelect
							label="Description"
							properties={properties}
							value={mapping.description}
							onChange={(value) => setMapping({ ...mapping, description: value })}
							error={errors['mapping.description']}
						/>
						<PropertySelect
							label="Unit price"
							properties={properties}
							value={mapping.unitPrice}
							onChange={(value) => setMapping({ ...mapping, unitPrice: value })}
							error={errors['mapping.unitPrice']}
						/>
						<PropertySelect
							label="Quantity"
							isOptional
							properties={properties}
							value={mapping.quantity}
							onChange={(value) => setMapping({ ...mapping, quantity: value })}
							error={errors['mapping.quantity']}
						/>
						<PropertySelect
							label="Unit"
							isOptional
							properties={properties}
							value={mapping.unit}
							onChange={(value) => setMapping({ ...mapping, unit: value })}
							error={errors['mapping.unit']}
						/>
						<Field label="Tax rate" error={errors.taxRateId}>
							<NativeSelect value={taxRateId} onChange={(event) => setTaxRateId(event.target.value)}>
								{taxRates.map((rate) => (
									<option key={rate.id} value={rate.id}>
										{rateLabel(rate)}
									</option>
								))}
							</NativeSelect>
						</Field>
					</div>
					<Field label="Search rows">
						<Input type="search" value={search} onChange={(event) => setSearch(event.target.value)} />
					</Field>
					<fieldset className="grid max-h-64 gap-1 overflow-y-auto rounded-lg border p-2">
						<legend className="sr-only">Rows</legend>
						{rows.isPending ? (
							<Skeleton className="h-16 w-full" />
						) : rows.isError ? (
							<Alert variant="error" title="The rows could not be loaded">
								{errorMessage(rows.error)}
							</Alert>
						) : rows.data.rows.length === 0 ? (
							<p className="p-2 text-muted-foreground text-sm">No rows.</p>
						) : (
							rows.data.rows.map((row) => {
								const price = properties.find((property) => property.id === mapping.unitPrice)
								return (
									<Field key={row.id} label={row.title || 'Untitled'} orientation="horizontal">
										<Checkbox
											checked={ticked.includes(row.id)}
											onCheckedChange={(checked) =>
												setTicked(checked === true ? [...ticked, row.id] : ticked.filter((id) => id !== row.id))
											}
											aria-description={price ? plainText(row.values[price.id], price) : undefined}
										/>
									</Field>
								)
							})
						)}
					</fieldset>
					{errors.rowIds ? <p className="text-error text-sm">{errors.rowIds}</p> : null}
				</>
			) : null}
			{failure ? (
				<Alert variant="error" title="The lines could not be added">
					{failure}
				</Alert>
			) : null}
			<DialogFooter>
				<Button
					onClick={submit}
					isLoading={isAdding}
					disabled={!database || ticked.length === 0 || !mapping.description || !mapping.unitPrice}
				>
					Add {ticked.length === 1 ? '1 line' : `${ticked.length} lines`}
				</Button>
			</DialogFooter>
		</div>
	)
}
