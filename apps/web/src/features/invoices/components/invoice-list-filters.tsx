import { currencyCodes } from '@blocksmith/contracts/invoice-currencies.ts'
import { SlidersHorizontal, X } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import type { FieldErrors } from '../lib/invoice-draft.ts'
import { filterKeys, type ListFilterValues } from '../lib/invoice-list-filters.ts'

// The list's filters, kept in the address (a filtered list can be bookmarked and shared). Text
// fields wait for typing to rest before they change the address.

const statuses = [
	['', 'Any status'],
	['draft', 'Draft'],
	['finalized', 'Finalized'],
	['sent', 'Sent'],
	['overdue', 'Overdue'],
	['partially_paid', 'Partially paid'],
	['paid', 'Paid'],
	['void', 'Void'],
] as const

export function InvoiceListFilters({
	values,
	errors,
	onChange,
	clientLabel,
}: {
	values: ListFilterValues
	errors: FieldErrors
	onChange: (values: ListFilterValues) => void
	/** The client's name when `clientId` is a row id. */
	clientLabel?: string | undefined
}) {
	const set = (key: keyof ListFilterValues, value: string) => onChange({ ...values, [key]: value })
	const isFiltered = filterKeys.some((key) => values[key])
	const count = filterKeys.filter((key) => values[key]).length
	// On a phone the nine fields would push the list off the screen: they open on demand.
	const [isOpen, setIsOpen] = useState(false)
	return (
		<div className="grid gap-3">
			<Button
				variant="outline"
				className="w-fit md:hidden"
				aria-expanded={isOpen}
				aria-controls="invoice-filters"
				onClick={() => setIsOpen(!isOpen)}
			>
				<SlidersHorizontal aria-hidden /> Filters{count ? ` (${count})` : ''}
			</Button>
			<form
				id="invoice-filters"
				aria-label="Filter invoices"
				onSubmit={(event) => event.preventDefault()}
				className={cn(!isOpen && 'max-md:hidden', 'grid grid-cols-2 items-end gap-3 md:grid-cols-4 xl:grid-cols-5')}
			>
				<div className="col-span-2">
					<DebouncedField label="Client or number" value={values.search} onChange={(value) => set('search', value)} />
				</div>
				<Field label="Status">
					<NativeSelect value={values.status} onChange={(event) => set('status', event.target.value)}>
						{statuses.map(([value, label]) => (
							<option key={value} value={value}>
								{label}
							</option>
						))}
					</NativeSelect>
				</Field>
				<Field label="Kind">
					<NativeSelect value={values.kind} onChange={(event) => set('kind', event.target.value)}>
						<option value="">Any</option>
						<option value="invoice">Invoices</option>
						<option value="credit_note">Credit notes</option>
					</NativeSelect>
				</Field>
				<Field label="Currency" error={errors.currency}>
					<NativeSelect value={values.currency} onChange={(event) => set('currency', event.target.value)}>
						<option value="">Any</option>
						{currencyCodes.map((code) => (
							<option key={code} value={code}>
								{code}
							</option>
						))}
					</NativeSelect>
				</Field>
				<Field label="Issued from" error={errors.from}>
					<Input type="date" value={values.from} onChange={(event) => set('from', event.target.value)} />
				</Field>
				<Field label="Issued to" error={errors.to}>
					<Input type="date" value={values.to} onChange={(event) => set('to', event.target.value)} />
				</Field>
				<DebouncedField
					label="Total from"
					value={values.amountMin}
					error={errors.amountMin}
					onChange={(value) => set('amountMin', value)}
				/>
				<DebouncedField
					label="Total to"
					value={values.amountMax}
					error={errors.amountMax}
					onChange={(value) => set('amountMax', value)}
				/>
				{isFiltered ? (
					<div className="col-span-2 flex flex-wrap items-center gap-2 md:col-span-4 xl:col-span-5">
						{values.clientId ? (
							<Button variant="outline" size="sm" onClick={() => set('clientId', '')}>
								Client: {clientLabel ?? values.clientId} <X aria-hidden />
								<span className="sr-only">(remove)</span>
							</Button>
						) : null}
						<Button
							variant="ghost"
							size="sm"
							onClick={() => onChange(Object.fromEntries(filterKeys.map((key) => [key, ''])) as ListFilterValues)}
						>
							<X aria-hidden /> Clear the filters
						</Button>
					</div>
				) : null}
			</form>
		</div>
	)
}

function DebouncedField({
	label,
	value,
	error,
	onChange,
}: {
	label: string
	value: string
	error?: string | undefined
	onChange: (value: string) => void
}) {
	const [text, setText] = useState(value)
	useEffect(() => setText(value), [value])
	useEffect(() => {
		if (text === value) {
			return
		}
		const timer = setTimeout(() => onChange(text), 400)
		return () => clearTimeout(timer)
	}, [text, value, onChange])
	return (
		<Field label={label} error={error}>
			<Input
				inputMode={label.startsWith('Total') ? 'decimal' : undefined}
				type={label.startsWith('Total') ? 'text' : 'search'}
				value={text}
				onChange={(event) => setText(event.target.value)}
			/>
		</Field>
	)
}
