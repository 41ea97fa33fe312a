import { z } from 'zod'
import { idSchema } from './common.ts'
import { discountSchema, documentDiscountSchema } from './invoice-money.ts'
import { addressSchema, invoiceCurrencySchema } from './invoices.ts'

// Invoice documents (issue 17): drafts, finalized invoices and credit notes, their payments and
// statuses, under /dashboard/{tool}_invoice/invoices. Figures are the money core's
// (`computeInvoiceTotals`), computed by the server and stored with the document; why each rule
// is as it is: docs/decisions/033-invoice-documents.md.

/** A calendar day, YYYY-MM-DD (never an instant: no time zone moves an invoice to another day). */
export const invoiceDaySchema = z
	.string()
	.regex(/^\d{4}-\d{2}-\d{2}$/, { message: 'Use a date as YYYY-MM-DD.', abort: true })
	.refine((day) => {
		const parsed = new Date(`${day}T00:00:00Z`)
		return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day
	}, 'This day does not exist.')

const text = (max: number) => z.string().trim().max(max, `Use at most ${max} characters.`)

/** Who is billed: typed in, or copied from a row of a clients database (kept by its id). */
export const invoiceClientSchema = z.object({
	name: text(200).min(1, 'Name the client.'),
	address: addressSchema.nullable().default(null),
	email: z.email('Use an e-mail address.').max(254).nullable().default(null),
	taxId: text(40).nullable().default(null),
})
export type InvoiceClient = z.infer<typeof invoiceClientSchema>

/**
 * A client kept as a row of a clients database: its details are copied from the row's mapped
 * properties when the draft is saved and again when it is finalized (then frozen).
 */
export const clientRowSchema = z.object({
	databaseId: idSchema,
	rowId: idSchema,
	mapping: z.object({
		name: idSchema,
		email: idSchema.optional(),
		taxId: idSchema.optional(),
		/** A text property; each of its lines an address line. */
		addressLines: idSchema.optional(),
		postcode: idSchema.optional(),
		city: idSchema.optional(),
		/** A text or select holding a two-letter country code; without one the address is left out. */
		country: idSchema.optional(),
	}),
})
export type ClientRow = z.infer<typeof clientRowSchema>

export const invoiceLineInputSchema = z.object({
	description: text(1000).min(1, 'Describe the line.'),
	/** A decimal string, up to 4 decimals; below zero only on credit notes. */
	quantity: z.string().trim(),
	unit: text(30).nullable().default(null),
	/** A decimal string in the currency, up to 4 more decimals than it has. */
	unitPrice: z.string().trim(),
	discount: discountSchema.nullable().default(null),
	/** A tax rate in use of the invoice's settings profile. */
	taxRateId: idSchema,
})
export type InvoiceLineInput = z.input<typeof invoiceLineInputSchema>
/** A stored line; a credit note's line names the line of the invoice it credits. */
export const invoiceLineSchema = invoiceLineInputSchema.extend({ creditsLine: z.number().int().nullable().optional() })
export type InvoiceLine = z.output<typeof invoiceLineSchema>

const draftFields = z.object({
	/** The settings profile it is billed from; the default profile when left out. */
	profileId: idSchema,
	/** Typed in; ignored when `clientRow` is given. */
	client: invoiceClientSchema.nullable(),
	clientRow: clientRowSchema.nullable(),
	/** ISO 4217; the profile's currency when left out. */
	currency: invoiceCurrencySchema,
	/** Today when left out. */
	issueDate: invoiceDaySchema,
	/** The issue date plus the profile's payment terms when left out. */
	dueDate: invoiceDaySchema.nullable(),
	lines: z.array(invoiceLineInputSchema).max(500, 'Use at most 500 lines.'),
	discounts: z.array(documentDiscountSchema).max(10, 'Use at most 10 discounts.'),
	notes: text(2000).nullable(),
})

export const createInvoiceSchema = draftFields.partial()
export type CreateInvoice = z.input<typeof createInvoiceSchema>

/** A change of a draft: each field sent replaces the saved one (lines and discounts whole). */
export const updateInvoiceSchema = draftFields.partial()
export type UpdateInvoice = z.input<typeof updateInvoiceSchema>

/** `finalized`: numbered and immutable, not sent yet (sending is a step of its own). */
export const invoiceStatuses = ['draft', 'finalized', 'sent', 'partially_paid', 'paid', 'void'] as const
export const invoiceStatusSchema = z.enum(invoiceStatuses)
export type InvoiceStatus = z.infer<typeof invoiceStatusSchema>

export const invoiceKindSchema = z.enum(['invoice', 'credit_note'])

const moneySchema = z.object({ minor: z.number().int(), decimal: z.string() })

export const invoiceSchema = z.object({
	id: z.string(),
	kind: invoiceKindSchema,
	profileId: z.string(),
	/** Null while a draft. */
	number: z.string().nullable(),
	status: invoiceStatusSchema,
	/** Derived when read: sent or partially paid, and the due date has passed. Never stored. */
	isOverdue: z.boolean(),
	/** The invoice a credit note corrects. */
	correctsId: z.string().nullable(),
	client: invoiceClientSchema.nullable(),
	clientRow: clientRowSchema.nullable(),
	currency: z.string(),
	issueDate: z.string(),
	dueDate: z.string().nullable(),
	lines: z.array(invoiceLineSchema),
	discounts: z.array(documentDiscountSchema),
	notes: z.string().nullable(),
	/** The money core's totals (DocumentTotals), as stored; null while the draft does not compute. */
	totals: z.record(z.string(), z.unknown()).nullable(),
	total: moneySchema,
	paid: moneySchema,
	/** What the invoice's credit notes took off. */
	credited: moneySchema,
	/** What is left to pay: total − paid − credited, never below zero; 0 for void documents and credit notes. */
	due: moneySchema,
	/** The unguessable part of the public page's link (`/i/{publicToken}`); null while a draft. */
	publicToken: z.string().nullable(),
	/** The recurring invoice that produced it. */
	recurrenceId: z.string().nullable(),
	/** The workspace row it is kept in (the mapped invoices database), by the row's id. */
	rowId: z.string().nullable(),
	finalizedAt: z.string().nullable(),
	sentAt: z.string().nullable(),
	/** First opened by the client on the public page. */
	viewedAt: z.string().nullable(),
	paidAt: z.string().nullable(),
	voidedAt: z.string().nullable(),
	createdAt: z.string(),
	updatedAt: z.string(),
})
export type Invoice = z.infer<typeof invoiceSchema>

/** A credit note: every line still open (none listed), or some of them with quantities. */
export const creditNoteSchema = z.object({
	lines: z
		.array(
			z.object({
				/** The line's index on the invoice. */
				line: z.number().int().min(0),
				/** Up to what is left to credit of it; the whole rest when left out. */
				quantity: z.string().trim().optional(),
			}),
		)
		.max(500)
		.optional(),
	issueDate: invoiceDaySchema.optional(),
	notes: text(2000).nullable().optional(),
})
export type CreditNoteInput = z.input<typeof creditNoteSchema>

export const paymentMethods = ['bank_transfer', 'card', 'cash', 'paypal', 'stripe', 'other'] as const

export const createPaymentSchema = z.object({
	date: invoiceDaySchema,
	/** In the invoice's currency, with at most its decimals ("12.50", JPY "1200", BHD "1.250"). */
	amount: z.string().trim(),
	method: z.enum(paymentMethods),
	note: text(500).nullable().default(null),
})
export type CreatePayment = z.input<typeof createPaymentSchema>

export const paymentSchema = z.object({
	id: z.string(),
	invoiceId: z.string(),
	date: z.string(),
	amount: moneySchema,
	method: z.enum(paymentMethods),
	note: z.string().nullable(),
	createdAt: z.string(),
})
export type Payment = z.infer<typeof paymentSchema>

/** An amount compared with documents' totals: a decimal string in their currency ("1190.00"). */
const amountBoundSchema = z
	.string()
	.trim()
	.regex(/^-?\d{1,15}(\.\d{1,4})?$/, 'Use an amount such as 1190.00.')

export const listInvoicesQuerySchema = z.object({
	/** `overdue` is derived, so it filters sent and partially paid invoices past their due date. */
	status: z.enum([...invoiceStatuses, 'overdue']).optional(),
	/** The client's row id, or its name for typed-in clients. */
	clientId: z.string().max(200).optional(),
	/** Issue dates, inclusive. */
	from: invoiceDaySchema.optional(),
	to: invoiceDaySchema.optional(),
	currency: invoiceCurrencySchema.optional(),
	/** Totals at least / at most this (inclusive), compared as exact decimals in each document's currency. */
	amountMin: amountBoundSchema.optional(),
	amountMax: amountBoundSchema.optional(),
	kind: invoiceKindSchema.optional(),
	/** The credit notes of one invoice (the invoice's id). */
	correctsId: idSchema.optional(),
	/** Part of the number or of the client's name, any case. */
	search: z.string().trim().min(1).max(200).optional(),
	/** A saved filter (`invoice_filter`) applied first; the other parameters given override its fields. */
	filterId: idSchema.optional(),
	/** Documents per page (default 50, at most 200); the totals cover every page. */
	limit: z.coerce.number().int().min(1).max(200).default(50),
	/** `nextCursor` of the page before. */
	cursor: z.string().max(500).optional(),
})

export const invoiceListSchema = z.object({
	invoices: z.array(invoiceSchema),
	/** Per status (and overdue) and currency: how many, and their totals and amounts due in minor units. */
	totals: z.array(
		z.object({
			status: z.enum([...invoiceStatuses, 'overdue']),
			currency: z.string(),
			count: z.number().int(),
			totalMinor: z.number().int(),
			dueMinor: z.number().int(),
		}),
	),
	/** Where the next page starts (`cursor`); null on the last page. */
	nextCursor: z.string().nullable(),
})
export type InvoiceList = z.infer<typeof invoiceListSchema>

// ---- lines from the workspace -----------------------------------------------------------------

/** Which property of the rows gives each part of a line (property ids of the database). */
export const rowLineMappingSchema = z.object({
	description: idSchema,
	/** 1 for each row when left out. */
	quantity: idSchema.optional(),
	unit: idSchema.optional(),
	unitPrice: idSchema,
})

export const linesFromRowsSchema = z.object({
	databaseId: idSchema,
	/** The rows' ids, in the order their lines are added. */
	rowIds: z.array(idSchema).min(1, 'Choose at least one row.').max(500, 'Use at most 500 rows.'),
	mapping: rowLineMappingSchema,
	/** The profile's default rate when left out. */
	taxRateId: idSchema.optional(),
})
export type LinesFromRows = z.input<typeof linesFromRowsSchema>

export const linesFromTimeSchema = z.object({
	/** A time-tracking view: its billable time not billed yet becomes lines. */
	viewId: idSchema,
	groupBy: z.enum(['project', 'task']).default('project'),
	taxRateId: idSchema.optional(),
})
export type LinesFromTime = z.input<typeof linesFromTimeSchema>
