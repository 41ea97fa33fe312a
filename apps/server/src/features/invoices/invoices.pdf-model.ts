import { formatDecimal, formatDecimalMoney, formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import type { Discount, DocumentTotals, Money } from '@blocksmith/contracts/invoice-money.ts'
import type { InvoiceProfile, TaxRate } from '@blocksmith/contracts/invoices.ts'

// What an invoice PDF shows, and every text on it. The renderer (invoices.pdf.ts) only places
// these strings: nothing here or there computes a figure. Amounts are the money core's totals
// (`computeInvoiceTotals`), the same the XML and the row written back hold, formatted with its
// exact formatters in the profile's locale and the invoice's currency. Labels are English; the
// locale sets how numbers and dates read.

/** The sender as the profile gives it, with the logo's bytes (PNG or JPEG) when it has one. */
export type InvoiceSender = Pick<
	InvoiceProfile,
	'legalName' | 'address' | 'taxIds' | 'email' | 'bank' | 'notes' | 'footer' | 'template' | 'locale'
> & {
	logo: { bytes: Uint8Array } | null
}

type InvoiceClient = {
	name: string
	address: { lines: string[]; postcode: string; city: string; country: string } | null
	taxId: string | null
	email: string | null
}

/** A line as the user wrote it; its figures are `totals.lines` at the same index. */
export type InvoiceDocumentLine = {
	description: string
	/** Decimal strings, as the money core took them. */
	quantity: string
	unit: string | null
	unitPrice: string
	discount: Discount | null
	taxRateId: string
}

export type InvoiceDocument = {
	profile: InvoiceSender
	kind: 'invoice' | 'creditNote'
	/** The number of the invoice a credit note corrects. */
	corrects: string | null
	/** Null for a draft, which has no number yet. */
	number: string | null
	/** Calendar days, YYYY-MM-DD. */
	issueDate: string
	dueDate: string | null
	client: InvoiceClient
	lines: InvoiceDocumentLine[]
	/** The rates the lines refer to: names, and why no VAT is charged for exempt categories. */
	taxRates: (Pick<TaxRate, 'id' | 'name' | 'exemptionReason'> & {
		/** The reason's VATEX code, for e-invoices (BT-121). */
		exemptionReasonCode?: string | null
	})[]
	/** Exactly as `computeInvoiceTotals` returned them for these lines. */
	totals: DocumentTotals
	/** E.g. "Payable within 14 days"; printed with the due date. */
	paymentTerms: string | null
	/** Where the invoice can be paid online. */
	paymentLink: string | null
}

type TotalRow = { label: string; value: string; isStrong?: boolean }

/** The texts of a document, ready to place. */
export type InvoiceTexts = {
	title: string
	/** "INV-2026-0001", or "Draft". */
	number: string
	/** Label and value pairs: number, dates, the corrected invoice. */
	meta: [string, string][]
	sender: { name: string; lines: string[] }
	client: { name: string; lines: string[] }
	columns: { description: string; quantity: string; unitPrice: string; discount: string; vat: string; amount: string }
	lines: { description: string; quantity: string; unitPrice: string; discount: string; vat: string; amount: string }[]
	/** One per VAT category and rate: the rate, what it is, the taxable amount and the tax. */
	vat: { rate: string; label: string; taxable: string; tax: string }[]
	totals: TotalRow[]
	payment: string[]
	notes: string | null
	footer: string | null
	/** For the footer of every page. */
	pageLabel: string
}

const dateFormats = new Map<string, Intl.DateTimeFormat>()

function dayText(day: string, locale: string): string {
	let format = dateFormats.get(locale)
	if (!format) {
		format = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' })
		dateFormats.set(locale, format)
	}
	// A calendar day, read and written in UTC so no time zone moves it.
	return format.format(new Date(`${day}T00:00:00Z`))
}

function addressLines(address: InvoiceClient['address']): string[] {
	if (!address) {
		return []
	}
	const city = [address.postcode, address.city].filter(Boolean).join(' ')
	return [...address.lines, city, address.country].filter(Boolean)
}

function percentText(rate: string, locale: string): string {
	return `${formatDecimal(rate, locale)} %`
}

function discountText(discount: Discount | null, currency: string, locale: string): string {
	if (!discount) {
		return ''
	}
	return discount.kind === 'percent'
		? percentText(discount.percent, locale)
		: formatDecimalMoney(discount.amount, currency, locale, { display: 'none' })
}

export function invoiceTexts(document: InvoiceDocument): InvoiceTexts {
	const { profile, totals, client } = document
	const { locale } = profile
	const { currency } = totals
	const amount = (money: Money) => formatMoney(money.minor, currency, locale, { display: 'none' })
	const withCurrency = (money: Money) => formatMoney(money.minor, currency, locale)
	const negative = (money: Money) => formatMoney(-money.minor, currency, locale)
	const isCreditNote = document.kind === 'creditNote'
	const number = document.number ?? 'Draft'
	const rateName = new Map(document.taxRates.map((rate) => [rate.id, rate]))

	const meta: [string, string][] = [[isCreditNote ? 'Credit note no.' : 'Invoice no.', number]]
	if (isCreditNote && document.corrects) {
		meta.push(['Corrects invoice', document.corrects])
	}
	meta.push(['Issue date', dayText(document.issueDate, locale)])
	if (document.dueDate) {
		meta.push(['Due date', dayText(document.dueDate, locale)])
	}

	const senderLines = [...addressLines(profile.address)]
	if (profile.taxIds.vatId) {
		senderLines.push(`VAT ID ${profile.taxIds.vatId}`)
	}
	for (const other of profile.taxIds.other) {
		senderLines.push(`${other.label} ${other.value}`)
	}
	if (profile.email) {
		senderLines.push(profile.email)
	}
	const clientLines = addressLines(client.address)
	if (client.taxId) {
		clientLines.push(`VAT ID ${client.taxId}`)
	}
	if (client.email) {
		clientLines.push(client.email)
	}

	const lines = document.lines.map((line, index) => {
		const figures = totals.lines[index]
		if (!figures) {
			throw new RangeError(`The totals have no line ${index}: render with the totals of these lines.`)
		}
		return {
			description: line.description,
			quantity: [formatDecimal(line.quantity, locale), line.unit].filter(Boolean).join(' '),
			// Unit prices carry up to 4 decimals more than the currency (decision 031).
			unitPrice: formatDecimalMoney(line.unitPrice, currency, locale, {
				display: 'none',
				maxDecimals: totals.minorUnits + 4,
			}),
			discount: discountText(line.discount, currency, locale),
			vat: percentText(figures.rate, locale),
			amount: amount(figures.net),
		}
	})

	const vat = totals.vatBreakdown.map((group) => {
		const rates = group.taxRateIds.map((id) => rateName.get(id)).filter((rate) => rate !== undefined)
		const reason = rates.find((rate) => rate.exemptionReason)?.exemptionReason
		const label = [rates.map((rate) => rate.name).join(', ') || `VAT ${group.categoryCode}`, reason]
			.filter(Boolean)
			.join(' · ')
		return {
			rate: percentText(group.rate, locale),
			label,
			taxable: amount(group.taxableAmount),
			tax: amount(group.taxAmount),
		}
	})

	const rows: TotalRow[] = [{ label: 'Subtotal', value: withCurrency(totals.lineNetTotal) }]
	for (const allowance of totals.allowances) {
		const what = allowance.percent ? `Discount ${percentText(allowance.percent, locale)}` : 'Discount'
		const reason = allowance.reason ? ` (${allowance.reason})` : ''
		rows.push({
			label: `${what}${reason}, VAT ${percentText(allowance.rate, locale)}`,
			value: negative(allowance.amount),
		})
	}
	if (totals.allowances.length > 0) {
		rows.push({ label: 'Total without VAT', value: withCurrency(totals.taxExclusiveAmount) })
	}
	for (const group of totals.vatBreakdown) {
		rows.push({ label: `VAT ${percentText(group.rate, locale)}`, value: withCurrency(group.taxAmount) })
	}
	rows.push({ label: 'Total', value: withCurrency(totals.taxInclusiveAmount), isStrong: totals.paidAmount.minor === 0 })
	if (totals.paidAmount.minor !== 0) {
		rows.push({ label: 'Paid', value: negative(totals.paidAmount) })
		rows.push({ label: 'Amount due', value: withCurrency(totals.amountDue), isStrong: true })
	}

	const payment: string[] = []
	if (document.paymentTerms) {
		payment.push(document.paymentTerms)
	}
	if (profile.bank?.kind === 'iban') {
		const holder = profile.bank.accountHolder ?? profile.legalName
		payment.push(`Account holder: ${holder}`)
		payment.push(`IBAN: ${profile.bank.iban.replace(/(.{4})(?=.)/g, '$1 ')}`)
		if (profile.bank.bic) {
			payment.push(`BIC: ${profile.bank.bic}`)
		}
		if (document.number) {
			payment.push(`Reference: ${document.number}`)
		}
	} else if (profile.bank?.kind === 'text') {
		payment.push(...profile.bank.text.split('\n'))
	}
	if (document.paymentLink) {
		payment.push(`Pay online: ${document.paymentLink}`)
	}

	const title = isCreditNote ? 'Credit note' : 'Invoice'
	return {
		title,
		number,
		meta,
		sender: { name: profile.legalName, lines: senderLines },
		client: { name: client.name, lines: clientLines },
		columns: {
			description: 'Description',
			quantity: 'Quantity',
			unitPrice: 'Unit price',
			discount: 'Discount',
			vat: 'VAT',
			amount: `Amount (${currency})`,
		},
		lines,
		vat,
		totals: rows,
		payment,
		notes: profile.notes,
		footer: profile.footer,
		pageLabel: `${title} ${number} · ${profile.legalName}`,
	}
}
