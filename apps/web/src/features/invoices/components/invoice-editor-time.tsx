import type { LinesFromTime } from '@blocksmith/contracts/invoice-documents.ts'
import type { TaxRate } from '@blocksmith/contracts/invoices.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useQuery } from '@tanstack/react-query'
import { Hourglass } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { timeViewsQuery } from '../api/invoices.ts'
import { rateLabel } from '../lib/invoice-draft.ts'

// "Add tracked time": a saved time report (its filters say which time) whose billable time not
// invoiced yet becomes lines, one per project or task. Finalizing the invoice marks that time billed.

export function AddTimeDialog({
	taxRates,
	onAdd,
}: {
	taxRates: TaxRate[]
	onAdd: (tool: WorkspaceTool, input: LinesFromTime) => Promise<void>
}) {
	const [isOpen, setIsOpen] = useState(false)
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button variant="outline">
					<Hourglass aria-hidden /> Add tracked time
				</Button>
			</DialogTrigger>
			<DialogContent
				title="Add tracked time"
				description="The billable time of a time report that is not invoiced yet, as lines at the report's rates."
			>
				{isOpen ? (
					<TimeForm
						taxRates={taxRates}
						onAdd={async (tool, input) => {
							await onAdd(tool, input)
							setIsOpen(false)
						}}
					/>
				) : null}
			</DialogContent>
		</Dialog>
	)
}

function TimeForm({
	taxRates,
	onAdd,
}: {
	taxRates: TaxRate[]
	onAdd: (tool: WorkspaceTool, input: LinesFromTime) => Promise<void>
}) {
	const views = useQuery(timeViewsQuery)
	const [viewKey, setViewKey] = useState('')
	const [groupBy, setGroupBy] = useState<'project' | 'task'>('project')
	const [taxRateId, setTaxRateId] = useState(taxRates.find((rate) => rate.isDefault)?.id ?? taxRates[0]?.id ?? '')
	const [failure, setFailure] = useState<string | null>(null)
	const [isAdding, setIsAdding] = useState(false)
	const view = views.data?.find((candidate) => `${candidate.tool}:${candidate.id}` === viewKey)

	async function submit(): Promise<void> {
		if (!view) {
			return
		}
		setIsAdding(true)
		setFailure(null)
		try {
			await onAdd(view.tool, { viewId: view.id, groupBy, ...(taxRateId ? { taxRateId } : {}) })
		} catch (error) {
			setFailure(errorMessage(error))
		} finally {
			setIsAdding(false)
		}
	}

	if (views.isPending) {
		return <Skeleton className="h-24 w-full" />
	}
	if (!views.data?.length) {
		return (
			<p className="text-muted-foreground text-sm">
				No time reports yet: save one under Time → Reports (its filters choose the time to invoice).
			</p>
		)
	}
	return (
		<div className="grid gap-4">
			<Field label="Time report" isRequired>
				<NativeSelect value={viewKey} onChange={(event) => setViewKey(event.target.value)}>
					<option value="">Choose a report</option>
					{views.data.map((candidate) => (
						<option key={`${candidate.tool}:${candidate.id}`} value={`${candidate.tool}:${candidate.id}`}>
							{candidate.name} ({candidate.databaseName})
						</option>
					))}
				</NativeSelect>
			</Field>
			<Field label="One line per">
				<NativeSelect value={groupBy} onChange={(event) => setGroupBy(event.target.value as 'project' | 'task')}>
					<option value="project">Project</option>
					<option value="task">Task</option>
				</NativeSelect>
			</Field>
			<Field label="Tax rate">
				<NativeSelect value={taxRateId} onChange={(event) => setTaxRateId(event.target.value)}>
					{taxRates.map((rate) => (
						<option key={rate.id} value={rate.id}>
							{rateLabel(rate)}
						</option>
					))}
				</NativeSelect>
			</Field>
			{failure ? (
				<Alert variant="error" title="The time could not be added">
					{failure}
				</Alert>
			) : null}
			<DialogFooter>
				<Button onClick={submit} isLoading={isAdding} disabled={!view}>
					Add the time
				</Button>
			</DialogFooter>
		</div>
	)
}
