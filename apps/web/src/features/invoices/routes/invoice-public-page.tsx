import { formatDecimalMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import type { PublicInvoice } from '@blocksmith/contracts/invoice-sending.ts'
import { CreditCard, Download, Link2Off } from 'lucide-react'
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useParams, useSearchParams } from 'react-router'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { ThemeProvider } from '#src/components/ui/theme.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { confirmCheckout, fetchPublicInvoice, publicPdfPath, startCheckout } from '../api/invoice-public.ts'

type Loaded =
	| { status: 'loading' }
	| { status: 'ready'; invoice: PublicInvoice; justPaid: boolean }
	| { status: 'gone' }
	| { status: 'failed'; message: string }

const darkQuery = '(prefers-color-scheme: dark)'

function subscribeToSystem(onChange: () => void): () => void {
	const query = window.matchMedia(darkQuery)
	query.addEventListener('change', onChange)
	return () => query.removeEventListener('change', onChange)
}

const systemTheme = () => (window.matchMedia(darkQuery).matches ? 'dark' : 'light')

/**
 * /i/:token: an invoice as its client sees it, signed out: view it, download the PDF, pay what is
 * left through Stripe Checkout (in the sender's own account). Back from Checkout
 * (`?session_id=…`) the payment is confirmed with the server before the page says it is paid.
 * Light or dark as the visitor's system says.
 */
export function InvoicePublicPage() {
	const theme = useSyncExternalStore(subscribeToSystem, systemTheme, () => 'light' as const)
	return (
		<ThemeProvider forcedTheme={theme}>
			<PublicPage />
		</ThemeProvider>
	)
}

function PublicPage() {
	const { token = '' } = useParams()
	const [search, setSearch] = useSearchParams()
	// Read once: taking it off the link below must not load the page again (and lose "Paid — thank you").
	const [sessionId] = useState(() => search.get('session_id'))
	// Its identity changes with the location; the load below must not run again for that.
	const setSearchRef = useRef(setSearch)
	setSearchRef.current = setSearch
	const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' })

	useEffect(() => {
		const controller = new AbortController()
		setLoaded({ status: 'loading' })
		const load = sessionId ? confirmCheckout(token, sessionId) : fetchPublicInvoice(token, controller.signal)
		load.then(
			(invoice) => {
				if (controller.signal.aborted) {
					return
				}
				setLoaded({ status: 'ready', invoice, justPaid: sessionId !== null && invoice.status === 'paid' })
				if (sessionId) {
					// A reload must not confirm again (harmless, but slower): the link goes back to the plain one.
					setSearchRef.current({}, { replace: true })
				}
			},
			(error: unknown) => {
				if (controller.signal.aborted) {
					return
				}
				setLoaded(
					error instanceof ApiError && error.status === 404
						? { status: 'gone' }
						: { status: 'failed', message: errorMessage(error) },
				)
			},
		)
		return () => controller.abort()
	}, [token, sessionId])

	useEffect(() => {
		if (loaded.status === 'ready') {
			document.title = `Invoice ${loaded.invoice.number} · ${loaded.invoice.sender.legalName}`
		}
	}, [loaded])

	return (
		<main className="mx-auto grid min-h-dvh w-full max-w-3xl content-start gap-6 bg-background px-4 py-8 sm:px-6">
			{loaded.status === 'loading' ? (
				<SkeletonGroup label="Loading the invoice…" className="grid gap-4">
					<Skeleton className="h-8 w-64" />
					<Skeleton className="h-24" />
					<Skeleton className="h-64" />
				</SkeletonGroup>
			) : loaded.status === 'gone' ? (
				<EmptyState
					icon={Link2Off}
					title="This invoice link does not work."
					description="It may have been cancelled. Ask the sender for a new link."
				/>
			) : loaded.status === 'failed' ? (
				<Alert variant="error" title="The invoice could not be loaded">
					{loaded.message}
				</Alert>
			) : (
				<InvoiceView token={token} invoice={loaded.invoice} justPaid={loaded.justPaid} />
			)}
		</main>
	)
}

function money(invoice: PublicInvoice, decimal: string): string {
	return formatDecimalMoney(decimal, invoice.currency, invoice.locale)
}

function day(invoice: PublicInvoice, value: string): string {
	return new Intl.DateTimeFormat(invoice.locale, { dateStyle: 'long', timeZone: 'UTC' }).format(
		new Date(`${value.slice(0, 10)}T00:00:00Z`),
	)
}

function StatusBadge({ invoice }: { invoice: PublicInvoice }) {
	if (invoice.status === 'paid') {
		return <Badge variant="success">Paid</Badge>
	}
	if (invoice.isOverdue) {
		return <Badge variant="error">Overdue</Badge>
	}
	if (invoice.status === 'partially_paid') {
		return <Badge variant="warning">Partly paid</Badge>
	}
	return <Badge variant="neutral">{invoice.kind === 'credit_note' ? 'Credit note' : 'Open'}</Badge>
}

function Address({ lines }: { lines: Array<string | null | undefined> }) {
	return (
		<>
			{lines.filter(Boolean).map((line) => (
				<span key={line} className="block">
					{line}
				</span>
			))}
		</>
	)
}

function addressLines(address: PublicInvoice['client']['address']): string[] {
	return address ? [...address.lines, [address.postcode, address.city].filter(Boolean).join(' '), address.country] : []
}

function InvoiceView({ token, invoice, justPaid }: { token: string; invoice: PublicInvoice; justPaid: boolean }) {
	const [isPaying, setPaying] = useState(false)
	const [payError, setPayError] = useState<string | null>(null)
	const title = invoice.kind === 'credit_note' ? 'Credit note' : 'Invoice'
	const due = invoice.totals.due

	async function pay() {
		setPaying(true)
		setPayError(null)
		try {
			window.location.assign(await startCheckout(token))
		} catch (error) {
			setPayError(errorMessage(error))
			setPaying(false)
		}
	}

	return (
		<>
			{justPaid ? (
				<Alert variant="success" title="Paid — thank you">
					Your payment of {money(invoice, invoice.totals.paid.decimal)} was received.
				</Alert>
			) : null}
			<article
				className="grid gap-6 rounded-lg border border-t-4 bg-card p-5 text-card-foreground shadow-sm sm:p-8"
				style={{ borderTopColor: invoice.accentColor }}
				aria-labelledby="invoice-heading"
			>
				<header className="flex flex-wrap items-start justify-between gap-4">
					<div className="grid gap-1">
						<p className="font-medium text-muted-foreground text-sm">{invoice.sender.legalName}</p>
						<h1 id="invoice-heading" className="font-semibold text-2xl tracking-tight">
							{title} {invoice.number}
						</h1>
						<p className="text-muted-foreground text-sm">
							Issued {day(invoice, invoice.issueDate)}
							{invoice.dueDate ? ` · Due ${day(invoice, invoice.dueDate)}` : ''}
						</p>
					</div>
					<StatusBadge invoice={invoice} />
				</header>

				<div className="grid gap-4 text-sm sm:grid-cols-2">
					<section aria-label="From">
						<h2 className="mb-1 font-medium text-muted-foreground text-xs uppercase tracking-wide">From</h2>
						<p>
							<span className="block font-medium">{invoice.sender.legalName}</span>
							<Address lines={addressLines(invoice.sender.address)} />
							{invoice.sender.vatId ? <span className="block">VAT {invoice.sender.vatId}</span> : null}
							{invoice.sender.email ? <span className="block">{invoice.sender.email}</span> : null}
						</p>
					</section>
					<section aria-label="Bill to">
						<h2 className="mb-1 font-medium text-muted-foreground text-xs uppercase tracking-wide">Bill to</h2>
						<p>
							<span className="block font-medium">{invoice.client.name}</span>
							<Address lines={addressLines(invoice.client.address)} />
							{invoice.client.taxId ? <span className="block">VAT {invoice.client.taxId}</span> : null}
						</p>
					</section>
				</div>

				{/* A phone gets the lines as a list: five columns do not fit 390 px. */}
				<ul aria-label="Lines" className="grid gap-3 text-sm sm:hidden">
					{invoice.lines.map((line, index) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: lines have no id and never move here.
						<li key={index} className="flex justify-between gap-3 border-b pb-3">
							<span className="grid gap-0.5">
								<span>{line.description}</span>
								<span className="text-muted-foreground text-xs">
									{line.quantity}
									{line.unit ? ` ${line.unit}` : ''} ×{' '}
									{formatDecimalMoney(line.unitPrice, invoice.currency, invoice.locale, { maxDecimals: 6 })} ·{' '}
									{line.tax}
								</span>
							</span>
							<span className="text-right tabular-nums">{money(invoice, line.net.decimal)}</span>
						</li>
					))}
				</ul>
				<table className="hidden w-full text-sm sm:table" aria-label="Lines">
					<thead className="text-left text-muted-foreground text-xs">
						<tr className="border-b">
							<th className="py-2 pr-3 font-medium">Description</th>
							<th className="py-2 pr-3 text-right font-medium">Qty</th>
							<th className="py-2 pr-3 text-right font-medium">Unit price</th>
							<th className="py-2 pr-3 font-medium">Tax</th>
							<th className="py-2 text-right font-medium">Amount</th>
						</tr>
					</thead>
					<tbody>
						{invoice.lines.map((line, index) => (
							// biome-ignore lint/suspicious/noArrayIndexKey: lines have no id and never move here.
							<tr key={index} className="border-b align-top">
								<td className="py-2 pr-3">{line.description}</td>
								<td className="py-2 pr-3 text-right tabular-nums">
									{line.quantity}
									{line.unit ? ` ${line.unit}` : ''}
								</td>
								<td className="py-2 pr-3 text-right tabular-nums">
									{formatDecimalMoney(line.unitPrice, invoice.currency, invoice.locale, { maxDecimals: 6 })}
								</td>
								<td className="py-2 pr-3">{line.tax}</td>
								<td className="py-2 text-right tabular-nums">{money(invoice, line.net.decimal)}</td>
							</tr>
						))}
					</tbody>
				</table>

				<dl className="ml-auto grid w-full max-w-xs grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm" aria-label="Totals">
					{/* With discounts the lines no longer add up to the net: what they add up to, and what came off. */}
					{invoice.discounts.length > 0 ? (
						<TotalRow label="Subtotal" value={money(invoice, invoice.totals.lines.decimal)} />
					) : null}
					{invoice.discounts.map((discount, index) => (
						<TotalRow
							// biome-ignore lint/suspicious/noArrayIndexKey: the discounts are in the invoice's order and never move.
							key={index}
							label={discountLabel(discount)}
							value={`−${money(invoice, discount.amount.decimal)}`}
						/>
					))}
					<dt className="text-muted-foreground">Net</dt>
					<dd className="text-right tabular-nums">{money(invoice, invoice.totals.net.decimal)}</dd>
					{invoice.taxBreakdown.map((row) => (
						<TotalRow
							key={`${row.categoryCode}-${row.rate}`}
							label={`VAT ${row.rate} % on ${money(invoice, row.taxable.decimal)}`}
							value={money(invoice, row.tax.decimal)}
						/>
					))}
					<div className="col-span-2 flex justify-between gap-4 border-t pt-1 font-medium">
						<dt>Total</dt>
						<dd className="tabular-nums">{money(invoice, invoice.totals.total.decimal)}</dd>
					</div>
					{invoice.totals.paid.minor > 0 ? (
						<TotalRow label="Paid" value={`−${money(invoice, invoice.totals.paid.decimal)}`} />
					) : null}
					{invoice.totals.credited.minor > 0 ? (
						<TotalRow label="Credited" value={`−${money(invoice, invoice.totals.credited.decimal)}`} />
					) : null}
					{invoice.kind === 'invoice' ? (
						<>
							<dt className="font-semibold">Amount due</dt>
							<dd className="text-right font-semibold tabular-nums">{money(invoice, due.decimal)}</dd>
						</>
					) : null}
				</dl>

				{invoice.status === 'paid' ? (
					<p className="text-sm" role="status">
						This invoice is paid{invoice.paidAt ? ` (${day(invoice, invoice.paidAt)})` : ''}. Nothing is left to pay.
					</p>
				) : null}

				<div className="flex flex-wrap gap-2">
					{invoice.canPayOnline ? (
						<Button onClick={pay} disabled={isPaying}>
							<CreditCard aria-hidden /> {isPaying ? 'Opening Stripe…' : `Pay ${money(invoice, due.decimal)}`}
						</Button>
					) : null}
					<Button asChild variant="outline">
						<a href={publicPdfPath(token)} download={`${invoice.number}.pdf`}>
							<Download aria-hidden /> Download PDF
						</a>
					</Button>
				</div>
				{payError ? (
					<Alert variant="error" title="The payment could not be started">
						{payError}
					</Alert>
				) : null}

				{invoice.paymentTerms || invoice.notes || invoice.footer ? (
					<footer className="grid gap-2 border-t pt-4 text-muted-foreground text-sm">
						{[invoice.paymentTerms, invoice.notes, invoice.footer].filter(Boolean).map((text) => (
							<p key={text} className="whitespace-pre-line">
								{text}
							</p>
						))}
					</footer>
				) : null}
			</article>
		</>
	)
}

function discountLabel({ percent, reason }: PublicInvoice['discounts'][number]): string {
	const what = percent === null ? 'Discount' : `Discount ${percent} %`
	return reason ? `${what} (${reason})` : what
}

function TotalRow({ label, value }: { label: string; value: string }) {
	return (
		<>
			<dt className="text-muted-foreground">{label}</dt>
			<dd className="text-right tabular-nums">{value}</dd>
		</>
	)
}
