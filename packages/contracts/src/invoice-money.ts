import type Big from 'big.js'
import { z } from 'zod'
import type { FieldError } from './errors.ts'
import { decimalToMinor, isCurrency, minorToDecimal, minorUnitsOf } from './invoice-currencies.ts'
import { Decimal, normalizeDecimal, parseDecimal, roundToInteger, splitProportionally } from './invoice-decimal.ts'

// The money of an invoice: line nets, document discounts, the VAT breakdown and the totals, as
// EN 16931 defines them. The editor (as the user types), the server (before it stores), the PDF,
// the UBL/CII export and the figures written back to the workspace row all call
// `computeInvoiceTotals`, so the same invoice reads the same to the cent everywhere. The why of
// each rule is in docs/decisions/031-invoice-money.md.
//
// Exact arithmetic only: inputs are decimal strings, products and percentages are computed with
// big.js (exact for + − ×; a division by 100 is exact at the precision set in invoice-decimal.ts), and every
// rounded figure is an integer of minor units (bigint inside, a safe integer outside).
//
// The rules, in order:
// - Line (BG-25): gross = quantity × unit price, rounded to the currency's minor units; its
//   discount (BT-136) is the amount given, or gross × percent rounded on its own, so that
//   gross − discount = net (BT-131) holds on paper. A 100 % discount leaves exactly 0.
//   Quantities have up to 4 decimals and are negative only with `allowNegativeQuantities`
//   (credit lines); unit prices have up to 4 decimals more than the currency and are never
//   negative (BR-27): a negative line is a negative quantity. Each line has ONE VAT rate:
//   EN 16931 gives a line one VAT category and rate (BG-30); see the decision for other taxes.
// - VAT groups: lines are grouped by (category code, rate), in the order they first appear;
//   two tax-rate records with the same category and rate are one group (BR-CO-… keys).
// - Document discounts (BG-20 allowances), each computed on the line nets (never compounding):
//   a percent becomes one allowance per group (base BT-93 = the group's nets, amount rounded per
//   group); an amount is split across the groups in proportion to their nets with the
//   largest-remainder method, so the parts add up to exactly the amount. Together they may not
//   exceed the sum of the line nets.
// - Breakdown (BG-23): taxable (BT-116) = Σ line nets − Σ allowances of the group (BR-S-08…);
//   tax (BT-117) = taxable × rate / 100, rounded ONCE per group (BR-CO-17). With `lineRounding`
//   (a per-profile option, not the standard's way) each line's VAT and each allowance's VAT is
//   rounded and those are summed instead.
// - Totals: BT-106 = Σ line nets, BT-107 = Σ allowances, BT-109 = BT-106 − BT-107,
//   BT-110 = Σ BT-117, BT-112 = BT-109 + BT-110, BT-113 = paid, BT-115 = BT-112 − BT-113.
// - Rounding: half-up (ties away from zero, so a credit note mirrors its invoice exactly) or,
//   per profile, half-even; one mode for every rounding of the document.
// Bad input is not thrown: the result lists field errors (`lines.2.quantity`) for a 400.

const maxQuantityDecimals = 4
const extraUnitPriceDecimals = 4
const maxPercentDecimals = 4

/** EN 16931 VAT category codes (UNTDID 5305 subset): which rates each may carry is checked. */
export const vatCategoryCodes = ['S', 'Z', 'E', 'AE', 'K', 'G', 'O', 'L', 'M'] as const
export type VatCategoryCode = (typeof vatCategoryCodes)[number]

export const roundingModes = ['halfUp', 'halfEven'] as const
export type RoundingMode = (typeof roundingModes)[number]

const decimalString = (message: string) => z.string().regex(/^-?\d{1,15}(\.\d{1,10})?$/, message)
const percentString = z.string().regex(/^\d{1,3}(\.\d{1,4})?$/, 'Enter a percentage from 0 to 100.')

export const taxRateSchema = z.object({
	id: z.string().min(1),
	name: z.string(),
	/** Percent as a decimal string: "19", "5.5", "0". */
	rate: percentString,
	categoryCode: z.enum(vatCategoryCodes),
})
export type TaxRate = z.infer<typeof taxRateSchema>

export const discountSchema = z.discriminatedUnion('kind', [
	z.object({ kind: z.literal('percent'), percent: percentString }),
	z.object({ kind: z.literal('amount'), amount: decimalString('Enter an amount such as 10.00.') }),
])
export type Discount = z.infer<typeof discountSchema>

export const lineSchema = z.object({
	quantity: decimalString('Enter a quantity such as 1 or 2.5.'),
	unitPrice: decimalString('Enter a price such as 100.00.'),
	taxRateId: z.string().min(1),
	discount: discountSchema.nullable().optional(),
})
export type Line = z.infer<typeof lineSchema>

/** An invoice-level discount (BG-20); `reason` is BT-97 on every allowance it becomes. */
const reason = z.string().max(300).nullable().optional()
export const documentDiscountSchema = z.discriminatedUnion('kind', [
	discountSchema.options[0].extend({ reason }),
	discountSchema.options[1].extend({ reason }),
])
export type DocumentDiscount = z.infer<typeof documentDiscountSchema>

export type InvoiceMoneyInput = {
	currency: string
	lines: readonly Line[]
	/** The rates the lines may refer to (the profile's); only those referred to are checked. */
	taxRates: readonly TaxRate[]
	discounts?: readonly DocumentDiscount[]
	/** Paid or prepaid so far (BT-113), in the currency's decimals. */
	paid?: string
	rounding?: RoundingMode
	lineRounding?: boolean
	/** Credit lines: quantities below zero are refused unless the caller allows them. */
	allowNegativeQuantities?: boolean
}

/** Every figure twice: integer minor units for storage and sums, the decimal string for text and XML. */
export type Money = { minor: number; decimal: string }

export type LineTotals = {
	/** quantity × unit price, rounded. */
	gross: Money
	/** The line's discount (BT-136), zero when it has none. */
	discount: Money
	/** BT-131. */
	net: Money
	/** The line's own rounded VAT, only with `lineRounding` (the standard has no such figure). */
	vat: Money | null
	categoryCode: VatCategoryCode
	/** The rate, normalized ("19", "5.5"). */
	rate: string
}

/** A document-level allowance (BG-20) carrying one VAT category and rate. */
export type Allowance = {
	/** Which of the input discounts it comes from. */
	discountIndex: number
	categoryCode: VatCategoryCode
	rate: string
	/** BT-92. */
	amount: Money
	/** BT-93 and BT-94, for a percent discount; null for a split amount. */
	baseAmount: Money | null
	percent: string | null
	/** BT-97. */
	reason: string | null
}

/** One VAT breakdown (BG-23) per (category, rate). */
export type VatBreakdown = {
	categoryCode: VatCategoryCode
	rate: string
	taxRateIds: string[]
	/** BT-116. */
	taxableAmount: Money
	/** BT-117. */
	taxAmount: Money
}

export type DocumentTotals = {
	currency: string
	minorUnits: number
	rounding: RoundingMode
	lineRounding: boolean
	lines: LineTotals[]
	allowances: Allowance[]
	vatBreakdown: VatBreakdown[]
	/** BT-106. */
	lineNetTotal: Money
	/** BT-107. */
	allowanceTotal: Money
	/** BT-109. */
	taxExclusiveAmount: Money
	/** BT-110. */
	vatTotal: Money
	/** BT-112. */
	taxInclusiveAmount: Money
	/** BT-113. */
	paidAmount: Money
	/** BT-115 (negative when overpaid). */
	amountDue: Money
}

export type TotalsResult = { ok: true; totals: DocumentTotals } | { ok: false; errors: FieldError[] }

function parsePercent(text: string): Big | null {
	const value = parseDecimal(text, maxPercentDecimals, 3)
	return value?.gte('0') && value.lte('100') ? value : null
}

/** Why a rate does not fit its category, or null: EN 16931 BR-S-05, BR-Z-05, BR-E-05, BR-AE-05 … */
function rateProblem(category: VatCategoryCode, rate: Big): string | null {
	if (category === 'S') {
		return rate.gt('0') ? null : 'A standard rate (S) must be above 0 %.'
	}
	if (category === 'L' || category === 'M') {
		return null
	}
	return rate.eq('0') ? null : `Category ${category} has a rate of 0 %.`
}

type Group = {
	categoryCode: VatCategoryCode
	rate: Big
	taxRateIds: string[]
	/** Σ line nets. */
	base: bigint
	lineIndexes: number[]
	allowances: bigint[]
}

type LineFigures = { gross: bigint; discount: bigint; net: bigint; group: Group }

type AllowanceFigures = {
	discountIndex: number
	group: Group
	amount: bigint
	base: bigint | null
	percent: string | null
	reason: string | null
}

/** What every step shares: the currency, the rounding, and the errors found so far. */
type Run = {
	currency: string
	digits: number
	rounding: RoundingMode
	errors: FieldError[]
	/** Records an error; returns null, so a step can `return run.fail(…)`. */
	fail: (field: string, message: string) => null
	/** value × percent / 100, rounded to a whole number (of minor units). */
	percentOf: (value: Big | bigint, percent: Big) => bigint
}

/** The line's VAT group, created on first use; null (and an error) for a rate it cannot use. */
function groupOf(run: Run, input: InvoiceMoneyInput, line: Line, field: string, groups: Map<string, Group>) {
	const index = input.taxRates.findIndex((rate) => rate.id === line.taxRateId)
	const taxRate = input.taxRates[index]
	if (!taxRate) {
		return run.fail(`${field}.taxRateId`, 'Choose one of the tax rates of this profile.')
	}
	const rateField = `taxRates.${index}`
	if (!vatCategoryCodes.includes(taxRate.categoryCode)) {
		return run.fail(`${rateField}.categoryCode`, 'Choose an EN 16931 VAT category code.')
	}
	const rate = parsePercent(taxRate.rate)
	const problem = rate ? rateProblem(taxRate.categoryCode, rate) : 'Enter a rate from 0 to 100 %.'
	if (!rate || problem) {
		// Several lines may share the bad rate: say it once.
		if (!run.errors.some((error) => error.field === `${rateField}.rate`)) {
			run.fail(`${rateField}.rate`, problem ?? '')
		}
		return null
	}
	const key = `${taxRate.categoryCode}|${normalizeDecimal(rate, maxPercentDecimals)}`
	let group = groups.get(key)
	if (!group) {
		group = { categoryCode: taxRate.categoryCode, rate, taxRateIds: [], base: 0n, lineIndexes: [], allowances: [] }
		groups.set(key, group)
	}
	if (!group.taxRateIds.includes(taxRate.id)) {
		group.taxRateIds.push(taxRate.id)
	}
	return group
}

function lineFigures(
	run: Run,
	input: InvoiceMoneyInput,
	line: Line,
	index: number,
	groups: Map<string, Group>,
): LineFigures | null {
	const field = `lines.${index}`
	const group = groupOf(run, input, line, field, groups)
	const quantity = parseDecimal(line.quantity, maxQuantityDecimals, 9)
	const priceDecimals = run.digits + extraUnitPriceDecimals
	const unitPrice = parseDecimal(line.unitPrice, priceDecimals, 12)
	const errorCount = run.errors.length
	if (!quantity) {
		run.fail(`${field}.quantity`, `Enter a quantity such as 2 or 1.5 (at most ${maxQuantityDecimals} decimals).`)
	} else if (quantity.lt('0') && !input.allowNegativeQuantities) {
		run.fail(`${field}.quantity`, 'The quantity cannot be negative here.')
	}
	if (!unitPrice) {
		run.fail(`${field}.unitPrice`, `Enter a price such as 100.00 (at most ${priceDecimals} decimals).`)
	} else if (unitPrice.lt('0')) {
		run.fail(`${field}.unitPrice`, 'The price cannot be negative; use a negative quantity for a credit.')
	}
	if (run.errors.length > errorCount || !quantity || !unitPrice || !group) {
		return null
	}
	const exactGross = quantity.times(unitPrice).times(new Decimal(10n ** BigInt(run.digits)))
	const gross = roundToInteger(exactGross, run.rounding)
	if (!Number.isSafeInteger(Number(gross))) {
		return run.fail(`${field}.unitPrice`, "This line's amount is too large.")
	}
	let discount = 0n
	if (line.discount?.kind === 'percent') {
		const percent = parsePercent(line.discount.percent)
		if (!percent) {
			return run.fail(`${field}.discount.percent`, 'Enter a percentage from 0 to 100.')
		}
		discount = run.percentOf(exactGross, percent)
	} else if (line.discount?.kind === 'amount') {
		const amount = decimalToMinor(line.discount.amount, run.currency)
		if (!amount.ok) {
			return run.fail(`${field}.discount.amount`, amount.message)
		}
		if (amount.minor < 0n || amount.minor > (gross < 0n ? -gross : gross)) {
			return run.fail(`${field}.discount.amount`, "The discount must be between 0 and the line's amount.")
		}
		// A discount shrinks a credit line too: it takes the line's sign.
		discount = gross < 0n ? -amount.minor : amount.minor
	}
	const net = gross - discount
	group.base += net
	group.lineIndexes.push(index)
	return { gross, discount, net, group }
}

/**
 * The document discounts as allowances per VAT group. `lineNetTotal` is null when a line had an
 * error: the discounts are then checked on their own, not against a total that is not known.
 */
function allowancesOf(run: Run, input: InvoiceMoneyInput, groups: Group[], lineNetTotal: bigint | null) {
	const allowances: AllowanceFigures[] = []
	;(input.discounts ?? []).forEach((discount, discountIndex) => {
		const field = `discounts.${discountIndex}`
		const reason = discount.reason ?? null
		if (discount.kind === 'percent') {
			const percent = parsePercent(discount.percent)
			if (!percent) {
				run.fail(`${field}.percent`, 'Enter a percentage from 0 to 100.')
				return
			}
			for (const group of groups) {
				const amount = run.percentOf(group.base, percent)
				if (amount !== 0n) {
					allowances.push({
						discountIndex,
						group,
						amount,
						base: group.base,
						percent: normalizeDecimal(percent, maxPercentDecimals),
						reason,
					})
				}
			}
			return
		}
		const amount = decimalToMinor(discount.amount, run.currency)
		if (!amount.ok) {
			run.fail(`${field}.amount`, amount.message)
		} else if (amount.minor < 0n) {
			run.fail(`${field}.amount`, 'The discount cannot be negative.')
		} else if (lineNetTotal === null || amount.minor === 0n) {
			return
		} else if (lineNetTotal === 0n || (lineNetTotal < 0n && !input.allowNegativeQuantities)) {
			run.fail(`${field}.amount`, 'An amount discount needs lines that add up to more than zero.')
		} else {
			// A credit note's lines add up to less than zero: its amount discount takes off as much
			// as it would on an invoice, below zero too, split over the groups the same way.
			const sign = lineNetTotal < 0n ? -1n : 1n
			if (amount.minor > lineNetTotal * sign) {
				run.fail(`${field}.amount`, "The discount is larger than the lines' total.")
				return
			}
			const parts = splitProportionally(
				amount.minor,
				groups.map((group) => group.base * sign),
			)
			groups.forEach((group, index) => {
				const part = (parts[index] ?? 0n) * sign
				if (part !== 0n) {
					allowances.push({ discountIndex, group, amount: part, base: null, percent: null, reason })
				}
			})
		}
	})
	const total = allowances.reduce((sum, allowance) => sum + allowance.amount, 0n)
	const discountErrors = run.errors.some((error) => error.field.startsWith('discounts'))
	const size = (value: bigint) => (value < 0n ? -value : value)
	if (lineNetTotal !== null && total !== 0n && size(total) > size(lineNetTotal) && !discountErrors) {
		run.fail('discounts', "Together the discounts are larger than the lines' total.")
	}
	return { allowances, total }
}

function paidOf(run: Run, paid: string | undefined): bigint {
	const parsed = decimalToMinor(paid ?? '0', run.currency)
	if (!parsed.ok) {
		run.fail('paid', parsed.message)
	} else if (parsed.minor < 0n) {
		run.fail('paid', 'The amount paid cannot be negative.')
	}
	return parsed.ok ? parsed.minor : 0n
}

/** The whole computation; see the file's header for the rules. */
export function computeInvoiceTotals(input: InvoiceMoneyInput): TotalsResult {
	if (!isCurrency(input.currency)) {
		return { ok: false, errors: [{ field: 'currency', message: 'Choose an ISO 4217 currency code such as EUR.' }] }
	}
	const currency = input.currency
	const rounding = input.rounding ?? 'halfUp'
	const lineRounding = input.lineRounding ?? false
	const errors: FieldError[] = []
	const run: Run = {
		currency,
		digits: minorUnitsOf(currency),
		rounding,
		errors,
		fail: (field, message) => {
			errors.push({ field, message })
			return null
		},
		percentOf: (value, percent) => roundToInteger(new Decimal(value).times(percent).div('100'), rounding),
	}

	const groupsByKey = new Map<string, Group>()
	const lines = input.lines.map((line, index) => lineFigures(run, input, line, index, groupsByKey))
	const groups = [...groupsByKey.values()]
	const linesValid = errors.length === 0
	const lineNetTotal = lines.reduce((sum, line) => sum + (line?.net ?? 0n), 0n)
	const allowances = allowancesOf(run, input, groups, linesValid ? lineNetTotal : null)
	const paid = paidOf(run, input.paid)
	if (errors.length > 0) {
		return { ok: false, errors }
	}
	for (const allowance of allowances.allowances) {
		allowance.group.allowances.push(allowance.amount)
	}

	const vatOf = (amount: bigint, group: Group) => run.percentOf(amount, group.rate)
	const lineVat = lines.map((line) => (lineRounding && line ? vatOf(line.net, line.group) : null))
	const breakdown = groups.map((group) => {
		const taxable = group.base - group.allowances.reduce((sum, amount) => sum + amount, 0n)
		const tax = lineRounding
			? group.lineIndexes.reduce((sum, index) => sum + (lineVat[index] ?? 0n), 0n) -
				group.allowances.reduce((sum, amount) => sum + vatOf(amount, group), 0n)
			: vatOf(taxable, group)
		return { group, taxable, tax }
	})
	const taxExclusive = lineNetTotal - allowances.total
	const vatTotal = breakdown.reduce((sum, entry) => sum + entry.tax, 0n)
	const taxInclusive = taxExclusive + vatTotal
	const due = taxInclusive - paid
	if ([lineNetTotal, taxExclusive, taxInclusive, due].some((figure) => !Number.isSafeInteger(Number(figure)))) {
		return { ok: false, errors: [{ field: 'lines', message: "The invoice's total is too large." }] }
	}

	const money = (minor: bigint): Money => ({ minor: Number(minor), decimal: minorToDecimal(minor, currency) })
	const rateOf = (group: Group) => normalizeDecimal(group.rate, maxPercentDecimals)
	return {
		ok: true,
		totals: {
			currency,
			minorUnits: run.digits,
			rounding,
			lineRounding,
			// No line is null here: a line that failed is an error, returned above.
			lines: (lines as LineFigures[]).map((line, index) => {
				const vat = lineVat[index]
				return {
					gross: money(line.gross),
					discount: money(line.discount),
					net: money(line.net),
					vat: vat === null || vat === undefined ? null : money(vat),
					categoryCode: line.group.categoryCode,
					rate: rateOf(line.group),
				}
			}),
			allowances: allowances.allowances.map((allowance) => ({
				discountIndex: allowance.discountIndex,
				categoryCode: allowance.group.categoryCode,
				rate: rateOf(allowance.group),
				amount: money(allowance.amount),
				baseAmount: allowance.base === null ? null : money(allowance.base),
				percent: allowance.percent,
				reason: allowance.reason,
			})),
			vatBreakdown: breakdown.map(({ group, taxable, tax }) => ({
				categoryCode: group.categoryCode,
				rate: rateOf(group),
				taxRateIds: group.taxRateIds,
				taxableAmount: money(taxable),
				taxAmount: money(tax),
			})),
			lineNetTotal: money(lineNetTotal),
			allowanceTotal: money(allowances.total),
			taxExclusiveAmount: money(taxExclusive),
			vatTotal: money(vatTotal),
			taxInclusiveAmount: money(taxInclusive),
			paidAmount: money(paid),
			amountDue: money(due),
		},
	}
}
