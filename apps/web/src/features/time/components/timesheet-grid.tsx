import type { Timesheet, TimesheetRow } from '@blocksmith/contracts/time.ts'
import { formatDuration, parseDuration } from '@blocksmith/contracts/time-duration.ts'
import { Check, CircleAlert, Timer } from 'lucide-react'
import { type KeyboardEvent, useRef, useState } from 'react'
import { cn } from '#src/components/ui/cn.ts'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { dayHead, dayName } from './timesheet-week.ts'

// The week as a spreadsheet: a real table, one labelled input per project/task and day. A cell
// is saved when it is left (blur, Enter, an arrow): typed text is parsed at once for the
// message, and sent as typed for the server to parse again. Escape puts the saved figure back.

/** A row of the grid: the server's, or one added here that has no time yet. */
export type GridRow = Pick<TimesheetRow, 'key' | 'project' | 'projectName' | 'task' | 'seconds' | 'entries'>

type CellStatus = { state: 'saving'; typed: string } | { state: 'saved' } | { state: 'error'; message: string }

type TimesheetGridProps = {
	sheet: Timesheet
	rows: GridRow[]
	/** The row and day a running timer adds to, and the seconds it added since the week was read. */
	running: { rowKey: string; dayIndex: number; seconds: number } | null
	/** Saves one cell; rejects with the API's error. */
	onSave: (row: GridRow, date: string, typed: string) => Promise<void>
}

const cellId = (rowKey: string, dayIndex: number) => `${rowKey}|${dayIndex}`

function rowLabel(row: Pick<GridRow, 'projectName' | 'project' | 'task'>): string {
	const project = row.projectName ?? row.project ?? 'No project'
	return row.task ? `${project} · ${row.task}` : project
}

function shown(seconds: number, entries: number): string {
	return seconds === 0 && entries === 0 ? '' : formatDuration(seconds)
}

function shrinkMessage(entries: number): string {
	return `Not saved: this day holds ${entries} entries, so it can only grow here. To shorten it, edit its entries on the Timer page.`
}

export function TimesheetGrid({ sheet, rows, running, onSave }: TimesheetGridProps) {
	const [drafts, setDrafts] = useState<Record<string, string>>({})
	const [statuses, setStatuses] = useState<Record<string, CellStatus>>({})
	const tableRef = useRef<HTMLTableElement>(null)

	const secondsOf = (row: GridRow, dayIndex: number) =>
		(row.seconds[dayIndex] ?? 0) +
		(running && running.rowKey === row.key && running.dayIndex === dayIndex ? running.seconds : 0)
	const dayTotals = sheet.days.map((_, dayIndex) => rows.reduce((sum, row) => sum + secondsOf(row, dayIndex), 0))
	const weekTotal = dayTotals.reduce((sum, seconds) => sum + seconds, 0)

	function setDraft(id: string, value: string | undefined): void {
		setDrafts((current) => {
			const next = { ...current }
			if (value === undefined) {
				delete next[id]
			} else {
				next[id] = value
			}
			return next
		})
	}

	function setStatus(id: string, status: CellStatus | undefined): void {
		setStatuses((current) => {
			const next = { ...current }
			if (status === undefined) {
				delete next[id]
			} else {
				next[id] = status
			}
			return next
		})
	}

	async function commit(row: GridRow, dayIndex: number): Promise<void> {
		const id = cellId(row.key, dayIndex)
		const typed = drafts[id]
		const date = sheet.days[dayIndex]
		if (typed === undefined || date === undefined) {
			return
		}
		const parsed = parseDuration(typed)
		if (!parsed.ok) {
			setStatus(id, { state: 'error', message: parsed.message })
			return
		}
		// Left again while its save is on the way (Tab out, back, out): the same text is not sent twice.
		const status = statuses[id]
		if (status?.state === 'saving' && status.typed === typed) {
			return
		}
		const seconds = parsed.seconds ?? 0
		if (seconds === (row.seconds[dayIndex] ?? 0)) {
			setDraft(id, undefined)
			setStatus(id, undefined)
			return
		}
		setStatus(id, { state: 'saving', typed })
		try {
			await onSave(row, date, typed.trim())
			setDraft(id, undefined)
			setStatus(id, { state: 'saved' })
		} catch (error) {
			if (error instanceof ApiError && error.status === 409) {
				// The figure goes back to what is stored; the message says why and where to change it.
				setDraft(id, undefined)
				setStatus(id, { state: 'error', message: shrinkMessage(row.entries[dayIndex] ?? 2) })
				return
			}
			const field = error instanceof ApiError ? error.fieldErrors.find((item) => item.field === 'duration') : undefined
			setStatus(id, { state: 'error', message: field?.message ?? errorMessage(error) })
		}
	}

	function focusCell(rowIndex: number, dayIndex: number): boolean {
		const input = tableRef.current?.querySelector<HTMLInputElement>(`[data-cell="${rowIndex}:${dayIndex}"]`)
		input?.focus()
		return Boolean(input)
	}

	function onKeyDown(event: KeyboardEvent<HTMLInputElement>, row: GridRow, rowIndex: number, dayIndex: number): void {
		const input = event.currentTarget
		const start = input.selectionStart ?? 0
		const end = input.selectionEnd ?? 0
		const isAllSelected = start === 0 && end === input.value.length
		switch (event.key) {
			case 'ArrowUp':
				event.preventDefault()
				focusCell(rowIndex - 1, dayIndex)
				break
			case 'ArrowDown':
				event.preventDefault()
				focusCell(rowIndex + 1, dayIndex)
				break
			// Left and right move the caret inside the text, and leave the cell from its edges.
			case 'ArrowLeft':
				if ((start === 0 && end === 0) || isAllSelected) {
					event.preventDefault()
					focusCell(rowIndex, dayIndex - 1)
				}
				break
			case 'ArrowRight':
				if ((start === input.value.length && end === start) || isAllSelected) {
					event.preventDefault()
					focusCell(rowIndex, dayIndex + 1)
				}
				break
			case 'Enter':
				event.preventDefault()
				// Down to the next row, as in a spreadsheet; leaving the cell saves it. On the last row it saves in place.
				if (!focusCell(rowIndex + 1, dayIndex)) {
					void commit(row, dayIndex)
				}
				break
			case 'Escape': {
				event.preventDefault()
				const id = cellId(row.key, dayIndex)
				setDraft(id, undefined)
				setStatus(id, undefined)
				requestAnimationFrame(() => input.select())
				break
			}
		}
	}

	// A day's head and total end where its cells' figures do: 28 px in, past the cell's status mark.
	// Cells keep room for "10:30" on a phone too, where the table scrolls sideways and a long
	// project · task wraps rather than ending in the same "Website redesign…" as its neighbour.
	return (
		<div className="relative w-full overflow-x-auto rounded-lg border bg-card">
			<table ref={tableRef} className="w-full min-w-[44rem] border-collapse text-sm">
				<caption className="sr-only">Your time this week, per project and day</caption>
				<thead className="bg-muted/50">
					<tr className="border-b">
						<th scope="col" className="h-10 whitespace-nowrap px-3 text-left font-medium text-muted-foreground">
							Project · task
						</th>
						{sheet.days.map((date) => {
							const head = dayHead(date)
							return (
								<th
									key={date}
									scope="col"
									className="h-10 w-24 whitespace-nowrap pr-7 pl-2 text-right font-medium text-muted-foreground"
								>
									<abbr title={dayName(date)} className="no-underline">
										{head.weekday} {head.day}
									</abbr>
								</th>
							)
						})}
						<th scope="col" className="h-10 w-20 px-3 text-right font-medium text-muted-foreground">
							Total
						</th>
					</tr>
				</thead>
				<tbody>
					{rows.map((row, rowIndex) => {
						const label = rowLabel(row)
						const rowTotal = sheet.days.reduce((sum, _, dayIndex) => sum + secondsOf(row, dayIndex), 0)
						return (
							<tr key={row.key} className="border-b last:border-0">
								<th
									scope="row"
									className="min-w-36 max-w-40 px-3 py-1.5 text-left font-medium leading-snug sm:max-w-72 sm:truncate"
									title={label}
								>
									{label}
								</th>
								{sheet.days.map((date, dayIndex) => {
									const id = cellId(row.key, dayIndex)
									const status = statuses[id]
									const draft = drafts[id]
									const isRunning = running?.rowKey === row.key && running.dayIndex === dayIndex
									const value = draft ?? shown(secondsOf(row, dayIndex), row.entries[dayIndex] ?? 0)
									const live = draft === undefined ? null : parseDuration(draft)
									const message = live && !live.ok ? live.message : status?.state === 'error' ? status.message : null
									const messageId = `${id}-message`
									return (
										<td key={date} className="px-1 py-1 align-top">
											<div className="relative">
												<input
													data-cell={`${rowIndex}:${dayIndex}`}
													aria-label={`${label}, ${dayName(date)}`}
													aria-invalid={message ? true : undefined}
													aria-describedby={message ? messageId : undefined}
													readOnly={isRunning}
													inputMode="text"
													autoComplete="off"
													spellCheck={false}
													value={value}
													placeholder="0:00"
													onFocus={(event) => event.currentTarget.select()}
													onChange={(event) => {
														setDraft(id, event.target.value)
														if (status) {
															setStatus(id, undefined)
														}
													}}
													onBlur={() => void commit(row, dayIndex)}
													onKeyDown={(event) => onKeyDown(event, row, rowIndex, dayIndex)}
													className={cn(
														'h-8 w-full min-w-18 rounded-md border border-transparent bg-transparent px-2 pr-6 text-right tabular-nums outline-none',
														'placeholder:text-muted-foreground/40 hover:border-input focus:border-ring focus:ring-2 focus:ring-ring/30',
														message && 'border-error focus:border-error focus:ring-error/30',
														isRunning && 'font-medium text-primary',
													)}
												/>
												<CellMark status={status} isRunning={isRunning} />
											</div>
											{message ? (
												<p id={messageId} role="alert" className="mt-1 min-w-40 text-error text-xs leading-snug">
													{message}
												</p>
											) : null}
										</td>
									)
								})}
								<td className="px-3 text-right font-medium tabular-nums">{formatDuration(rowTotal)}</td>
							</tr>
						)
					})}
				</tbody>
				<tfoot className="border-t bg-muted/30">
					<tr>
						<th scope="row" className="h-10 px-3 text-left font-semibold">
							Total
						</th>
						{dayTotals.map((seconds, dayIndex) => (
							<td
								key={sheet.days[dayIndex]}
								className="pr-7 pl-3 text-right font-semibold tabular-nums"
								aria-label={`Total, ${dayName(sheet.days[dayIndex] ?? '')}: ${formatDuration(seconds)}`}
							>
								{formatDuration(seconds)}
							</td>
						))}
						<td
							className="px-3 text-right font-semibold tabular-nums"
							aria-label={`Week total: ${formatDuration(weekTotal)}`}
						>
							{formatDuration(weekTotal)}
						</td>
					</tr>
				</tfoot>
			</table>
		</div>
	)
}

/** A small sign at a cell's right: saving, saved, not saved, or a timer running in it. */
function CellMark({ status, isRunning }: { status: CellStatus | undefined; isRunning: boolean }) {
	const mark = 'pointer-events-none absolute top-1/2 right-1.5 size-3.5 -translate-y-1/2'
	if (status?.state === 'saving') {
		return (
			<span className={cn(mark, 'text-muted-foreground')}>
				<Spinner size="sm" label="Saving" />
			</span>
		)
	}
	if (status?.state === 'saved') {
		return (
			<span className={cn(mark, 'text-success')} role="status" aria-label="Saved">
				<Check aria-hidden className="size-3.5" />
			</span>
		)
	}
	if (status?.state === 'error') {
		return <CircleAlert aria-hidden className={cn(mark, 'text-error')} />
	}
	if (isRunning) {
		return (
			<span className={cn(mark, 'text-primary')} title="A timer is running in this cell">
				<Timer aria-hidden className="size-3.5" />
				<span className="sr-only">A timer is running in this cell</span>
			</span>
		)
	}
	return null
}
