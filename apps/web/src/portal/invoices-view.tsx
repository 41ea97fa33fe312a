import type { PortalInvoices } from '@blocksmith/contracts/portals.ts'
import { useEffect } from 'react'
import { setTitle } from './branding.ts'
import { usePortal, useResource } from './portal-context.tsx'
import { safeHref } from './safe-url.ts'
import { cardClasses, Loading, linkClasses, Message } from './ui.tsx'

// The member's company's invoices from the invoices module (issue 18 item 5): what is due, each
// opening its own page (view, PDF, pay online) in a new tab.

export const billingTitle = 'Billing'

const statusNames: Record<string, string> = {
	finalized: 'Open',
	sent: 'Sent',
	partially_paid: 'Partially paid',
	paid: 'Paid',
	void: 'Void',
}

/** A date as the invoice has it (YYYY-MM-DD), written for reading without moving it across time zones. */
function readableDate(value: string | null): string {
	if (!value) {
		return '—'
	}
	const date = new Date(`${value.slice(0, 10)}T00:00:00Z`)
	return Number.isNaN(date.getTime())
		? value
		: date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' })
}

export function InvoicesView() {
	const { call, info } = usePortal()
	const list = useResource('invoices', (signal) => call<PortalInvoices>('/invoices', { signal }))
	useEffect(() => setTitle(billingTitle, info.name), [info.name])

	if (list.status === 'loading') {
		return <Loading />
	}
	if (list.status === 'error') {
		return <Message title="Your invoices could not be loaded">{list.error.message}</Message>
	}
	const { invoices } = list.data
	return (
		<div className="space-y-4">
			<h1 className="text-2xl font-semibold">{billingTitle}</h1>
			{invoices.length === 0 ? (
				<p className="rounded-lg border border-dashed border-border px-4 py-10 text-center text-muted-foreground">
					No invoices yet.
				</p>
			) : (
				<div className={`${cardClasses} overflow-x-auto`}>
					<table className="w-full border-collapse text-sm">
						<caption className="sr-only">Invoices</caption>
						<thead className="border-b border-border text-left text-muted-foreground">
							<tr>
								<th scope="col" className="px-3 py-2 font-medium">
									Number
								</th>
								<th scope="col" className="px-3 py-2 font-medium">
									Issued
								</th>
								<th scope="col" className="px-3 py-2 font-medium">
									Due date
								</th>
								<th scope="col" className="px-3 py-2 text-right font-medium">
									Total
								</th>
								<th scope="col" className="px-3 py-2 text-right font-medium">
									Due
								</th>
								<th scope="col" className="px-3 py-2 font-medium">
									Status
								</th>
							</tr>
						</thead>
						<tbody>
							{invoices.map((invoice) => {
								const href = safeHref(invoice.url)
								const label = `${invoice.kind === 'credit_note' ? 'Credit note ' : ''}${invoice.number}`
								return (
									<tr key={invoice.id} className="border-b border-border last:border-0">
										<th scope="row" className="px-3 py-2 text-left font-medium">
											{href ? (
												<a href={href} target="_blank" rel="noopener noreferrer" className={linkClasses}>
													{label}
												</a>
											) : (
												label
											)}
										</th>
										<td className="px-3 py-2">{readableDate(invoice.issueDate)}</td>
										<td className="px-3 py-2">{readableDate(invoice.dueDate)}</td>
										<td className="px-3 py-2 text-right tabular-nums">{invoice.total}</td>
										<td className="px-3 py-2 text-right tabular-nums">{invoice.due}</td>
										<td className="px-3 py-2">
											<span
												className={`rounded px-1.5 py-0.5 text-xs font-medium ${invoice.isOverdue ? 'bg-red-500/20' : 'bg-muted'}`}
											>
												{invoice.isOverdue ? 'Overdue' : (statusNames[invoice.status] ?? invoice.status)}
											</span>
										</td>
									</tr>
								)
							})}
						</tbody>
					</table>
				</div>
			)}
		</div>
	)
}
