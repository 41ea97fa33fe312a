import { useQuery } from '@tanstack/react-query'
import { Receipt } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import {
	Table,
	TableBody,
	TableCell,
	TableFooter,
	TableHead,
	TableHeader,
	TableRow,
} from '#src/components/ui/table.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { type ToolView, unbilledQuery } from '../api/reports.ts'
import { formatDecimal, formatHours, formatMoney } from './report-format.ts'

// "Invoice this": the view's billable time not invoiced yet, as the lines an invoice would get.
// Making the invoice (and marking the entries billed) is the Invoices module's part.

export function ReportInvoiceDialog({ view }: { view: ToolView }) {
	const [isOpen, setIsOpen] = useState(false)
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button variant="outline">
					<Receipt aria-hidden /> Invoice this
				</Button>
			</DialogTrigger>
			<DialogContent
				size="lg"
				title="Invoice this"
				description="The billable time of this report that is not invoiced yet, rounded as the report says."
			>
				{isOpen ? <UnbilledLines view={view} /> : null}
			</DialogContent>
		</Dialog>
	)
}

function UnbilledLines({ view }: { view: ToolView }) {
	const [groupBy, setGroupBy] = useState<'project' | 'task'>('project')
	const unbilled = useQuery(unbilledQuery(view, groupBy))
	const data = unbilled.data
	const money = (amount: number | null) => (amount === null || !data ? '—' : formatMoney(amount, data.currency))
	return (
		<div className="grid gap-4">
			<fieldset className="flex w-fit gap-1 rounded-lg bg-muted p-1">
				<legend className="sr-only">One line per</legend>
				{(['project', 'task'] as const).map((choice) => (
					<Button
						key={choice}
						size="sm"
						variant={groupBy === choice ? 'outline' : 'ghost'}
						aria-pressed={groupBy === choice}
						className="h-7"
						onClick={() => setGroupBy(choice)}
					>
						{choice === 'project' ? 'By project' : 'By task'}
					</Button>
				))}
			</fieldset>
			{unbilled.isPending ? (
				<Skeleton className="h-32 w-full" />
			) : !data ? (
				<Alert variant="error" title="The unbilled time could not be loaded">
					{errorMessage(unbilled.error)}
				</Alert>
			) : data.lines.length === 0 ? (
				<p className="text-muted-foreground text-sm">
					Nothing to invoice: every billable entry here is invoiced already.
				</p>
			) : (
				<Table aria-label="Unbilled lines">
					<TableHeader>
						<TableRow>
							<TableHead>Line</TableHead>
							<TableHead isNumeric>Hours</TableHead>
							<TableHead isNumeric>Rate</TableHead>
							<TableHead isNumeric>Amount</TableHead>
						</TableRow>
					</TableHeader>
					<TableBody>
						{data.lines.map((line) => (
							<TableRow key={line.key}>
								<TableCell className="max-w-72 truncate">{line.description}</TableCell>
								<TableCell isNumeric title={formatDecimal(line.seconds)}>
									{formatHours(line.seconds)}
								</TableCell>
								<TableCell isNumeric>{line.rate === null ? '—' : `${money(line.rate)}/h`}</TableCell>
								<TableCell isNumeric>{money(line.amount)}</TableCell>
							</TableRow>
						))}
					</TableBody>
					<TableFooter>
						<TableRow className="font-semibold">
							<TableCell>Total</TableCell>
							<TableCell isNumeric>{formatHours(data.total.seconds)}</TableCell>
							<TableCell />
							<TableCell isNumeric>{money(data.total.amount)}</TableCell>
						</TableRow>
					</TableFooter>
				</Table>
			)}
			<Alert variant="info" title="Invoices arrive with the Invoices module">
				These lines will become an invoice there, and its entries will be marked billed once it is made.
			</Alert>
		</div>
	)
}
