import type { SavedInvoiceFilter } from '@blocksmith/contracts/invoice-filters.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Bookmark, Download, Trash2 } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog, Dialog, DialogContent, DialogFooter } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import {
	createInvoiceFilter,
	deleteInvoiceFilter,
	downloadInvoicesCsv,
	type InvoiceListFilters,
	invoiceFiltersQuery,
	invoiceKeys,
} from '../api/invoices.ts'
import { filterKeys, type ListFilterValues, queryFromFilters } from '../lib/invoice-list-filters.ts'

// Saved filters of the list (the organization's, shared by the team): choosing one puts its
// fields into the address like any filter; the current filters can be saved under a name. And
// the CSV export of what the filters select (every page, not only the one shown).

export function InvoiceListSaved({
	values,
	onApply,
}: {
	values: ListFilterValues
	onApply: (values: ListFilterValues) => void
}) {
	const queryClient = useQueryClient()
	const filters = useQuery({ ...invoiceFiltersQuery, meta: { isErrorShownInPage: true } })
	const [isNaming, setIsNaming] = useState(false)
	const [isExporting, setIsExporting] = useState(false)
	const query = queryFromFilters(values)
	// The saved filter whose fields are exactly the current ones, if any.
	const current = filters.data?.find((filter) => sameFilter(filter.filter, query))
	const isFiltered = Object.keys(query).length > 0

	const remove = useMutation({
		mutationFn: deleteInvoiceFilter,
		onSuccess: () => queryClient.invalidateQueries({ queryKey: invoiceKeys.filters }),
	})

	async function exportCsv(): Promise<void> {
		setIsExporting(true)
		try {
			await downloadInvoicesCsv(query)
		} catch (error) {
			toast.error(errorMessage(error))
		} finally {
			setIsExporting(false)
		}
	}

	return (
		<div className="flex flex-wrap items-end gap-2">
			{filters.data?.length ? (
				<Field label="Saved filters">
					<NativeSelect
						value={current?.id ?? ''}
						onChange={(event) => {
							const chosen = filters.data?.find((filter) => filter.id === event.target.value)
							if (chosen) {
								onApply(valuesOf(chosen.filter))
							}
						}}
					>
						<option value="">{current ? '' : 'Choose a saved filter'}</option>
						{filters.data.map((filter) => (
							<option key={filter.id} value={filter.id}>
								{filter.name}
							</option>
						))}
					</NativeSelect>
				</Field>
			) : null}
			{current ? (
				<ConfirmDialog
					title={`Delete the filter “${current.name}”?`}
					description="The saved filter goes away for the whole team; no invoice changes."
					confirmLabel="Delete"
					isDestructive
					onConfirm={() => remove.mutateAsync(current.id)}
					trigger={
						<Button variant="ghost" size="icon" aria-label={`Delete the filter ${current.name}`}>
							<Trash2 aria-hidden />
						</Button>
					}
				/>
			) : null}
			{isFiltered && !current ? (
				<Button variant="outline" onClick={() => setIsNaming(true)}>
					<Bookmark aria-hidden /> Save these filters
				</Button>
			) : null}
			<Button variant="outline" onClick={exportCsv} isLoading={isExporting}>
				{isExporting ? null : <Download aria-hidden />} Export CSV
			</Button>
			<SaveFilterDialog open={isNaming} onOpenChange={setIsNaming} filter={query} />
		</div>
	)
}

function SaveFilterDialog({
	open,
	onOpenChange,
	filter,
}: {
	open: boolean
	onOpenChange: (open: boolean) => void
	filter: InvoiceListFilters
}) {
	const queryClient = useQueryClient()
	const [name, setName] = useState('')
	const save = useMutation({
		mutationFn: createInvoiceFilter,
		meta: { isErrorShownInPage: true },
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: invoiceKeys.filters })
			setName('')
			onOpenChange(false)
		},
	})
	const nameError =
		save.error instanceof ApiError
			? save.error.fieldErrors.find((item) => item.field === 'name')?.message
			: save.error
				? errorMessage(save.error)
				: undefined
	function submit(event: FormEvent): void {
		event.preventDefault()
		// The address may hold any text: the server checks each field (a 400 names it).
		save.mutate({ name, filter: filter as SavedInvoiceFilter })
	}
	return (
		<Dialog open={open} onOpenChange={onOpenChange}>
			<DialogContent title="Save these filters" description="The team sees saved filters in this list.">
				<form className="grid gap-4" onSubmit={submit} noValidate>
					<Field label="Name" error={nameError}>
						<Input value={name} onChange={(event) => setName(event.target.value)} />
					</Field>
					<DialogFooter>
						<Button type="submit" isLoading={save.isPending}>
							Save
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}

function valuesOf(filter: SavedInvoiceFilter): ListFilterValues {
	return Object.fromEntries(
		filterKeys.map((key) => [key, (filter as Record<string, string | undefined>)[key] ?? '']),
	) as ListFilterValues
}

function sameFilter(saved: SavedInvoiceFilter, query: Record<string, string | undefined>): boolean {
	const savedValues = valuesOf(saved)
	return filterKeys.every((key) => (savedValues[key] || undefined) === (query[key] || undefined))
}
