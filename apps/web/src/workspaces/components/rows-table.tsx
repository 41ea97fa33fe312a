import type {
	Database,
	Property,
	PropertyValue,
	Row,
	RowPage,
	RowSort,
	RowValues,
} from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { ArrowDown, ArrowUp, ArrowUpDown, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { deleteRow, updateRow, workspaceKeys } from '../api/workspaces.ts'
import { typeLabels } from '../lib/values.ts'
import { EditableCell, ValueView } from './cells.tsx'

type RowsTableProps = {
	database: Database
	rows: readonly Row[]
	isEditable: boolean
	sorts: readonly RowSort[]
	onSortsChange: (sorts: RowSort[]) => void
	/** A row just added: highlighted, with its title open for typing. */
	highlightedRowId?: string | null
}

/** Title first, then the other properties in the database's order. */
export function orderedProperties(database: Database): Property[] {
	const title = database.properties.filter((property) => property.type === 'title')
	return [...title, ...database.properties.filter((property) => property.type !== 'title')]
}

function cellKey(rowId: string, propertyId: string): string {
	return `${rowId}\u0000${propertyId}`
}

function replaceRow(page: RowPage | undefined, rowId: string, change: (row: Row) => Row): RowPage | undefined {
	if (!page?.rows.some((row) => row.id === rowId)) {
		return page
	}
	return { ...page, rows: page.rows.map((row) => (row.id === rowId ? change(row) : row)) }
}

/** The property a field error names: `values.<id>`, `values.<id>.start`, `<id>`; else the only one written. */
function propertyOfField(field: string, values: RowValues): string | undefined {
	const path = field.replace(/^values\./, '')
	const ids = Object.keys(values)
	return ids.find((id) => path === id || path.startsWith(`${id}.`)) ?? (ids.length === 1 ? ids[0] : undefined)
}

/**
 * Writes one cell at a time: the table shows the new value at once, goes back to the old one if the
 * server refuses, and puts the server's field error on the cell.
 */
function useCellWriter(database: Database) {
	const queryClient = useQueryClient()
	const [errors, setErrors] = useState<Record<string, string>>({})
	const prefix = workspaceKeys.rows(database.tool, database.id)
	const title = database.properties.find((property) => property.type === 'title')
	const mutation = useMutation({
		mutationFn: updateRow,
		// Field errors go on their cells, not in the global toast.
		meta: { isFormMutation: true },
		onMutate: async (input) => {
			await queryClient.cancelQueries({ queryKey: prefix })
			const snapshot = queryClient.getQueriesData<RowPage>({ queryKey: prefix })
			queryClient.setQueriesData<RowPage>({ queryKey: prefix }, (page) =>
				replaceRow(page, input.rowId, (row) => ({
					...row,
					values: { ...row.values, ...input.values },
					title: title && typeof input.values[title.id] === 'string' ? String(input.values[title.id]) : row.title,
				})),
			)
			return { snapshot }
		},
		onError: (error, input, context) => {
			for (const [key, data] of context?.snapshot ?? []) {
				queryClient.setQueryData(key, data)
			}
			if (error instanceof ApiError && error.fieldErrors.length > 0) {
				const found: Record<string, string> = {}
				for (const { field, message } of error.fieldErrors) {
					const propertyId = propertyOfField(field, input.values)
					if (propertyId) {
						found[cellKey(input.rowId, propertyId)] = message
					}
				}
				setErrors((current) => ({ ...current, ...found }))
				toast.error(error.detail, { description: error.fieldErrors.map(({ message }) => message).join('\n') })
			}
		},
		onSuccess: (saved) => {
			queryClient.setQueriesData<RowPage>({ queryKey: prefix }, (page) => replaceRow(page, saved.id, () => saved))
		},
	})
	function write(rowId: string, propertyId: string, value: PropertyValue): void {
		setErrors((current) => {
			const { [cellKey(rowId, propertyId)]: _cleared, ...rest } = current
			return rest
		})
		mutation.mutate({ databaseId: database.id, rowId, values: { [propertyId]: value } })
	}
	return { write, errorOf: (rowId: string, propertyId: string) => errors[cellKey(rowId, propertyId)] }
}

function nextSort(sorts: readonly RowSort[], propertyId: string): RowSort[] {
	const current = sorts[0]?.property === propertyId ? sorts[0].direction : null
	if (current === null) {
		return [{ property: propertyId, direction: 'ascending' }]
	}
	return current === 'ascending' ? [{ property: propertyId, direction: 'descending' }] : []
}

/** The spreadsheet: a header that sorts, a cell per property, and (for `local`) editing and deleting. */
export function RowsTable({ database, rows, isEditable, sorts, onSortsChange, highlightedRowId }: RowsTableProps) {
	const properties = orderedProperties(database)
	const writer = useCellWriter(database)
	const queryClient = useQueryClient()
	const remove = useMutation({
		mutationFn: deleteRow,
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: workspaceKeys.rows(database.tool, database.id) })
			await queryClient.invalidateQueries({ queryKey: workspaceKeys.database(database.tool, database.id) })
			toast.success('The row was deleted.')
		},
	})

	return (
		<div className="relative w-full overflow-x-auto rounded-lg border bg-card [contain:inline-size]">
			<table className="w-full border-collapse text-sm" aria-label={`Rows of ${database.name}`}>
				<thead className="sticky top-0 z-10 bg-muted/60 backdrop-blur">
					<tr className="border-b">
						{properties.map((property) => {
							const direction = sorts[0]?.property === property.id ? sorts[0].direction : null
							const Icon = direction === 'ascending' ? ArrowUp : direction === 'descending' ? ArrowDown : ArrowUpDown
							return (
								<th
									key={property.id}
									scope="col"
									aria-sort={direction ?? 'none'}
									className={cn(
										'h-9 whitespace-nowrap border-r px-1 text-left align-middle font-medium text-muted-foreground text-xs last:border-r-0',
										property.type === 'number' && 'text-right',
									)}
								>
									<button
										type="button"
										className={cn(
											'group inline-flex h-8 w-full items-center gap-1.5 rounded-sm px-1.5 hover:bg-accent hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-hidden',
											property.type === 'number' && 'justify-end',
										)}
										title={`${typeLabels[property.type]} · click to sort`}
										onClick={() => onSortsChange(nextSort(sorts, property.id))}
									>
										<span className="truncate">{property.name}</span>
										<Icon
											aria-hidden
											className={cn(
												'size-3.5 shrink-0',
												direction ? 'text-foreground' : 'opacity-0 group-hover:opacity-60',
											)}
										/>
									</button>
								</th>
							)
						})}
						{isEditable ? (
							<th scope="col" className="w-10 px-1">
								<span className="sr-only">Actions</span>
							</th>
						) : null}
					</tr>
				</thead>
				<tbody>
					{rows.map((row) => (
						<tr
							key={row.id}
							className={cn(
								'border-b transition-colors last:border-b-0 hover:bg-muted/30',
								row.id === highlightedRowId && 'bg-primary/5',
							)}
						>
							{properties.map((property) => (
								<td
									key={property.id}
									className={cn(
										'max-w-96 overflow-hidden whitespace-nowrap border-r px-1 py-0.5 align-middle last:border-r-0',
										property.type === 'number' && 'text-right',
									)}
								>
									{isEditable ? (
										<EditableCell
											property={property}
											value={row.values[property.id]}
											rowLabel={row.title}
											error={writer.errorOf(row.id, property.id)}
											startsEditing={row.id === highlightedRowId && property.type === 'title'}
											onSave={(value) => writer.write(row.id, property.id, value)}
										/>
									) : (
										<div className="flex min-h-8 items-center px-1.5">
											<ValueView property={property} value={row.values[property.id]} rowId={row.id} />
										</div>
									)}
								</td>
							))}
							{isEditable ? (
								<td className="px-1 text-right">
									<ConfirmDialog
										title={`Delete ${row.title ? `“${row.title}”` : 'this row'}?`}
										description="The row and its values are removed. This cannot be undone."
										confirmLabel="Delete"
										isDestructive
										onConfirm={() => remove.mutateAsync({ databaseId: database.id, rowId: row.id })}
										trigger={
											<Button
												variant="ghost"
												size="icon-sm"
												className="text-muted-foreground"
												aria-label={`Delete row ${row.title || 'Untitled'}`}
											>
												<Trash2 aria-hidden />
											</Button>
										}
									/>
								</td>
							) : null}
						</tr>
					))}
				</tbody>
			</table>
		</div>
	)
}
