import { useEffect, useRef, useState } from 'react'
import { choiceInputClasses, type FieldProps, GroupFrame, OptionRow } from './field-frame.tsx'
import type { MatrixDraft } from './kind-values.ts'

// A matrix: rows × columns, one column per row (radios) or several (checkboxes). A table where
// it fits, each row a group named by its row header and each control by its row and column;
// where the form is too narrow for the columns (a phone, a small embed), the same rows stacked as
// groups of options. Chosen by the field's own width rather than the window's, so it is right
// inside the builder's preview and in embeds too.

/** Room the row headers take, and the least each column needs, in CSS pixels. */
const rowHeaderWidth = 140
const columnWidth = 72

function useIsNarrow(columns: number) {
	const ref = useRef<HTMLDivElement>(null)
	const [isNarrow, setIsNarrow] = useState(false)
	useEffect(() => {
		const element = ref.current
		if (!element || typeof ResizeObserver === 'undefined') {
			return
		}
		const needed = rowHeaderWidth + columns * columnWidth
		const observer = new ResizeObserver(([entry]) => {
			if (entry) {
				setIsNarrow(entry.contentRect.width < needed)
			}
		})
		observer.observe(element)
		return () => observer.disconnect()
	}, [columns])
	return { ref, isNarrow }
}

export function MatrixField(props: FieldProps) {
	const { field, value, onChange, controlId } = props
	const rows = field.matrix?.rows ?? []
	const columns = field.matrix?.columns ?? []
	const isMultiple = field.matrix?.multiple ?? false
	// Checked here rather than with kind-values' isMatrixDraft: importing code from this lazy chunk
	// would split kind-values out of the page's main chunk, which costs the first load more.
	const answers: MatrixDraft = typeof value === 'object' && value !== null && !Array.isArray(value) ? value : {}
	const { ref, isNarrow } = useIsNarrow(columns.length)

	const isChecked = (row: string, column: string) => {
		const cell = answers[row]
		return Array.isArray(cell) ? cell.includes(column) : cell === column
	}
	const pick = (row: string, column: string, isTicked: boolean) => {
		const next = { ...answers }
		if (isMultiple) {
			const current = answers[row]
			const ticked = Array.isArray(current) ? current : []
			// In the columns' order, as the answer is stored.
			const cells = columns.filter((candidate) => (candidate === column ? isTicked : ticked.includes(candidate)))
			if (cells.length > 0) {
				next[row] = cells
			} else {
				delete next[row]
			}
		} else {
			next[row] = column
		}
		onChange(next)
	}
	const inputId = (r: number, c: number) => (r === 0 && c === 0 ? controlId : `${controlId}-${r}-${c}`)
	const type = isMultiple ? 'checkbox' : 'radio'

	return (
		<GroupFrame {...props}>
			<div ref={ref} className="min-w-0">
				{isNarrow ? (
					<div className="grid gap-4">
						{rows.map((row, r) => (
							<fieldset key={row} className="grid min-w-0 gap-2">
								<legend className="mb-2 p-0 font-medium text-foreground text-sm">{row}</legend>
								{columns.map((column, c) => (
									<OptionRow
										key={column}
										type={type}
										id={inputId(r, c)}
										name={`${controlId}-row-${r}`}
										value={column}
										checked={isChecked(row, column)}
										onChange={(event) => pick(row, column, event.target.checked)}
									>
										{column}
									</OptionRow>
								))}
							</fieldset>
						))}
					</div>
				) : (
					<div className="overflow-x-auto rounded-md border border-input">
						<table className="w-full border-collapse text-foreground text-sm">
							<thead>
								<tr className="bg-muted/50">
									<td className="p-2" />
									{columns.map((column, c) => (
										<th
											key={column}
											id={`${controlId}-col-${c}`}
											scope="col"
											className="p-2 text-center font-medium text-[13px] text-muted-foreground leading-snug"
										>
											{column}
										</th>
									))}
								</tr>
							</thead>
							<tbody>
								{rows.map((row, r) => (
									// No group role on the row: it would hide the table's rows from screen readers; each
									// control is named by its row and column instead.
									<tr key={row} className="border-input border-t">
										<th
											id={`${controlId}-row-${r}`}
											scope="row"
											className="p-2 pl-3 text-left font-medium leading-snug"
										>
											{row}
										</th>
										{columns.map((column, c) => (
											<td key={column} className="p-0 text-center">
												{/* The whole cell is the target, at least 40 px high for thumbs. */}
												<label className="flex min-h-10 cursor-pointer items-center justify-center p-2 has-focus-visible:ring-3 has-focus-visible:ring-ring/40 has-focus-visible:ring-inset">
													<input
														type={type}
														id={inputId(r, c)}
														name={`${controlId}-row-${r}`}
														value={column}
														checked={isChecked(row, column)}
														aria-labelledby={`${controlId}-row-${r} ${controlId}-col-${c}`}
														className={`${choiceInputClasses} focus-visible:outline-hidden`}
														onChange={(event) => pick(row, column, event.target.checked)}
													/>
												</label>
											</td>
										))}
									</tr>
								))}
							</tbody>
						</table>
					</div>
				)}
			</div>
		</GroupFrame>
	)
}
