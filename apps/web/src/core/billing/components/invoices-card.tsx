import type { BillingInvoice, PaymentProvider } from '@blocksmith/contracts/subscriptions.ts'
import { ExternalLink, ReceiptText } from 'lucide-react'
import { Badge } from '#src/components/ui/badge.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#src/components/ui/card.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { formatDate, formatMoney } from '../lib/billing-format.ts'

const statusLabels = {
	draft: { label: 'Draft', variant: 'neutral' },
	open: { label: 'Open', variant: 'warning' },
	paid: { label: 'Paid', variant: 'success' },
	void: { label: 'Void', variant: 'neutral' },
	uncollectible: { label: 'Uncollectible', variant: 'error' },
} as const satisfies Record<BillingInvoice['status'], { label: string; variant: string }>

/** Past invoices, each opening the provider's page (pay, download) in a new tab. */
export function InvoicesCard({ invoices, provider }: { invoices: BillingInvoice[]; provider: PaymentProvider }) {
	return (
		<Card>
			<CardHeader>
				<CardTitle>Invoices</CardTitle>
				<CardDescription>
					{provider === 'stripe'
						? 'Every invoice for this organization, from Stripe.'
						: 'Billing is handled by the operator of this installation.'}
				</CardDescription>
			</CardHeader>
			<CardContent>
				{invoices.length === 0 ? (
					<EmptyState
						icon={ReceiptText}
						headingLevel={3}
						title="No invoices yet"
						description={
							provider === 'stripe'
								? 'Your first invoice appears here when your trial ends or your plan is first billed.'
								: 'This installation takes no payments: its operator handles billing, so no invoices are made here.'
						}
					/>
				) : (
					<Table aria-label="Invoices">
						<TableHeader>
							<TableRow>
								<TableHead>Number</TableHead>
								<TableHead>Date</TableHead>
								<TableHead isNumeric>Amount</TableHead>
								<TableHead>Status</TableHead>
								<TableHead>
									<span className="sr-only">Link</span>
								</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{invoices.map((invoice) => {
								const status = statusLabels[invoice.status]
								const number = invoice.number ?? 'Draft'
								const verb = invoice.status === 'open' ? 'Pay' : 'View'
								return (
									<TableRow key={invoice.id}>
										<TableCell className="font-medium">{number}</TableCell>
										<TableCell>{formatDate(invoice.createdAt)}</TableCell>
										<TableCell isNumeric>{formatMoney(invoice.amount, invoice.currency)}</TableCell>
										<TableCell>
											<Badge variant={status.variant}>{status.label}</Badge>
										</TableCell>
										<TableCell className="text-right">
											{invoice.url ? (
												<a
													href={invoice.url}
													target="_blank"
													rel="noreferrer"
													aria-label={`${verb} invoice ${number} (opens in a new tab)`}
													className="inline-flex items-center gap-1 font-medium text-link text-sm hover:underline"
												>
													{verb}
													<ExternalLink aria-hidden className="size-3.5" />
												</a>
											) : null}
										</TableCell>
									</TableRow>
								)
							})}
						</TableBody>
					</Table>
				)}
			</CardContent>
		</Card>
	)
}
