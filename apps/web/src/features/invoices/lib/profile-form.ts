import { currencyCodes, minorUnitsOf } from '@blocksmith/contracts/invoice-currencies.ts'
import type { VatCategoryCode } from '@blocksmith/contracts/invoice-money.ts'
import type { NumberingReset } from '@blocksmith/contracts/invoice-numbering.ts'
import {
	countryCodes,
	createInvoiceProfileSchema,
	type InvoiceDesign,
	type InvoiceProfile,
	invoiceProfileDefaults,
	type UpdateInvoiceProfile,
	updateInvoiceProfileSchema,
} from '@blocksmith/contracts/invoices.ts'

// The settings form's values (text as typed: empty strings, not nulls; the address lines as one
// text) and the moves between them and the API's profile. The payload is checked in the browser
// with the server's own schema, so an error shows at the same field either way.

type TaxRateRow = {
	id?: string
	name: string
	categoryCode: VatCategoryCode
	rate: string
	exemptionReason: string
	exemptionReasonCode: string
	isDefault: boolean
}

export type ProfileFormValues = {
	name: string
	legalName: string
	address: { lines: string; postcode: string; city: string; country: string }
	taxIds: { vatId: string; other: { label: string; value: string }[] }
	email: string
	logoBlobId: string | null
	currency: string
	locale: string
	taxRates: TaxRateRow[]
	numbering: {
		invoice: { pattern: string; reset: NumberingReset }
		creditNote: { pattern: string; reset: NumberingReset }
	}
	paymentTermsDays: string
	notes: string
	footer: string
	bank: {
		kind: 'none' | 'iban' | 'text'
		iban: string
		bic: string
		accountHolder: string
		text: string
	}
	emailMessage: { subject: string; body: string }
	isLineLevelVatRounding: boolean
	template: { design: InvoiceDesign; accentColor: string; textColor: string; font: 'sans' | 'serif' | 'mono' }
}

const emptyBank = { kind: 'none', iban: '', bic: '', accountHolder: '', text: '' } as const

/** A new profile's form: the server's defaults, the browser's language. */
export function newProfileValues(): ProfileFormValues {
	const defaults = invoiceProfileDefaults
	return {
		name: '',
		legalName: '',
		address: { lines: '', postcode: '', city: '', country: '' },
		taxIds: { vatId: '', other: [] },
		email: '',
		logoBlobId: null,
		currency: defaults.currency,
		locale: defaults.locale,
		taxRates: [],
		numbering: structuredClone(defaults.numbering) as ProfileFormValues['numbering'],
		paymentTermsDays: String(defaults.paymentTermsDays),
		notes: '',
		footer: '',
		bank: { ...emptyBank },
		emailMessage: { ...defaults.emailMessage },
		isLineLevelVatRounding: false,
		template: { ...defaults.template } as ProfileFormValues['template'],
	}
}

export function profileValues(profile: InvoiceProfile): ProfileFormValues {
	const bank = profile.bank
	return {
		name: profile.name,
		legalName: profile.legalName,
		address: { ...profile.address, lines: profile.address.lines.join('\n') },
		taxIds: { vatId: profile.taxIds.vatId ?? '', other: profile.taxIds.other.map((one) => ({ ...one })) },
		email: profile.email ?? '',
		logoBlobId: profile.logoBlobId,
		currency: profile.currency,
		locale: profile.locale,
		taxRates: profile.taxRates.map((rate) => ({
			id: rate.id,
			name: rate.name,
			categoryCode: rate.categoryCode,
			rate: rate.rate,
			exemptionReason: rate.exemptionReason ?? '',
			exemptionReasonCode: rate.exemptionReasonCode ?? '',
			isDefault: rate.isDefault,
		})),
		numbering: structuredClone(profile.numbering),
		paymentTermsDays: String(profile.paymentTermsDays),
		notes: profile.notes ?? '',
		footer: profile.footer ?? '',
		bank:
			bank?.kind === 'iban'
				? { ...emptyBank, kind: 'iban', iban: bank.iban, bic: bank.bic ?? '', accountHolder: bank.accountHolder ?? '' }
				: bank?.kind === 'text'
					? { ...emptyBank, kind: 'text', text: bank.text }
					: { ...emptyBank },
		emailMessage: { ...profile.emailMessage },
		isLineLevelVatRounding: profile.isLineLevelVatRounding,
		template: { ...profile.template },
	}
}

const orNull = (text: string) => (text.trim() === '' ? null : text)

/** What the API receives: every field (objects and lists whole), empty texts as null. */
export function profilePayload(values: ProfileFormValues): UpdateInvoiceProfile {
	const { bank } = values
	const days = values.paymentTermsDays.trim()
	return {
		name: values.name.trim() || values.legalName,
		legalName: values.legalName,
		address: {
			...values.address,
			lines: values.address.lines
				.split('\n')
				.map((line) => line.trim())
				.filter(Boolean),
		},
		taxIds: { vatId: orNull(values.taxIds.vatId), other: values.taxIds.other },
		email: orNull(values.email),
		logoBlobId: values.logoBlobId,
		currency: values.currency,
		locale: values.locale,
		taxRates: values.taxRates.map((rate) => ({
			...(rate.id ? { id: rate.id } : {}),
			name: rate.name,
			categoryCode: rate.categoryCode,
			rate: rate.rate,
			exemptionReason: orNull(rate.exemptionReason),
			exemptionReasonCode: orNull(rate.exemptionReasonCode),
			isDefault: rate.isDefault,
		})),
		numbering: values.numbering,
		// A blank or a fraction reaches the schema as such, which names the field.
		paymentTermsDays: days === '' ? Number.NaN : Number(days),
		notes: orNull(values.notes),
		footer: orNull(values.footer),
		bank:
			bank.kind === 'iban'
				? { kind: 'iban', iban: bank.iban, bic: orNull(bank.bic), accountHolder: orNull(bank.accountHolder) }
				: bank.kind === 'text'
					? { kind: 'text', text: bank.text }
					: null,
		emailMessage: values.emailMessage,
		isLineLevelVatRounding: values.isLineLevelVatRounding,
		template: values.template,
	}
}

export type FieldProblem = { field: string; message: string }

/** The payload's problems by the server's schema, with the server's dotted paths. */
export function checkPayload(payload: UpdateInvoiceProfile, isNew: boolean): FieldProblem[] {
	const schema = isNew ? createInvoiceProfileSchema : updateInvoiceProfileSchema
	const result = schema.safeParse(payload)
	if (result.success) {
		return []
	}
	return result.error.issues.map((issue) => ({
		field: issue.path.join('.'),
		message: issue.code === 'invalid_type' ? 'Enter a value.' : issue.message,
	}))
}

/**
 * The form field a problem's path lands on: the address lines are one text box, a bank detail
 * of the other kind goes to the kind. Paths the form has no field for stay as they are.
 */
export function formFieldOf(field: string): string {
	if (/^address\.lines\.\d+$/.test(field)) {
		return 'address.lines'
	}
	if (field === 'bank.kind') {
		return 'bank.kind'
	}
	if (/^taxIds\.other\.\d+$/.test(field)) {
		return 'taxIds.other'
	}
	return field
}

// ---- choices --------------------------------------------------------------------------------

function namesOf(type: 'region' | 'currency'): (code: string) => string {
	try {
		const names = new Intl.DisplayNames(['en'], { type })
		return (code) => names.of(code) ?? code
	} catch {
		return (code) => code
	}
}

/** Every ISO 3166-1 country, by English name. */
export function countryOptions(): { code: string; name: string }[] {
	const name = namesOf('region')
	return [...countryCodes].map((code) => ({ code, name: name(code) })).sort((a, b) => a.name.localeCompare(b.name))
}

/** Every ISO 4217 code an invoice may use, with its name and decimals. */
export function currencyOptions(): { code: string; name: string; decimals: number }[] {
	const name = namesOf('currency')
	return currencyCodes.map((code) => ({ code, name: name(code), decimals: minorUnitsOf(code) }))
}

/** The EN 16931 VAT categories, said plainly; `needsReason`: the invoice must say why no VAT is charged. */
export const vatCategories: readonly {
	code: VatCategoryCode
	name: string
	help: string
	needsReason: boolean
	isZero: boolean
}[] = [
	{
		code: 'S',
		name: 'Standard rate',
		help: 'Ordinary VAT at a rate above 0, such as 19 % or 7 %.',
		needsReason: false,
		isZero: false,
	},
	{
		code: 'Z',
		name: 'Zero rated',
		help: 'Taxable, but at 0 % by law (e.g. some food or books in a few countries).',
		needsReason: false,
		isZero: true,
	},
	{
		code: 'E',
		name: 'Exempt',
		help: 'No VAT because the law exempts it (e.g. medical or small-business schemes); say which rule.',
		needsReason: true,
		isZero: true,
	},
	{
		code: 'AE',
		name: 'Reverse charge',
		help: 'The client, a business, pays the VAT in their country; the invoice says “Reverse charge”.',
		needsReason: true,
		isZero: true,
	},
	{
		code: 'K',
		name: 'Intra-EU supply',
		help: 'Goods or services to a VAT-registered business in another EU country.',
		needsReason: true,
		isZero: true,
	},
	{
		code: 'G',
		name: 'Export outside the EU',
		help: 'Goods leaving the EU: no VAT, with the export as the reason.',
		needsReason: true,
		isZero: true,
	},
	{
		code: 'O',
		name: 'Outside the scope of VAT',
		help: 'Not a taxable supply at all (e.g. a non-VAT-registered seller); no rate.',
		needsReason: true,
		isZero: true,
	},
	{
		code: 'L',
		name: 'Canary Islands (IGIC)',
		help: 'The Canary Islands’ general indirect tax instead of VAT.',
		needsReason: false,
		isZero: false,
	},
	{
		code: 'M',
		name: 'Ceuta and Melilla (IPSI)',
		help: 'The tax on production, services and imports of Ceuta and Melilla instead of VAT.',
		needsReason: false,
		isZero: false,
	},
]

/** Today as a calendar day in the browser's zone, for number previews. */
export function today(): string {
	const now = new Date()
	const pad = (value: number) => String(value).padStart(2, '0')
	return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}
