import { z } from 'zod'

// ISO 4217 currencies and their minor units, for invoices: which codes an invoice may use, how
// many decimals its amounts have, and how an amount moves between a decimal string ("1190.00"),
// integer minor units (119000) and the text a reader sees ("€1,190.00"). Server, web editor, PDF
// and e-invoice all read this one table, so a JPY total never grows cents in one of them.
//
// No floats: decimal strings are converted digit by digit to BigInt, and formatting hands Intl
// the exact decimal string (Intl.NumberFormat reads a string as an exact decimal, ES2023), never
// a Number that could round a large amount or an odd cent.
//
// The table is ISO 4217 list one (active codes) with a numeric minor unit. Left out on purpose:
// codes whose minor unit is "N.A." (gold XAU, silver XAG, platinum XPT, palladium XPD, the bond
// units XBA–XBD, XDR, XSU, XUA, XAD, the testing code XTS and "no currency" XXX): an invoice cannot
// be written in them. Withdrawn codes are out too (HRK 2023, SLL 2024, ZWL 2024, ANG 2025 for
// XCG, BGN 2026 for EUR); a credit note for an old invoice in one of those would need them back.
// The minor units are ISO's, not CLDR's: Intl's own default for IQD is 0 digits, ISO's (and so
// the invoice's) is 3, which is why formatting always passes the digits explicitly.

const codesByMinorUnits: Record<0 | 2 | 3 | 4, string> = {
	0: 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF',
	2:
		'AED AFN ALL AMD AOA ARS AUD AWG AZN BAM BBD BDT BMD BND BOB BOV BRL BSD BTN BWP BYN BZD CAD ' +
		'CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS ' +
		'GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD ' +
		'LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB ' +
		'PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP ' +
		'SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG',
	3: 'BHD IQD JOD KWD LYD OMR TND',
	4: 'CLF UYW',
}

const minorUnitsByCode: ReadonlyMap<string, number> = new Map(
	Object.entries(codesByMinorUnits).flatMap(([digits, codes]) =>
		codes.split(' ').map((code) => [code, Number(digits)] as const),
	),
)

/** Every code an invoice may be written in, sorted. */
export const currencyCodes: readonly string[] = [...minorUnitsByCode.keys()].sort()

export function isCurrency(code: string): boolean {
	return minorUnitsByCode.has(code)
}

/** The currency's decimals (JPY 0, EUR 2, BHD 3, CLF 4). Throws for a code that is not in the table. */
export function minorUnitsOf(code: string): number {
	const digits = minorUnitsByCode.get(code)
	if (digits === undefined) {
		throw new RangeError(`Unknown currency: ${code}`)
	}
	return digits
}

export const currencyCodeSchema = z
	.string()
	.refine(isCurrency, { message: 'Choose an ISO 4217 currency code such as EUR, USD or JPY.' })

/** An amount in the currency's decimals: "1190.00" in EUR, "1190" in JPY, "1.190" in BHD. */
export function minorToDecimal(minor: bigint | number, code: string): string {
	if (typeof minor === 'number' && !Number.isSafeInteger(minor)) {
		throw new RangeError(`Minor units must be a safe integer: ${minor}`)
	}
	const digits = minorUnitsOf(code)
	const value = BigInt(minor)
	const sign = value < 0n ? '-' : ''
	const magnitude = (value < 0n ? -value : value).toString()
	if (digits === 0) {
		return sign + magnitude
	}
	const padded = magnitude.padStart(digits + 1, '0')
	return `${sign}${padded.slice(0, -digits)}.${padded.slice(-digits)}`
}

export type MinorParse = { ok: true; minor: bigint } | { ok: false; message: string }

const decimalForm = /^(-)?(\d+)(?:\.(\d+))?$/

/**
 * An amount typed or stored as a decimal string ("1190", "1190.5", "-0.01") in integer minor
 * units. More decimals than the currency has is an error, never a silent rounding: an amount a
 * person gave is either representable or they must be told.
 */
export function decimalToMinor(text: string, code: string): MinorParse {
	const digits = minorUnitsOf(code)
	const match = decimalForm.exec(text.trim())
	if (!match) {
		return { ok: false, message: 'Enter an amount such as 1190.00.' }
	}
	const [, sign, whole = '', fraction = ''] = match
	if (fraction.length > digits) {
		return {
			ok: false,
			message:
				digits === 0
					? `${code} amounts have no decimals.`
					: `${code} amounts have at most ${digits} decimal${digits === 1 ? '' : 's'}.`,
		}
	}
	const magnitude = BigInt(whole + fraction.padEnd(digits, '0'))
	return { ok: true, minor: sign && magnitude !== 0n ? -magnitude : magnitude }
}

const formatters = new Map<string, Intl.NumberFormat>()

function formatterFor(locale: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
	const key = `${locale}|${JSON.stringify(options)}`
	let formatter = formatters.get(key)
	if (!formatter) {
		formatter = new Intl.NumberFormat(locale, options)
		// A handful of currencies and locales per organization: the cache stays small.
		if (formatters.size > 200) {
			formatters.clear()
		}
		formatters.set(key, formatter)
	}
	return formatter
}

/** The decimal string Intl receives; its TypeScript signature names only numeric literals. */
type ExactDecimal = Intl.StringNumericLiteral

export type MoneyFormatOptions = {
	/** How the currency is named: "€" (default), "EUR", or not at all (amount columns). */
	display?: 'symbol' | 'code' | 'none'
}

/**
 * An amount in minor units as a reader sees it, with exactly the currency's decimals:
 * formatMoney(119000, 'EUR', 'de-DE') is "1.190,00 €", formatMoney(1190, 'JPY', 'en-US') "¥1,190".
 */
export function formatMoney(
	minor: bigint | number,
	code: string,
	locale = 'en-US',
	options: MoneyFormatOptions = {},
): string {
	return formatDecimalMoney(minorToDecimal(minor, code), code, locale, options)
}

/**
 * A decimal string in a currency, shown with at least the currency's decimals and at most
 * `maxDecimals` (default: the currency's): unit prices carry up to 4 more digits than amounts.
 */
export function formatDecimalMoney(
	value: string,
	code: string,
	locale = 'en-US',
	options: MoneyFormatOptions & { maxDecimals?: number } = {},
): string {
	if (!decimalForm.test(value)) {
		throw new RangeError(`Not a decimal string: ${value}`)
	}
	const digits = minorUnitsOf(code)
	const display = options.display ?? 'symbol'
	const formatter = formatterFor(locale, {
		...(display === 'none' ? {} : { style: 'currency', currency: code, currencyDisplay: display }),
		minimumFractionDigits: digits,
		maximumFractionDigits: Math.max(digits, options.maxDecimals ?? digits),
		// Rounding only happens when a caller asks for fewer digits than the value has.
		roundingMode: 'halfExpand',
	})
	return formatter.format(value as ExactDecimal)
}

/** A quantity or a percentage as a decimal string, with its own decimals ("1.5" → "1,5" in de). */
export function formatDecimal(value: string, locale = 'en-US'): string {
	const match = decimalForm.exec(value)
	if (!match) {
		throw new RangeError(`Not a decimal string: ${value}`)
	}
	const decimals = (match[3] ?? '').replace(/0+$/, '').length
	return formatterFor(locale, { minimumFractionDigits: 0, maximumFractionDigits: decimals }).format(
		value as ExactDecimal,
	)
}
