import { formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import type { Invoice, InvoiceList } from '@blocksmith/contracts/invoice-documents.ts'
import { Link } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Badge } from '#src/components/ui/badge.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { daysOverdue, statusLooks } from '../lib/invoice-draft.ts'

// The list's pieces: the status badge (overdue wins over sent: it is what needs doing), the
// totals by status and currency, and the table.

export function InvoiceStatusBadge({ invoice }: { invoice: Pick<Invoice, 'status' | 'isOverdue' | 'kind'> }) {
	const look = statusLooks[invoice.isOverdue ? 'overdue' : invoice.status]
	return (
		<Badge variant={look.variant}>
			{invoice.kind === 'credit_note' && invoice.status !== 'draft' ? 'Credit note' : look.label}
		</Badge>
	)
}

export function OverdueNote({ dueDate, today }: { dueDate: string; today: string }) {
	const days = daysOverdue(dueDate, today)
	return (
		<span className="font-medium text-error text-sm">
			{days === 0 ? 'Due today' : `Overdue by ${days} ${days === 1 ? 'day' : 'days'}`}
		</span>
	)
}

const cards = [
	{ status: 'draft', label: 'Draft', figure: 'totalMinor' },
	{ status: 'outstanding', label: 'Outstanding', figure: 'dueMinor' },
	{ status: 'overdue', label: 'Overdue', figure: 'dueMinor' },
	{ status: 'paid', label: 'Paid', figure: 'totalMinor' },
] as const

/** What "Outstanding" adds up: everything sent or finalized and not paid yet (overdue included). */
const outstanding = new Set(['finalized', 'sent', 'partially_paid'])

export function InvoiceTotalsCards({ totals }: { totals: InvoiceList['totals'] }) {
	const currencies = [...new Set(totals.map((entry) => entry.currency))].sort()
	return (
		<section aria-label="Totals by status" className="grid grid-cols-2 gap-3 lg:grid-cols-4">
			{cards.map((card) => {
				const entries = totals.filter((entry) =>
					card.status === 'outstanding' ? outstanding.has(entry.status) : entry.status === card.status,
				)
				const count = entries.reduce((sum, entry) => sum + entry.count, 0)
				const isAlert = card.status === 'overdue' && count > 0
				return (
					<section
						key={card.status}
						aria-label={card.label}
						className={cn('grid gap-1 rounded-lg border bg-card p-3', isAlert && 'border-error/40 bg-error/5')}
					>
						<h2 className={cn('text-muted-foreground text-sm', isAlert && 'font-medium text-error')}>
							{card.label} <span className="tabular-nums">({count})</span>
						</h2>
						{currencies.length === 0 || count === 0 ? (
							<p className="font-semibold text-lg tabular-nums">—</p>
						) : (
							currencies.map((currency) => {
								const sum = entries
									.filter((entry) => entry.currency === currency)
									.reduce((total, entry) => total + entry[card.figure], 0)
								return sum === 0 && !entries.some((entry) => entry.currency === currency) ? null : (
									<p key={currency} className="font-semibold text-lg tabular-nums">
										{formatMoney(sum, currency)}
									</p>
								)
							})
						)}
					</section>
				)
			})}
		</section>
	)
}

export function InvoiceListTable({
	invoices,
	today,
	onClient,
}: {
	invoices: Invoice[]
	today: string
	/** Filters the list by the client (its row id, or its name when typed in). */
	onClient: (clientId: string) => void
}) {
	return (
		<Table aria-label="Invoices">
			<TableHeader>
				<TableRow>
					<TableHead>Number</TableHead>
					<TableHead className="max-sm:hidden">Client</TableHead>
					<TableHead className="max-sm:hidden">Issued</TableHead>
					<TableHead className="max-sm:hidden">Due date</TableHead>
					<TableHead isNumeric className="max-sm:hidden">
						Total
					</TableHead>
					<TableHead isNumeric>Due</TableHead>
					<TableHead>Status</TableHead>
				</TableRow>
			</TableHeader>
			<TableBody>
				{invoices.map((invoice) => (
					<TableRow key={invoice.id} className={cn(invoice.isOverdue && 'bg-error/5')}>
						<TableCell>
							<Link className="font-medium underline-offset-4 hover:underline" to={paths.invoice(invoice.id)}>
								{invoice.number ?? 'Draft'}
							</Link>
							{/* On a phone the client goes under the number, so what is due and the status fit the screen. */}
							<span className="block max-w-40 truncate text-muted-foreground text-xs sm:hidden">
								{invoice.client?.name}
							</span>
						</TableCell>
						<TableCell className="max-w-56 truncate max-sm:hidden">
							{invoice.client ? (
								<button
									type="button"
									className="truncate underline-offset-4 hover:underline"
									title={`Only ${invoice.client.name}`}
									aria-label={`Filter by ${invoice.client.name}`}
									onClick={() => onClient(invoice.clientRow?.rowId ?? invoice.client?.name ?? '')}
								>
									{invoice.client.name}
								</button>
							) : (
								'—'
							)}
						</TableCell>
						<TableCell className="max-sm:hidden">{invoice.issueDate}</TableCell>
						<TableCell className="max-sm:hidden">
							<span className="grid">
								{invoice.dueDate ?? '—'}
								{invoice.isOverdue && invoice.dueDate ? <OverdueNote dueDate={invoice.dueDate} today={today} /> : null}
							</span>
						</TableCell>
						<TableCell isNumeric className="max-sm:hidden">
							{formatMoney(invoice.total.minor, invoice.currency)}
						</TableCell>
						<TableCell isNumeric>{formatMoney(invoice.due.minor, invoice.currency)}</TableCell>
						<TableCell>
							<InvoiceStatusBadge invoice={invoice} />
						</TableCell>
					</TableRow>
				))}
			</TableBody>
		</Table>
	)
}
