import { z } from 'zod'
import { idSchema } from './common.ts'
import { isCurrency } from './invoice-currencies.ts'
import { vatCategoryCodes } from './invoice-money.ts'
import { checkSequence, maxPatternLength, numberingResets, shapeOf } from './invoice-numbering.ts'

// Invoices: settings profiles (the company an invoice is billed from: its legal name, address,
// tax ids, logo, currency and locale, tax rates, numbering, payment terms, texts, bank details,
// e-mail and design), under /dashboard/{tool}_invoice/settings. An organization may bill from
// several companies, so it has several profiles, one of them the default.

// ---- small values ---------------------------------------------------------------------------

// ISO 3166-1 alpha-2, the officially assigned codes (EN 16931 BT-40 and BT-55 use them).
export const countryCodes: ReadonlySet<string> = new Set(
	'AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW'.split(
		' ',
	),
)

export const countrySchema = z
	.string()
	.trim()
	.toUpperCase()
	.refine((code) => countryCodes.has(code), 'Use a two-letter country code (ISO 3166-1) such as DE or US.')

/** An ISO 4217 currency code ("EUR", "JPY", "BHD"). */
export const invoiceCurrencySchema = z
	.string()
	.trim()
	.toUpperCase()
	.refine(isCurrency, 'Use an ISO 4217 currency code such as EUR.')

/** A BCP 47 locale the runtime can format in ("de-DE", "en-GB"), canonicalised. */
export const localeSchema = z
	.string()
	.trim()
	.min(2)
	.max(35)
	.refine((tag) => {
		try {
			return Intl.getCanonicalLocales(tag).length === 1
		} catch {
			return false
		}
	}, 'Use a locale such as en-GB or de-DE.')
	.transform((tag) => Intl.getCanonicalLocales(tag)[0] as string)

const colorSchema = z
	.string()
	.trim()
	.regex(/^#[0-9a-fA-F]{6}$/, 'Use a colour such as #1f2937.')
	.transform((value) => value.toLowerCase())

const text = (max: number) => z.string().trim().max(max, `Use at most ${max} characters.`)
const optionalText = (max: number) => text(max).nullable()

/** Whether an IBAN's check digits are right (ISO 13616: the number mod 97 is 1). */
export function isValidIban(iban: string): boolean {
	if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) {
		return false
	}
	const moved = iban.slice(4) + iban.slice(0, 4)
	let remainder = 0
	for (const char of moved) {
		const value = char >= 'A' ? String(char.charCodeAt(0) - 55) : char
		for (const digit of value) {
			remainder = (remainder * 10 + Number(digit)) % 97
		}
	}
	return remainder === 1
}

const compact = (value: string) => value.replace(/[\s-]/g, '').toUpperCase()

const ibanSchema = z
	.string()
	.transform(compact)
	.refine(isValidIban, 'This IBAN is not valid: check it for a typing error.')
const bicSchema = z
	.string()
	.transform(compact)
	.refine((bic) => /^[A-Z]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/.test(bic), 'Use a BIC of 8 or 11 characters.')

// ---- tax rates ------------------------------------------------------------------------------

/**
 * EN 16931 VAT category codes (UNCL5305 subset): S standard, Z zero rated, E exempt, AE reverse
 * charge, K intra-community supply, G export outside the EU, O outside the scope of VAT,
 * L Canary Islands (IGIC), M Ceuta and Melilla (IPSI).
 */
export const vatCategorySchema = z.enum(vatCategoryCodes)
export type VatCategory = z.infer<typeof vatCategorySchema>

/** Categories whose rate is 0 by the standard (BR-Z-05, BR-E-05, BR-AE-05, BR-IC-05, BR-G-05; O has none). */
const zeroRated: readonly VatCategory[] = ['Z', 'E', 'AE', 'K', 'G', 'O']
/** Categories an invoice must give a reason for (BR-E-10, BR-AE-10, BR-IC-10, BR-G-10, BR-O-10). */
const needsReason: readonly VatCategory[] = ['E', 'AE', 'K', 'G', 'O']

/** A percentage 0–100 as an exact decimal string, up to 4 decimals; "19.50" is kept as "19.5". */
export const ratePercentSchema = z
	.string()
	.trim()
	.regex(/^\d{1,3}(\.\d{1,4})?$/, 'Use a percentage such as 19 or 7.5 (up to 4 decimals).')
	.refine((rate) => Number(rate) <= 100, 'A rate is between 0 and 100.')
	.transform((rate) =>
		(rate.includes('.') ? rate.replace(/0+$/, '').replace(/\.$/, '') : rate).replace(/^0+(?=\d)/, ''),
	)

export const taxRateInputSchema = z
	.object({
		/** A rate of this profile to change; none: a new rate. */
		id: idSchema.optional(),
		name: text(60).min(1, 'Name the rate (e.g. VAT 19 %).'),
		categoryCode: vatCategorySchema,
		rate: ratePercentSchema,
		/** Why no VAT is charged (printed on the invoice); required for E, AE, K, G and O. */
		exemptionReason: optionalText(300).default(null),
		/** The reason as a VATEX code (e.g. VATEX-EU-AE), for e-invoices. */
		exemptionReasonCode: z
			.string()
			.trim()
			.toUpperCase()
			.regex(/^VATEX-[A-Z0-9-]{1,30}$/, 'Use a VATEX code such as VATEX-EU-AE.')
			.nullable()
			.default(null),
		/** New lines get it. */
		isDefault: z.boolean().default(false),
	})
	.superRefine((rate, context) => {
		if (rate.categoryCode === 'S' && Number(rate.rate) === 0) {
			context.addIssue({ code: 'custom', path: ['rate'], message: 'A standard rate is above 0: use Z for zero rated.' })
		}
		if (zeroRated.includes(rate.categoryCode) && Number(rate.rate) !== 0) {
			context.addIssue({ code: 'custom', path: ['rate'], message: `Category ${rate.categoryCode} has a rate of 0.` })
		}
		if (needsReason.includes(rate.categoryCode) && !rate.exemptionReason && !rate.exemptionReasonCode) {
			context.addIssue({
				code: 'custom',
				path: ['exemptionReason'],
				message: `Say why no VAT is charged (category ${rate.categoryCode}), e.g. “Reverse charge”.`,
			})
		}
	})
export type TaxRateInput = z.input<typeof taxRateInputSchema>

export const taxRateSchema = z.object({
	id: z.string(),
	name: z.string(),
	categoryCode: vatCategorySchema,
	rate: z.string(),
	exemptionReason: z.string().nullable(),
	exemptionReasonCode: z.string().nullable(),
	isDefault: z.boolean(),
})
export type TaxRate = z.infer<typeof taxRateSchema>

const taxRatesSchema = z
	.array(taxRateInputSchema)
	.max(30, 'Use at most 30 rates.')
	.superRefine((rates, context) => {
		if (rates.filter((rate) => rate.isDefault).length > 1) {
			context.addIssue({ code: 'custom', message: 'Only one rate can be the default.' })
		}
		const ids = rates.map((rate) => rate.id).filter(Boolean)
		if (new Set(ids).size !== ids.length) {
			context.addIssue({ code: 'custom', message: 'A rate is listed twice.' })
		}
	})

// ---- numbering ------------------------------------------------------------------------------

export const numberingResetSchema = z.enum(numberingResets)

const sequenceSchema = z
	.object({
		pattern: z.string().trim().max(maxPatternLength),
		/** When the counter starts again at 1. */
		reset: numberingResetSchema,
	})
	.superRefine((sequence, context) => {
		const problem = checkSequence(sequence.pattern, sequence.reset)
		if (problem) {
			context.addIssue({ code: 'custom', path: ['pattern'], message: problem })
		}
	})

/** Invoices and credit notes have sequences of their own, which can never give the same number. */
export const numberingSchema = z
	.object({ invoice: sequenceSchema, creditNote: sequenceSchema })
	.superRefine((numbering, context) => {
		if (shapeOf(numbering.invoice.pattern) === shapeOf(numbering.creditNote.pattern)) {
			context.addIssue({
				code: 'custom',
				path: ['creditNote', 'pattern'],
				message:
					'Make it differ from the invoices’ pattern in its letters (e.g. CN- and INV-), so no number is used twice.',
			})
		}
	})
export type Numbering = z.infer<typeof numberingSchema>

// ---- the profile ----------------------------------------------------------------------------

export const addressSchema = z.object({
	lines: z.array(text(200)).max(4, 'Use at most 4 lines.'),
	postcode: text(20),
	city: text(100),
	country: countrySchema,
})

export const taxIdsSchema = z.object({
	/** A VAT identifier with its country prefix (DE123456789, EL…, XI…). */
	vatId: z
		.string()
		.transform((value) => value.replace(/[\s.-]/g, '').toUpperCase())
		.refine(
			(value) => /^[A-Z]{2}[A-Z0-9+*]{2,13}$/.test(value),
			'Use a VAT number with its country prefix, e.g. DE123456789.',
		)
		.nullable(),
	/** Other registrations printed on the invoice (tax number, SIRET, company register). */
	other: z.array(z.object({ label: text(60).min(1, 'Name it.'), value: text(60).min(1, 'Enter it.') })).max(5),
})

export const bankDetailsSchema = z.discriminatedUnion('kind', [
	z.object({
		kind: z.literal('iban'),
		iban: ibanSchema,
		bic: bicSchema.nullable().default(null),
		accountHolder: optionalText(140).default(null),
	}),
	/** Anything else (an account number and routing number, a PayPal address), printed as written. */
	z.object({ kind: z.literal('text'), text: text(1000).min(1, 'Enter the bank details.') }),
])

/** Placeholders the invoice e-mail may use; each is filled per invoice. */
export const emailPlaceholders = ['number', 'client', 'amount', 'due_date', 'issue_date', 'company', 'link'] as const

const withPlaceholders = (max: number) =>
	text(max).superRefine((value, context) => {
		for (const [, name] of value.matchAll(/\{([^{}]*)\}/g)) {
			if (!(emailPlaceholders as readonly string[]).includes(name as string)) {
				context.addIssue({
					code: 'custom',
					message: `Unknown placeholder {${name}}. Use ${emailPlaceholders.map((one) => `{${one}}`).join(', ')}.`,
				})
			}
		}
	})

export const invoiceEmailSchema = z.object({
	subject: withPlaceholders(200).min(1, 'Enter a subject.'),
	body: withPlaceholders(5000),
})

export const invoiceDesignSchema = z.enum(['classic', 'modern', 'compact'])
export const invoiceTemplateSchema = z.object({
	design: invoiceDesignSchema,
	accentColor: colorSchema,
	textColor: colorSchema,
	font: z.enum(['sans', 'serif', 'mono']),
})

/** Every field of a profile as sent; creating fills what is left out from `invoiceProfileDefaults`. */
const profileFields = z.object({
	/** What the team calls it in lists ("Acme GmbH", "Acme Inc."); the legal name when left out. */
	name: text(100).min(1, 'Name the profile.'),
	isDefault: z.boolean(),
	legalName: text(200).min(1, 'Enter the legal name printed on invoices.'),
	address: addressSchema,
	taxIds: taxIdsSchema,
	email: z.email('Use an e-mail address.').max(254).nullable(),
	/** An uploaded image (a blob of the organization's, from /dashboard/active_storage/direct_uploads). */
	logoBlobId: idSchema.nullable(),
	currency: invoiceCurrencySchema,
	locale: localeSchema,
	/** The full list: rates left out are retired (invoices that use them keep them). */
	taxRates: taxRatesSchema,
	numbering: numberingSchema,
	paymentTermsDays: z.number().int('Use whole days.').min(0).max(365, 'Use at most 365 days.'),
	notes: optionalText(2000),
	footer: optionalText(2000),
	bank: bankDetailsSchema.nullable(),
	emailMessage: invoiceEmailSchema,
	/** Round each line's VAT and add them up, instead of once per rate on the summed lines (EN 16931 BR-CO-17). */
	isLineLevelVatRounding: z.boolean(),
	template: invoiceTemplateSchema,
})

export const invoiceProfileDefaults = {
	isDefault: false,
	taxIds: { vatId: null, other: [] },
	email: null,
	logoBlobId: null,
	currency: 'EUR',
	locale: 'en-GB',
	taxRates: [],
	numbering: {
		invoice: { pattern: 'INV-{YYYY}-{counter:4}', reset: 'yearly' },
		creditNote: { pattern: 'CN-{YYYY}-{counter:4}', reset: 'yearly' },
	},
	paymentTermsDays: 14,
	notes: null,
	footer: null,
	bank: null,
	emailMessage: {
		subject: 'Invoice {number} from {company}',
		body: 'Hello {client},\n\nplease find attached invoice {number} of {amount}, due on {due_date}.\n\nYou can also view and pay it here: {link}\n\nThank you!',
	},
	isLineLevelVatRounding: false,
	template: { design: 'classic', accentColor: '#1f2937', textColor: '#111827', font: 'sans' },
} satisfies Omit<z.input<typeof profileFields>, 'name' | 'legalName' | 'address'>

export const createInvoiceProfileSchema = profileFields.partial().required({ legalName: true, address: true })
export type CreateInvoiceProfile = z.input<typeof createInvoiceProfileSchema>

/** A change: the fields sent replace the profile's (objects and lists whole). */
export const updateInvoiceProfileSchema = profileFields.partial()
export type UpdateInvoiceProfile = z.input<typeof updateInvoiceProfileSchema>

export const invoiceProfileSchema = profileFields.extend({
	id: z.string(),
	taxRates: z.array(taxRateSchema),
	/** The logo's file with a short-lived download link, when there is one. */
	logo: z.object({ blobId: z.string(), url: z.string().nullable(), contentType: z.string() }).nullable(),
	/** The numbers the next invoice and credit note issued today would get. */
	nextNumbers: z.object({ invoice: z.string(), creditNote: z.string() }),
	createdAt: z.string(),
	updatedAt: z.string(),
})
export type InvoiceProfile = z.infer<typeof invoiceProfileSchema>

// ---- templates (the designs a profile's invoices are drawn in) -------------------------------

export type InvoiceDesign = z.infer<typeof invoiceDesignSchema>

export const invoiceDesignInfoSchema = z.object({
	design: invoiceDesignSchema,
	name: z.string(),
	description: z.string(),
})
export type InvoiceDesignInfo = z.infer<typeof invoiceDesignInfoSchema>

/** The designs, in the order the settings offer them; the profile's `template.design` names one. */
export const invoiceDesigns: readonly InvoiceDesignInfo[] = [
	{
		design: 'classic',
		name: 'Classic',
		description:
			'Logo and sender at the top, the title in the accent colour, a ruled table and the totals on the right.',
	},
	{
		design: 'modern',
		name: 'Modern',
		description: 'A band in the accent colour across the top, a filled table header and the amount due in a box.',
	},
	{
		design: 'compact',
		name: 'Compact',
		description: 'Smaller type and tight rows: long invoices on fewer pages, the sender on one line.',
	},
]

/**
 * `get_template`: a design drawn with a sample invoice, from the profile `profileId` names (its
 * sender, logo, bank, texts, currency, rates, colours and font) or, without one, from a sample
 * company. PDF only: a PNG would need a native canvas for pdf.js, which the server does not ship.
 */
export const invoiceTemplatePreviewQuerySchema = z.object({
	template: z.enum(invoiceDesignSchema.options, {
		error: `Choose a design: ${invoiceDesignSchema.options.join(', ')}.`,
	}),
	profileId: idSchema.optional(),
	format: z
		.enum(['pdf'], { error: 'Use pdf: previews are PDFs (PNG images are not rendered on the server).' })
		.default('pdf'),
})
