import type { Money, VatBreakdown } from '@blocksmith/contracts/invoice-money.ts'
import type { InvoiceDocument } from './invoices.pdf-model.ts'

// What the UBL and CII writers share: identifiers, signs, unit codes, VAT categories. The
// header of invoices.einvoice.ts says how amounts and credit notes are written.

/** Peppol BIS Billing 3.0 (a CIUS of EN 16931), in UBL. */
export const peppolCustomizationId = 'urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0'
export const peppolProfileId = 'urn:fdc:peppol.eu:2017:poacc:billing:01:1.0'
/** EN 16931 itself, in CII (Factur-X's EN 16931 profile). */
export const en16931Id = 'urn:cen.eu:en16931:2017'

/** A decimal string with its sign turned ("-12.50" → "12.50", "3" → "-3", zero stays zero). */
export function negateDecimal(value: string): string {
	if (value.startsWith('-')) {
		return value.slice(1)
	}
	return /^[0.]+$/.test(value) ? value : `-${value}`
}

/** Amounts and quantities as the XML writes them: turned for a credit note (see the header). */
export function signed(document: InvoiceDocument): (value: string) => string {
	return document.kind === 'creditNote' ? negateDecimal : (value) => value
}

export function amountOf(document: InvoiceDocument): (money: Money) => string {
	const sign = signed(document)
	return (money) => sign(money.decimal)
}

// UN/ECE Recommendation 20 codes for the units people type (EN 16931 BT-130). Anything not
// recognised is C62 ("one"), which every validator accepts for a count of things.
const unitCodes: Record<string, string> = {
	h: 'HUR',
	hr: 'HUR',
	hrs: 'HUR',
	hour: 'HUR',
	hours: 'HUR',
	std: 'HUR',
	stunde: 'HUR',
	stunden: 'HUR',
	heure: 'HUR',
	heures: 'HUR',
	min: 'MIN',
	mins: 'MIN',
	minute: 'MIN',
	minutes: 'MIN',
	minuten: 'MIN',
	d: 'DAY',
	day: 'DAY',
	days: 'DAY',
	tag: 'DAY',
	tage: 'DAY',
	jour: 'DAY',
	jours: 'DAY',
	week: 'WEE',
	weeks: 'WEE',
	woche: 'WEE',
	wochen: 'WEE',
	month: 'MON',
	months: 'MON',
	monat: 'MON',
	monate: 'MON',
	mois: 'MON',
	year: 'ANN',
	years: 'ANN',
	jahr: 'ANN',
	jahre: 'ANN',
	pc: 'H87',
	pcs: 'H87',
	piece: 'H87',
	pieces: 'H87',
	stk: 'H87',
	stück: 'H87',
	kg: 'KGM',
	g: 'GRM',
	t: 'TNE',
	m: 'MTR',
	km: 'KMT',
	m2: 'MTK',
	'm²': 'MTK',
	m3: 'MTQ',
	'm³': 'MTQ',
	l: 'LTR',
	litre: 'LTR',
	liter: 'LTR',
	kwh: 'KWH',
	set: 'SET',
	sets: 'SET',
	pair: 'PR',
	pairs: 'PR',
	page: 'C62',
	pages: 'C62',
}
const rec20Codes = new Set([...Object.values(unitCodes), 'C62', 'EA', 'LS', 'XPP'])

/** The Rec 20 code of a free-text unit ("h", "Stunden", "pcs", or a code such as "HUR"). */
export function unitCode(unit: string | null): string {
	const text = unit?.trim() ?? ''
	if (rec20Codes.has(text.toUpperCase()) && text.length > 1) {
		return text.toUpperCase()
	}
	return unitCodes[text.toLowerCase().replace(/\.$/, '')] ?? 'C62'
}

/** Categories with no rate in the XML: O ("not subject to VAT") carries none (BR-O-05). */
export function hasRate(categoryCode: string): boolean {
	return categoryCode !== 'O'
}

/**
 * The seller's and the buyer's VAT identifiers as the XML may carry them: none on an invoice
 * not subject to VAT (category O, BR-O-02), which may have no other category (BR-O-11).
 */
export function vatIdsOf(document: InvoiceDocument): { seller: string | null; buyer: string | null } {
	if (document.totals.vatBreakdown.some((group) => group.categoryCode === 'O')) {
		return { seller: null, buyer: null }
	}
	return { seller: document.profile.taxIds.vatId, buyer: document.client.taxId }
}

/**
 * BT-30, the seller's legal registration identifier: the first of the profile's other
 * registrations (the settings offer them for a company register number or a SIRET).
 */
export function registrationIdOf(document: InvoiceDocument): string | null {
	return document.profile.taxIds.other[0]?.value ?? null
}

/** The exemption reason (BT-120) and its VATEX code (BT-121) of a breakdown's rates. */
export function exemptionOf(document: InvoiceDocument, group: VatBreakdown) {
	const rates = document.taxRates.filter((rate) => group.taxRateIds.includes(rate.id))
	return {
		reason: rates.find((rate) => rate.exemptionReason)?.exemptionReason ?? null,
		code: rates.find((rate) => rate.exemptionReasonCode)?.exemptionReasonCode ?? null,
	}
}

/** The reason of a document allowance (BT-97), or the discount's own words. */
export const discountReason = 'Discount'
/** UNTDID 5189 "Discount" (BT-98 / BT-140). */
export const discountReasonCode = '95'
