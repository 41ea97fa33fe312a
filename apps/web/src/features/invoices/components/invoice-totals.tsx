import { formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import type { DocumentTotals, Money } from '@blocksmith/contracts/invoice-money.ts'
import type { TaxRate } from '@blocksmith/contracts/invoices.ts'
import type { ReactNode } from 'react'

// The totals block: net, discounts, the VAT per rate (EN 16931's breakdown: one figure per rate,
// rounded once), the total, and for a finalized invoice what was paid, credited and is due.

type Extra = { label: string; minor: number }

export function InvoiceTotals({
	totals,
	taxRates,
	locale,
	extras = [],
	note,
}: {
	totals: DocumentTotals | null
	taxRates: readonly Pick<TaxRate, 'id' | 'name'>[]
	locale?: string
	/** Rows after the total: paid, credited, due. */
	extras?: Extra[]
	/** Shown instead of the figures when they cannot be computed. */
	note?: ReactNode
}) {
	if (!totals) {
		return (
			<section aria-label="Totals" className="rounded-lg border p-4 text-muted-foreground text-sm">
				{note ?? 'The totals appear once every line is valid.'}
			</section>
		)
	}
	const money = (value: Money | number) =>
		formatMoney(typeof value === 'number' ? value : value.minor, totals.currency, locale)
	const rateName = (ids: string[], rate: string) =>
		taxRates.find((candidate) => ids.includes(candidate.id))?.name ?? `VAT ${rate} %`
	return (
		<section aria-label="Totals" className="grid gap-1 rounded-lg border p-4 text-sm">
			<dl className="grid grid-cols-[1fr_auto] gap-x-6 gap-y-1">
				<Row label="Net" value={money(totals.lineNetTotal)} />
				{totals.allowanceTotal.minor !== 0 ? (
					<Row label="Discounts" value={`−${money(totals.allowanceTotal)}`} />
				) : null}
				{totals.vatBreakdown.map((group) => (
					<Row
						key={`${group.categoryCode}-${group.rate}`}
						label={`${rateName(group.taxRateIds, group.rate)} on ${money(group.taxableAmount)}`}
						value={money(group.taxAmount)}
					/>
				))}
				<Row label="Total" value={money(totals.taxInclusiveAmount)} isStrong />
				{extras.map((extra) => (
					<Row key={extra.label} label={extra.label} value={money(extra.minor)} isStrong={extra.label === 'Due'} />
				))}
			</dl>
		</section>
	)
}

function Row({ label, value, isStrong = false }: { label: string; value: string; isStrong?: boolean }) {
	const weight = isStrong ? 'font-semibold text-foreground' : 'text-muted-foreground'
	return (
		<>
			<dt className={weight}>{label}</dt>
			<dd className={`text-right tabular-nums ${weight}`}>{value}</dd>
		</>
	)
}

/** The stored totals of an invoice (the money core's figures, kept as JSON by the server). */
export function storedTotals(totals: Record<string, unknown> | null): DocumentTotals | null {
	return totals && typeof totals.currency === 'string' && Array.isArray(totals.vatBreakdown)
		? (totals as unknown as DocumentTotals)
		: null
}
