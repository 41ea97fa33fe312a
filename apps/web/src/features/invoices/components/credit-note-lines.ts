import { creditNoteDiscounts } from '@blocksmith/contracts/invoice-credit.ts'
import { formatDecimal } from '@blocksmith/contracts/invoice-currencies.ts'
import { Decimal, parseDecimal } from '@blocksmith/contracts/invoice-decimal.ts'
import type { Invoice } from '@blocksmith/contracts/invoice-documents.ts'
import {
	computeInvoiceTotals,
	type DocumentDiscount,
	type DocumentTotals,
	type Line,
	type TaxRate,
	type VatCategoryCode,
} from '@blocksmith/contracts/invoice-money.ts'

// What a credit note may still take of each line, and what a chosen credit comes to: the money
// core's own computation over the lines' frozen rates, so the total shown before confirming is
// the figure the server will store.

export type OpenLine = { index: number; description: string; unit: string | null; left: string }

const quantityOf = (text: string) => parseDecimal(text, 4, 9) ?? new Decimal('0')

/** Each line of the invoice with what earlier credit notes left of it; lines credited in full are left out. */
export function openLines(invoice: Invoice, creditNotes: readonly Invoice[]): OpenLine[] {
	const left = invoice.lines.map((line) => quantityOf(line.quantity))
	for (const note of creditNotes) {
		for (const line of note.lines) {
			const index = line.creditsLine
			const rest = index === null || index === undefined ? undefined : left[index]
			if (rest && index !== null && index !== undefined) {
				// A credit line's quantity is below zero: adding it takes from what is left.
				left[index] = rest.plus(quantityOf(line.quantity))
			}
		}
	}
	return invoice.lines.flatMap((line, index) => {
		const rest = left[index]
		return rest?.gt('0')
			? [{ index, description: line.description, unit: line.unit ?? null, left: rest.toFixed() }]
			: []
	})
}

/** The rates the invoice froze, as the money core takes them, from its stored line totals. */
function frozenRates(invoice: Invoice): TaxRate[] {
	const totals = invoice.totals as DocumentTotals | null
	const rates = new Map<string, TaxRate>()
	invoice.lines.forEach((line, index) => {
		const figures = totals?.lines[index]
		if (figures && !rates.has(line.taxRateId)) {
			rates.set(line.taxRateId, {
				id: line.taxRateId,
				name: line.taxRateId,
				rate: figures.rate,
				categoryCode: figures.categoryCode as VatCategoryCode,
			})
		}
	})
	return [...rates.values()]
}

export type CreditChoice = { line: number; quantity: string }

/**
 * What the credit note of these quantities comes to (below zero), or null while a quantity is not
 * a number. The invoice's amount discounts are carried as the server carries them: their share for
 * these lines, what earlier notes left of them on the last one.
 */
export function creditTotal(
	invoice: Invoice,
	choices: readonly CreditChoice[],
	creditNotes: readonly Invoice[] = [],
): DocumentTotals | null {
	const totals = invoice.totals as DocumentTotals | null
	const lines: Line[] = []
	for (const choice of choices) {
		const source = invoice.lines[choice.line]
		const quantity = parseDecimal(choice.quantity.trim(), 4, 9)
		if (!source || !quantity || quantity.lte('0')) {
			return null
		}
		lines.push({
			quantity: quantity.times('-1').toFixed(),
			unitPrice: source.unitPrice,
			taxRateId: source.taxRateId,
			discount: source.discount ?? null,
		})
	}
	if (lines.length === 0) {
		return null
	}
	const compute = (discounts: DocumentDiscount[]) =>
		computeInvoiceTotals({
			currency: invoice.currency,
			lines,
			taxRates: frozenRates(invoice),
			discounts,
			...(totals ? { rounding: totals.rounding, lineRounding: totals.lineRounding } : {}),
			allowNegativeQuantities: true,
		})
	const plain = compute([])
	if (!plain.ok) {
		return null
	}
	const isLast = openLines(invoice, creditNotes).every((line) =>
		choices.some(
			(choice) => choice.line === line.index && quantityOf(choice.quantity.trim()).eq(quantityOf(line.left)),
		),
	)
	const result = compute(
		creditNoteDiscounts({
			currency: invoice.currency,
			discounts: invoice.discounts,
			invoiceLineNetMinor: totals?.lineNetTotal.minor ?? 0,
			creditedLineNetMinor: -plain.totals.lineNetTotal.minor,
			earlier: creditNotes.map((note) => note.discounts),
			isLast,
			...(totals ? { rounding: totals.rounding } : {}),
		}),
	)
	return result.ok ? result.totals : null
}

/** `quantity` (as typed) is above `limit`; a quantity that is not a number is not. */
export function isMoreThan(quantity: string, limit: string): boolean {
	const parsed = parseDecimal(quantity.trim(), 4, 9)
	return parsed?.gt(quantityOf(limit)) ?? false
}

/** "3 h", "2.5": a quantity as people read it. */
export function quantityText(quantity: string, unit: string | null): string {
	const shown = formatDecimal(quantity)
	return unit ? `${shown} ${unit}` : shown
}
