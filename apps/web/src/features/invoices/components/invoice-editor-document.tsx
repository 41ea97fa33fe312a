import { formatDecimal, formatDecimalMoney, formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import type { Invoice } from '@blocksmith/contracts/invoice-documents.ts'
import type { InvoiceProfile } from '@blocksmith/contracts/invoices.ts'
import { Link } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { todayLocal } from '../lib/invoice-draft.ts'
import { InvoiceActions } from './invoice-actions.tsx'
import { OverdueNote } from './invoice-list-parts.tsx'
import { InvoiceTotals, storedTotals } from './invoice-totals.tsx'

// A finalized invoice or credit note, read-only: what was billed, to whom, and where it stands
// (paid, credited, due), with the actions that are still possible on it.

export function InvoiceDocument({ invoice, profile }: { invoice: Invoice; profile: InvoiceProfile | undefined }) {
	const locale = profile?.locale
	const taxRates = profile?.taxRates ?? []
	const totals = storedTotals(invoice.totals)
	const lineTotals = totals?.lines ?? []
	const isCredit = invoice.kind === 'credit_note'
	const extras = isCredit
		? []
		: [
				{ label: 'Paid', minor: invoice.paid.minor },
				...(invoice.credited.minor !== 0 ? [{ label: 'Credited', minor: invoice.credited.minor }] : []),
				{ label: 'Due', minor: invoice.due.minor },
			]
	const client = invoice.client
	return (
		<div className="grid gap-6">
			<div className="flex flex-wrap items-center gap-3 empty:hidden">
				{invoice.isOverdue && invoice.dueDate ? <OverdueNote dueDate={invoice.dueDate} today={todayLocal()} /> : null}
				{invoice.correctsId ? (
					<Link className="text-sm underline" to={paths.invoice(invoice.correctsId)}>
						The invoice it corrects
					</Link>
				) : null}
			</div>
			<InvoiceActions invoice={invoice} />
			<dl className="grid items-start gap-4 text-sm sm:grid-cols-3">
				<div className="grid gap-1">
					<dt className="text-muted-foreground">Billed to</dt>
					<dd>
						{client ? (
							<address className="not-italic">
								<span className="font-medium">{client.name}</span>
								{client.address ? (
									<>
										{client.address.lines.map((line) => (
											<span key={line} className="block">
												{line}
											</span>
										))}
										<span className="block">
											{client.address.postcode} {client.address.city}, {client.address.country}
										</span>
									</>
								) : null}
								{client.email ? <span className="block">{client.email}</span> : null}
								{client.taxId ? <span className="block">Tax id {client.taxId}</span> : null}
							</address>
						) : (
							'—'
						)}
					</dd>
				</div>
				<div className="grid gap-1">
					<dt className="text-muted-foreground">Issued</dt>
					<dd>{invoice.issueDate}</dd>
				</div>
				<div className="grid gap-1">
					<dt className="text-muted-foreground">Due</dt>
					<dd>{invoice.dueDate ?? '—'}</dd>
				</div>
			</dl>
			<Table aria-label="Lines">
				<TableHeader>
					<TableRow>
						<TableHead>Description</TableHead>
						<TableHead isNumeric>Quantity</TableHead>
						<TableHead isNumeric>Unit price</TableHead>
						<TableHead isNumeric>Net</TableHead>
					</TableRow>
				</TableHeader>
				<TableBody>
					{invoice.lines.map((line, index) => {
						const net = lineTotals[index]?.net
						return (
							// biome-ignore lint/suspicious/noArrayIndexKey: a finalized document's lines never move
							<TableRow key={index}>
								<TableCell className="whitespace-normal">{line.description}</TableCell>
								<TableCell isNumeric>
									{formatDecimal(line.quantity, locale)}
									{line.unit ? ` ${line.unit}` : ''}
								</TableCell>
								<TableCell isNumeric>
									{formatDecimalMoney(line.unitPrice, invoice.currency, locale, { maxDecimals: 6 })}
								</TableCell>
								<TableCell isNumeric>{net ? formatMoney(net.minor, invoice.currency, locale) : '—'}</TableCell>
							</TableRow>
						)
					})}
				</TableBody>
			</Table>
			<div className="sm:ml-auto sm:w-96">
				<InvoiceTotals totals={totals} taxRates={taxRates} extras={extras} {...(locale ? { locale } : {})} />
			</div>
			{invoice.notes ? <p className="whitespace-pre-line text-muted-foreground text-sm">{invoice.notes}</p> : null}
		</div>
	)
}
