import type { Database } from '@blocksmith/contracts/workspaces.ts'
import { useQueryClient } from '@tanstack/react-query'
import { FileUp } from 'lucide-react'
import { useId, useState } from 'react'
import { Link } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Select } from '#src/components/ui/select.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { createDatabase, createRows, workspaceKeys } from '../api/workspaces.ts'
import {
	batches,
	buildProperties,
	type ColumnPlan,
	convertRows,
	type ImportableType,
	importableTypes,
	inferColumns,
	type ParsedCsv,
	parseCsv,
	planProblems,
	setTitleColumn,
} from '../lib/csv-import.ts'
import { typeLabels } from '../lib/values.ts'

const previewRows = 20
const skip = 'skip'
const typeChoices = [
	...importableTypes.filter((type) => type !== 'title').map((type) => ({ value: type, label: typeLabels[type] })),
	{ value: skip, label: 'Skip this column' },
]

type Stage =
	| { step: 'choose'; error?: string }
	| { step: 'preview' }
	| { step: 'importing'; sent: number }
	| { step: 'done'; database: Database; sent: number; error?: string }

type CsvImportDialogProps = {
	workspaceId: string
	open: boolean
	onOpenChange: (open: boolean) => void
}

/** CSV → a new local database: choose a file, check the guessed types, import in batches of 1000. */
export function CsvImportDialog({ workspaceId, open, onOpenChange }: CsvImportDialogProps) {
	const [stage, setStage] = useState<Stage>({ step: 'choose' })
	const [csv, setCsv] = useState<ParsedCsv | null>(null)
	const [columns, setColumns] = useState<ColumnPlan[]>([])
	const [name, setName] = useState('')
	const [problem, setProblem] = useState<string | null>(null)
	const queryClient = useQueryClient()
	const fileId = useId()
	const isBusy = stage.step === 'importing'

	function reset(): void {
		setStage({ step: 'choose' })
		setCsv(null)
		setColumns([])
		setName('')
		setProblem(null)
	}

	async function choose(file: File | undefined): Promise<void> {
		if (!file) {
			return
		}
		try {
			const parsed = parseCsv(await file.text())
			if (parsed.rows.length === 0) {
				setStage({ step: 'choose', error: 'This file has a header row but no rows under it.' })
				return
			}
			setCsv(parsed)
			setColumns(inferColumns(parsed))
			setName(file.name.replace(/\.(csv|tsv|txt)$/i, '').slice(0, 200) || 'Imported data')
			setStage({ step: 'preview' })
		} catch {
			setStage({ step: 'choose', error: 'This file could not be read as CSV.' })
		}
	}

	async function runImport(): Promise<void> {
		if (!csv) {
			return
		}
		setStage({ step: 'importing', sent: 0 })
		let database: Database
		try {
			database = await createDatabase({
				workspaceId,
				name: name.trim(),
				properties: buildProperties(columns, csv.rows),
			})
		} catch (error) {
			setStage({ step: 'preview' })
			setProblem(errorMessage(error))
			return
		}
		const values = convertRows(columns, csv.rows, database.properties)
		let sent = 0
		for (const batch of batches(values)) {
			try {
				sent += await createRows({ databaseId: database.id, rows: batch.map((rowValues) => ({ values: rowValues })) })
				setStage({ step: 'importing', sent })
			} catch (error) {
				setStage({ step: 'done', database, sent, error: errorMessage(error) })
				await queryClient.invalidateQueries({ queryKey: workspaceKeys.all })
				return
			}
		}
		setStage({ step: 'done', database, sent })
		await queryClient.invalidateQueries({ queryKey: workspaceKeys.all })
	}

	const problems = [...planProblems(columns), ...(name.trim() ? [] : ['Give the database a name.'])]
	const total = csv?.rows.length ?? 0

	return (
		<Dialog
			open={open}
			onOpenChange={(next) => {
				if (isBusy) {
					return
				}
				onOpenChange(next)
				if (!next) {
					reset()
				}
			}}
		>
			<DialogContent
				title="Import a CSV file"
				description="The first row names the columns. Each column becomes a property; check the types we guessed."
				size="xl"
			>
				{stage.step === 'choose' ? (
					<div className="grid gap-3">
						<label
							htmlFor={fileId}
							className="flex cursor-pointer flex-col items-center gap-2 rounded-xl border border-dashed px-6 py-10 text-center hover:bg-accent/40 has-focus-visible:ring-2 has-focus-visible:ring-ring"
						>
							<FileUp aria-hidden className="size-6 text-muted-foreground" />
							<span className="font-medium text-sm">Choose a CSV file</span>
							<span className="text-muted-foreground text-xs">
								Read in your browser; nothing is sent until you import.
							</span>
							<input
								id={fileId}
								type="file"
								accept=".csv,text/csv,.tsv,.txt"
								className="sr-only"
								onChange={(event) => void choose(event.target.files?.[0])}
							/>
						</label>
						{stage.error ? <Alert variant="error">{stage.error}</Alert> : null}
					</div>
				) : null}

				{stage.step === 'preview' && csv ? (
					<div className="grid gap-4">
						<Field label="Database name" className="max-w-sm">
							<Input value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
						</Field>
						<div className="max-h-[55dvh] overflow-auto rounded-lg border">
							<table className="w-full border-collapse text-sm" aria-label="Preview of the first rows">
								<thead className="sticky top-0 z-10 bg-card">
									<tr className="border-b align-top">
										{columns.map((column) => (
											<th
												key={column.index}
												scope="col"
												className="min-w-44 border-r p-2 text-left font-normal last:border-r-0"
											>
												<ColumnSettings
													column={column}
													onRename={(value) =>
														setColumns((current) =>
															current.map((candidate) =>
																candidate.index === column.index ? { ...candidate, name: value } : candidate,
															),
														)
													}
													onType={(type) =>
														setColumns((current) =>
															type === 'title'
																? setTitleColumn(current, column.index)
																: current.map((candidate) =>
																		candidate.index === column.index ? { ...candidate, type } : candidate,
																	),
														)
													}
												/>
											</th>
										))}
									</tr>
								</thead>
								<tbody>
									{csv.rows.slice(0, previewRows).map((row, rowIndex) => (
										// biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity but their position
										<tr key={rowIndex} className="border-b last:border-b-0">
											{columns.map((column) => (
												<td
													key={column.index}
													className={`max-w-64 truncate border-r px-2 py-1.5 last:border-r-0 ${column.type === null ? 'text-muted-foreground/50' : ''}`}
												>
													{row[column.index] ?? ''}
												</td>
											))}
										</tr>
									))}
								</tbody>
							</table>
						</div>
						<p className="text-muted-foreground text-sm">
							Showing {Math.min(previewRows, total)} of {total.toLocaleString()} rows.
						</p>
						{problems.length > 0 ? (
							<Alert variant="warning">
								<ul>
									{problems.map((message) => (
										<li key={message}>{message}</li>
									))}
								</ul>
							</Alert>
						) : null}
						{problem ? <Alert variant="error">{problem}</Alert> : null}
						<DialogFooter>
							<Button variant="outline" onClick={reset}>
								Choose another file
							</Button>
							<Button disabled={problems.length > 0} onClick={() => void runImport()}>
								Import {total.toLocaleString()} {total === 1 ? 'row' : 'rows'}
							</Button>
						</DialogFooter>
					</div>
				) : null}

				{stage.step === 'importing' ? <ImportProgress sent={stage.sent} total={total} /> : null}

				{stage.step === 'done' ? (
					<div className="grid gap-4">
						{stage.error ? (
							<Alert
								variant="error"
								title={`Stopped after ${stage.sent.toLocaleString()} of ${total.toLocaleString()} rows`}
							>
								{stage.error}
							</Alert>
						) : (
							<Alert variant="success" title="Imported">
								{stage.sent.toLocaleString()} {stage.sent === 1 ? 'row is' : 'rows are'} in {stage.database.name}.
							</Alert>
						)}
						<DialogFooter>
							<Button
								variant="outline"
								onClick={() => {
									onOpenChange(false)
									reset()
								}}
							>
								Close
							</Button>
							<Button asChild>
								<Link to={paths.database(workspaceId, stage.database.id)}>Open the table</Link>
							</Button>
						</DialogFooter>
					</div>
				) : null}
			</DialogContent>
		</Dialog>
	)
}

function ColumnSettings({
	column,
	onRename,
	onType,
}: {
	column: ColumnPlan
	onRename: (name: string) => void
	onType: (type: ImportableType | null) => void
}) {
	const isTitle = column.type === 'title'
	return (
		<div className="grid gap-1.5">
			<Input
				aria-label={`Name of column ${column.index + 1} (${column.header})`}
				className="h-8"
				value={column.name}
				maxLength={200}
				disabled={column.type === null}
				onChange={(event) => onRename(event.target.value)}
			/>
			{isTitle ? (
				<span className="flex h-8 items-center px-1 font-medium text-xs">Title</span>
			) : (
				<Select
					aria-label={`Type of column ${column.index + 1} (${column.header})`}
					className="h-8"
					value={column.type ?? skip}
					options={typeChoices}
					onValueChange={(value) => onType(value === skip ? null : (value as ImportableType))}
				/>
			)}
			<label className="flex items-center gap-1.5 text-muted-foreground text-xs">
				<input
					type="radio"
					name="title-column"
					checked={isTitle}
					onChange={() => onType('title')}
					className="accent-primary"
				/>
				Title column
			</label>
		</div>
	)
}

function ImportProgress({ sent, total }: { sent: number; total: number }) {
	const share = total > 0 ? Math.round((sent / total) * 100) : 0
	return (
		<div className="grid gap-2 py-4">
			<div
				role="progressbar"
				aria-label="Import progress"
				aria-valuemin={0}
				aria-valuemax={100}
				aria-valuenow={share}
				className="h-2 overflow-hidden rounded-full bg-muted"
			>
				<div
					className="h-full rounded-full bg-primary transition-[width] duration-300"
					style={{ width: `${share}%` }}
				/>
			</div>
			<p className="text-muted-foreground text-sm tabular-nums">
				{sent === 0 ? 'Creating the database…' : `${sent.toLocaleString()} of ${total.toLocaleString()} rows imported…`}
			</p>
		</div>
	)
}
