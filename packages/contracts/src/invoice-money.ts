import Big from 'big.js'
import { z } from 'zod'
import type { FieldError } from './errors.ts'
import { decimalToMinor, isCurrency, minorToDecimal, minorUnitsOf } from './invoice-currencies.ts'

// The money of an invoice: line nets, document discounts, the VAT breakdown and the totals, as
// EN 16931 defines them. The editor (as the user types), the server (before it stores), the PDF,
// the UBL/CII export and the figures written back to the workspace row all call
// `computeInvoiceTotals`, so the same invoice reads the same to the cent everywhere. The why of
// each rule is in docs/decisions/031-invoice-money.md.
//
// Exact arithmetic only: inputs are decimal strings, products and percentages are computed with
// big.js (exact for + − ×; a division by 100 is exact at the precision set below), and every
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

// A constructor of our own, so no other user of big.js changes our settings (nor we theirs).
const Decimal = Big()
// Divisions here are only by 100 (percentages); 40 places keep them exact for our inputs.
Decimal.DP = 40
// A JavaScript number passed by mistake throws instead of carrying a float's error in.
Decimal.strict = true

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
export const documentDiscountSchema = discountSchema.and(z.object({ reason: z.string().nullable().optional() }))
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

const bigRounding = { halfUp: Big.roundHalfUp, halfEven: Big.roundHalfEven } as const

function roundToInteger(value: Big, rounding: RoundingMode): bigint {
	return BigInt(value.round(0, bigRounding[rounding]).toFixed(0))
}

/** A decimal string with at most `maxDecimals` decimals and `maxWhole` whole digits, or null. */
function parseDecimal(text: string, maxDecimals: number, maxWhole = 15): Big | null {
	const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim())
	if (!match || (match[2] ?? '').replace(/^0+(?=\d)/, '').length > maxWhole) {
		return null
	}
	if ((match[3] ?? '').replace(/0+$/, '').length > maxDecimals) {
		return null
	}
	return new Decimal(text.trim())
}

function parsePercent(text: string): Big | null {
	const value = parseDecimal(text, maxPercentDecimals, 3)
	return value?.gte('0') && value.lte('100') ? value : null
}

/** "19.00" → "19", "5.50" → "5.5": one spelling per rate, for grouping and output. */
function normalizeDecimal(value: Big): string {
	const fixed = value.toFixed(maxPercentDecimals)
	return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed
}

/** Floor division for a positive divisor (BigInt division truncates towards zero). */
function floorDiv(numerator: bigint, divisor: bigint): bigint {
	const quotient = numerator / divisor
	return numerator % divisor !== 0n && numerator < 0n ? quotient - 1n : quotient
}

/**
 * `amount` split in proportion to `weights` (their sum must be positive), in whole units that
 * add up to exactly `amount`: each part is floored, and the units left over go one each to the
 * parts with the largest remainders (ties: the earlier part).
 */
export function splitProportionally(amount: bigint, weights: readonly bigint[]): bigint[] {
	const total = weights.reduce((sum, weight) => sum + weight, 0n)
	if (total <= 0n) {
		throw new RangeError('The weights must add up to more than zero.')
	}
	const parts = weights.map((weight) => floorDiv(amount * weight, total))
	const remainders = weights.map((weight, index) => amount * weight - (parts[index] ?? 0n) * total)
	let left = amount - parts.reduce((sum, part) => sum + part, 0n)
	const order = weights.map((_, index) => index)
	order.sort((a, b) => {
		const difference = (remainders[b] ?? 0n) - (remainders[a] ?? 0n)
		return difference > 0n ? 1 : difference < 0n ? -1 : a - b
	})
	for (const index of order) {
		if (left <= 0n) {
			break
		}
		parts[index] = (parts[index] ?? 0n) + 1n
		left -= 1n
	}
	return parts
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
	key: string
	categoryCode: VatCategoryCode
	rate: Big
	taxRateIds: string[]
	base: bigint
	lineIndexes: number[]
	allowances: bigint[]
}

/** The whole computation; see the file's header for the rules. */
export function computeInvoiceTotals(input: InvoiceMoneyInput): TotalsResult {
	const errors: FieldError[] = []
	/** Records the error; returns false so a check can mark its subject invalid in one line. */
	const fail = (field: string, message: string): false => {
		errors.push({ field, message })
		return false
	}
	if (!isCurrency(input.currency)) {
		return { ok: false, errors: [{ field: 'currency', message: 'Choose an ISO 4217 currency code such as EUR.' }] }
	}
	const currency = input.currency
	const digits = minorUnitsOf(currency)
	const rounding = input.rounding ?? 'halfUp'
	const lineRounding = input.lineRounding ?? false
	const toMinor = new Decimal(10n ** BigInt(digits))
	const percentOf = (value: Big, percent: Big) => roundToInteger(value.times(percent).div('100'), rounding)

	const ratesById = new Map(input.taxRates.map((rate, index) => [rate.id, { rate, index }]))
	const groups = new Map<string, Group>()
	// Filled for every line when there is no error; a line with one stays empty (and the result is errors).
	const lines: { gross: bigint; discount: bigint; net: bigint; group: Group }[] = []

	function lineGroup(line: Line, field: string): Group | null {
		const found = ratesById.get(line.taxRateId)
		if (!found) {
			fail(`${field}.taxRateId`, 'Choose one of the tax rates of this profile.')
			return null
		}
		const rateField = `taxRates.${found.index}`
		const { rate: taxRate } = found
		if (!vatCategoryCodes.includes(taxRate.categoryCode)) {
			fail(`${rateField}.categoryCode`, 'Choose an EN 16931 VAT category code.')
			return null
		}
		const rate = parsePercent(taxRate.rate)
		const problem = rate ? rateProblem(taxRate.categoryCode, rate) : 'Enter a rate from 0 to 100 %.'
		if (!rate || problem) {
			// Several lines may share the bad rate: say it once.
			if (!errors.some((error) => error.field === `${rateField}.rate`)) {
				fail(`${rateField}.rate`, problem ?? '')
			}
			return null
		}
		const key = `${taxRate.categoryCode}|${normalizeDecimal(rate)}`
		let group = groups.get(key)
		if (!group) {
			group = {
				key,
				categoryCode: taxRate.categoryCode,
				rate,
				taxRateIds: [],
				base: 0n,
				lineIndexes: [],
				allowances: [],
			}
			groups.set(key, group)
		}
		if (!group.taxRateIds.includes(taxRate.id)) {
			group.taxRateIds.push(taxRate.id)
		}
		return group
	}

	input.lines.forEach((line, index) => {
		const field = `lines.${index}`
		const group = lineGroup(line, field)
		const quantity = parseDecimal(line.quantity, maxQuantityDecimals, 9)
		const priceDecimals = digits + extraUnitPriceDecimals
		const unitPrice = parseDecimal(line.unitPrice, priceDecimals, 12)
		let valid = true
		if (!quantity) {
			valid = fail(`${field}.quantity`, `Enter a quantity such as 2 or 1.5 (at most ${maxQuantityDecimals} decimals).`)
		} else if (quantity.lt('0') && !input.allowNegativeQuantities) {
			valid = fail(`${field}.quantity`, 'The quantity cannot be negative here.')
		}
		if (!unitPrice) {
			valid = fail(`${field}.unitPrice`, `Enter a price such as 100.00 (at most ${priceDecimals} decimals).`)
		} else if (unitPrice.lt('0')) {
			valid = fail(`${field}.unitPrice`, 'The price cannot be negative; use a negative quantity for a credit.')
		}
		if (!valid || !quantity || !unitPrice || !group) {
			return
		}
		const exactGross = quantity.times(unitPrice).times(toMinor)
		const gross = roundToInteger(exactGross, rounding)
		if (!Number.isSafeInteger(Number(gross))) {
			fail(`${field}.unitPrice`, "This line's amount is too large.")
			return
		}
		let discount = 0n
		if (line.discount?.kind === 'percent') {
			const percent = parsePercent(line.discount.percent)
			if (percent) {
				discount = percentOf(exactGross, percent)
			} else {
				fail(`${field}.discount.percent`, 'Enter a percentage from 0 to 100.')
			}
		} else if (line.discount?.kind === 'amount') {
			const amount = decimalToMinor(line.discount.amount, currency)
			const magnitude = gross < 0n ? -gross : gross
			if (!amount.ok) {
				fail(`${field}.discount.amount`, amount.message)
			} else if (amount.minor < 0n || amount.minor > magnitude) {
				fail(`${field}.discount.amount`, "The discount must be between 0 and the line's amount.")
			} else {
				// A discount shrinks a credit line too: it takes the line's sign.
				discount = gross < 0n ? -amount.minor : amount.minor
			}
		}
		const net = gross - discount
		lines[index] = { gross, discount, net, group }
		group.base += net
		group.lineIndexes.push(index)
	})

	const groupList = [...groups.values()]
	const lineNetTotal = lines.reduce((sum, line) => sum + line.net, 0n)
	const allowances: {
		discountIndex: number
		group: Group
		amount: bigint
		base: bigint | null
		percent: string | null
		reason: string | null
	}[] = []

	;(input.discounts ?? []).forEach((discount, discountIndex) => {
		const field = `discounts.${discountIndex}`
		const reason = discount.reason ?? null
		if (discount.kind === 'percent') {
			const percent = parsePercent(discount.percent)
			if (!percent) {
				fail(`${field}.percent`, 'Enter a percentage from 0 to 100.')
				return
			}
			for (const group of groupList) {
				const amount = percentOf(new Decimal(group.base), percent)
				if (amount !== 0n) {
					allowances.push({
						discountIndex,
						group,
						amount,
						base: group.base,
						percent: normalizeDecimal(percent),
						reason,
					})
				}
			}
			return
		}
		const amount = decimalToMinor(discount.amount, currency)
		if (!amount.ok) {
			fail(`${field}.amount`, amount.message)
		} else if (amount.minor < 0n) {
			fail(`${field}.amount`, 'The discount cannot be negative.')
		} else if (amount.minor > 0n && lineNetTotal <= 0n) {
			fail(`${field}.amount`, 'An amount discount needs lines that add up to more than zero.')
		} else if (amount.minor > lineNetTotal) {
			fail(`${field}.amount`, "The discount is larger than the lines' total.")
		} else if (amount.minor > 0n) {
			const parts = splitProportionally(
				amount.minor,
				groupList.map((group) => group.base),
			)
			groupList.forEach((group, index) => {
				const part = parts[index] ?? 0n
				if (part !== 0n) {
					allowances.push({ discountIndex, group, amount: part, base: null, percent: null, reason })
				}
			})
		}
	})

	const allowanceTotal = allowances.reduce((sum, allowance) => sum + allowance.amount, 0n)
	if (allowanceTotal > 0n && allowanceTotal > lineNetTotal && !errors.some((e) => e.field.startsWith('discounts'))) {
		fail('discounts', "Together the discounts are larger than the lines' total.")
	}
	let paid = 0n
	if (input.paid !== undefined) {
		const parsed = decimalToMinor(input.paid, currency)
		if (!parsed.ok) {
			fail('paid', parsed.message)
		} else if (parsed.minor < 0n) {
			fail('paid', 'The amount paid cannot be negative.')
		} else {
			paid = parsed.minor
		}
	}
	if (errors.length > 0) {
		return { ok: false, errors }
	}
	for (const allowance of allowances) {
		allowance.group.allowances.push(allowance.amount)
	}

	const vatOf = (amount: bigint, group: Group) => percentOf(new Decimal(amount), group.rate)
	const lineVat = lines.map((line) => (lineRounding ? vatOf(line.net, line.group) : null))
	const breakdown = groupList.map((group) => {
		const groupAllowances = group.allowances.reduce((sum, amount) => sum + amount, 0n)
		const taxable = group.base - groupAllowances
		const tax = lineRounding
			? group.lineIndexes.reduce((sum, index) => sum + (lineVat[index] ?? 0n), 0n) -
				group.allowances.reduce((sum, amount) => sum + vatOf(amount, group), 0n)
			: vatOf(taxable, group)
		return { group, taxable, tax }
	})

	const taxExclusive = lineNetTotal - allowanceTotal
	const vatTotal = breakdown.reduce((sum, entry) => sum + entry.tax, 0n)
	const taxInclusive = taxExclusive + vatTotal
	const due = taxInclusive - paid

	const figures = [lineNetTotal, allowanceTotal, taxExclusive, vatTotal, taxInclusive, paid, due]
	if (figures.some((figure) => !Number.isSafeInteger(Number(figure)))) {
		return { ok: false, errors: [{ field: 'lines', message: "The invoice's total is too large." }] }
	}
	const money = (minor: bigint): Money => ({ minor: Number(minor), decimal: minorToDecimal(minor, currency) })
	const rateOf = (group: Group) => normalizeDecimal(group.rate)

	return {
		ok: true,
		totals: {
			currency,
			minorUnits: digits,
			rounding,
			lineRounding,
			lines: lines.map((line, index) => {
				const vat = lineVat[index]
				const group = line.group
				return {
					gross: money(line.gross),
					discount: money(line.discount),
					net: money(line.net),
					vat: vat === null || vat === undefined ? null : money(vat),
					categoryCode: group.categoryCode,
					rate: rateOf(group),
				}
			}),
			allowances: allowances.map((allowance) => ({
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
			allowanceTotal: money(allowanceTotal),
			taxExclusiveAmount: money(taxExclusive),
			vatTotal: money(vatTotal),
			taxInclusiveAmount: money(taxInclusive),
			paidAmount: money(paid),
			amountDue: money(due),
		},
	}
}
