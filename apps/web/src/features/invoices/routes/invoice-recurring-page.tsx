import { formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import type { Recurrence } from '@blocksmith/contracts/invoice-recurring.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Pencil, Play, Repeat, Trash2 } from 'lucide-react'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { deleteRecurrence, recurrencesQuery, runRecurrenceNow, updateRecurrence } from '../api/invoice-recurring.ts'
import { InvoicesLayout } from '../components/invoices-nav.tsx'
import { everyText, RecurringDialog } from '../components/recurring-dialog.tsx'

/** /invoices/recurring: the organization's recurring invoices, paused, resumed, changed, run now. */
export function InvoiceRecurringPage() {
	const recurrences = useQuery({ ...recurrencesQuery, meta: { isErrorShownInPage: true } })
	return (
		<InvoicesLayout title="Recurring invoices" description="Invoices repeated on a schedule, as drafts or sent.">
			{recurrences.isPending ? (
				<Skeleton className="h-48 w-full" />
			) : !recurrences.data ? (
				<Alert variant="error" title="The recurring invoices could not be loaded">
					{errorMessage(recurrences.error)}
				</Alert>
			) : recurrences.data.length === 0 ? (
				<EmptyState
					icon={Repeat}
					title="No recurring invoices"
					description="Open a finalized invoice and choose “Make recurring” to repeat it every week, month or year."
					action={
						<Button asChild variant="outline">
							<Link to={paths.invoices}>Go to the invoices</Link>
						</Button>
					}
				/>
			) : (
				<RecurringTable recurrences={recurrences.data} />
			)}
		</InvoicesLayout>
	)
}

function RecurringTable({ recurrences }: { recurrences: Recurrence[] }) {
	return (
		<Table aria-label="Recurring invoices">
			<TableHeader>
				<TableRow>
					<TableHead>Invoice</TableHead>
					<TableHead isNumeric>Amount</TableHead>
					<TableHead>Schedule</TableHead>
					<TableHead>Next</TableHead>
					<TableHead isNumeric>Runs</TableHead>
					<TableHead>Each run</TableHead>
					<TableHead>Active</TableHead>
					<TableHead>
						<span className="sr-only">Actions</span>
					</TableHead>
				</TableRow>
			</TableHeader>
			<TableBody>
				{recurrences.map((recurrence) => (
					<RecurringRow key={recurrence.id} recurrence={recurrence} />
				))}
			</TableBody>
		</Table>
	)
}

function RecurringRow({ recurrence }: { recurrence: Recurrence }) {
	const queryClient = useQueryClient()
	const refresh = () => queryClient.invalidateQueries({ queryKey: ['invoices'] })
	const name = recurrence.source.clientName ?? recurrence.source.number ?? 'Invoice'
	const toggle = useMutation({
		mutationFn: (isActive: boolean) => updateRecurrence(recurrence.id, { isActive }),
		onSuccess: async (saved) => {
			await refresh()
			toast.success(saved.isActive ? `${name} runs again.` : `${name} is paused.`)
		},
	})
	const run = useMutation({
		mutationFn: () => runRecurrenceNow(recurrence.id),
		onSuccess: async (invoice) => {
			await refresh()
			toast.success(invoice.number ? `Invoice ${invoice.number} is made.` : 'A draft is made.')
		},
	})
	const remove = useMutation({
		mutationFn: () => deleteRecurrence(recurrence.id),
		onSuccess: async () => {
			await refresh()
			toast.success('The schedule is deleted; its invoices stay.')
		},
	})
	const runsText =
		recurrence.remaining === null
			? String(recurrence.runs)
			: `${recurrence.runs} of ${recurrence.runs + recurrence.remaining}`
	return (
		<TableRow>
			<TableCell>
				<Link className="font-medium text-link hover:underline" to={paths.invoice(recurrence.sourceId)}>
					{name}
				</Link>
				<p className="text-muted-foreground text-xs">{recurrence.source.number ?? 'Draft'}</p>
				{recurrence.lastError ? (
					<p className="mt-1 max-w-64 text-error text-xs">Last run failed: {recurrence.lastError.message}</p>
				) : null}
			</TableCell>
			<TableCell isNumeric className="tabular-nums">
				{formatMoney(recurrence.source.total.minor, recurrence.source.currency)}
			</TableCell>
			<TableCell>{everyText(recurrence.frequency, recurrence.interval)}</TableCell>
			<TableCell className="whitespace-nowrap">{recurrence.nextDate ?? 'Ended'}</TableCell>
			<TableCell isNumeric>{runsText}</TableCell>
			<TableCell>
				<Badge variant={recurrence.action === 'send' ? 'primary' : 'neutral'}>
					{recurrence.action === 'send' ? 'Sent' : 'Draft'}
				</Badge>
			</TableCell>
			<TableCell>
				<Switch
					aria-label={`${name} active`}
					checked={recurrence.isActive}
					disabled={toggle.isPending || recurrence.nextDate === null}
					onCheckedChange={(checked) => toggle.mutate(checked)}
				/>
			</TableCell>
			<TableCell>
				<div className="flex justify-end gap-1">
					<RecurringDialog
						recurrence={recurrence}
						trigger={
							<Button variant="ghost" size="icon-sm" aria-label={`Edit the schedule of ${name}`}>
								<Pencil aria-hidden />
							</Button>
						}
					/>
					<Button
						variant="ghost"
						size="icon-sm"
						aria-label={`Make the next invoice of ${name} now`}
						title="Run now"
						isLoading={run.isPending}
						disabled={!recurrence.isActive || recurrence.nextDate === null}
						onClick={() => run.mutate()}
					>
						<Play aria-hidden />
					</Button>
					<ConfirmDialog
						title={`Delete the schedule of ${name}?`}
						description="No more invoices are made from it. The invoices it made stay as they are."
						confirmLabel="Delete schedule"
						isDestructive
						onConfirm={() => remove.mutateAsync()}
						trigger={
							<Button variant="ghost" size="icon-sm" aria-label={`Delete the schedule of ${name}`}>
								<Trash2 aria-hidden />
							</Button>
						}
					/>
				</div>
			</TableCell>
		</TableRow>
	)
}
