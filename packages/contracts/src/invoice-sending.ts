import { z } from 'zod'
import { invoiceKindSchema, invoiceStatusSchema } from './invoice-documents.ts'

// Sending an invoice by e-mail, its history, the public page a client views and pays it on, and
// the team's own Stripe account it is paid into (issue 17, item 7). Why each part is as it is:
// docs/decisions/036-invoice-sending-and-payment.md.

const email = z.email('Use an e-mail address.').max(254)
const text = (max: number) => z.string().trim().max(max, `Use at most ${max} characters.`)

/**
 * `POST …/invoices/{id}/send`. Left out: the client's e-mail (to), the profile's subject and
 * text (with their placeholders filled). A message given here may use the same placeholders.
 */
export const sendInvoiceSchema = z.object({
	to: z.array(email).max(20, 'Send to at most 20 addresses.').optional(),
	cc: z.array(email).max(20, 'Copy at most 20 addresses.').optional(),
	subject: text(200).min(1, 'Enter a subject.').optional(),
	message: text(5000).optional(),
})
export type SendInvoice = z.input<typeof sendInvoiceSchema>

/** One line of a document's history. */
export const invoiceEventSchema = z.object({
	id: z.string(),
	/** created, finalized, sent, viewed, payment, payment_deleted, credited, voided, recurring. */
	kind: z.string(),
	at: z.string(),
	/** Who did it; null for the client (viewed), Stripe (a payment online) and scheduled runs. */
	actorName: z.string().nullable(),
	detail: z.record(z.string(), z.unknown()),
})
export type InvoiceEvent = z.infer<typeof invoiceEventSchema>
export const invoiceEventListSchema = z.array(invoiceEventSchema)

const moneySchema = z.object({ minor: z.number().int(), decimal: z.string() })
const addressSchema = z
	.object({ lines: z.array(z.string()), postcode: z.string(), city: z.string(), country: z.string() })
	.nullable()

/**
 * What the public page shows: what the invoice itself shows, nothing more (no internal ids, no
 * notes of the team, no other invoices of the client).
 */
export const publicInvoiceSchema = z.object({
	kind: invoiceKindSchema,
	number: z.string(),
	status: invoiceStatusSchema,
	isOverdue: z.boolean(),
	currency: z.string(),
	issueDate: z.string(),
	dueDate: z.string().nullable(),
	sender: z.object({
		legalName: z.string(),
		address: addressSchema,
		email: z.string().nullable(),
		vatId: z.string().nullable(),
	}),
	client: z.object({
		name: z.string(),
		address: addressSchema,
		taxId: z.string().nullable(),
	}),
	lines: z.array(
		z.object({
			description: z.string(),
			quantity: z.string(),
			unit: z.string().nullable(),
			unitPrice: z.string(),
			/** The tax rate's name ("VAT 19 %"). */
			tax: z.string(),
			net: moneySchema,
		}),
	),
	/** The invoice's discounts (BG-20), each once: its allowances per rate added up. */
	discounts: z.array(z.object({ percent: z.string().nullable(), reason: z.string().nullable(), amount: moneySchema })),
	taxBreakdown: z.array(
		z.object({ categoryCode: z.string(), rate: z.string(), taxable: moneySchema, tax: moneySchema }),
	),
	totals: z.object({
		/** The lines' nets before the discounts (BT-106): what the lines add up to. */
		lines: moneySchema,
		net: moneySchema,
		tax: moneySchema,
		total: moneySchema,
		paid: moneySchema,
		credited: moneySchema,
		due: moneySchema,
	}),
	paidAt: z.string().nullable(),
	notes: z.string().nullable(),
	footer: z.string().nullable(),
	paymentTerms: z.string().nullable(),
	/** A pay button is shown: something is left to pay and the profile has a Stripe account connected. */
	canPayOnline: z.boolean(),
	accentColor: z.string(),
	/** How the sender writes numbers and dates (BCP 47), as on the PDF. */
	locale: z.string(),
})
export type PublicInvoice = z.infer<typeof publicInvoiceSchema>

export const checkoutUrlSchema = z.object({ url: z.url() })
export const confirmCheckoutSchema = z.object({
	sessionId: z
		.string()
		.trim()
		.regex(/^cs_[A-Za-z0-9_]{1,250}$/, 'Use the Checkout Session id Stripe returned (cs_…).'),
})
export type ConfirmCheckout = z.input<typeof confirmCheckoutSchema>

/** `PUT …/settings/{id}/stripe`: the team's own secret key (a restricted key works if it may create Checkout Sessions and webhook endpoints). */
export const connectStripeSchema = z.object({
	secretKey: z
		.string()
		.trim()
		.regex(
			/^(sk|rk)_(test|live)_[A-Za-z0-9_]{8,250}$/,
			'Paste a secret key from your Stripe dashboard (sk_live_… or sk_test_…).',
		),
})
export type ConnectStripe = z.input<typeof connectStripeSchema>

export const stripeAccountSchema = z.object({
	isConnected: z.boolean(),
	accountId: z.string().nullable(),
	accountName: z.string().nullable(),
	isLive: z.boolean(),
	connectedAt: z.string().nullable(),
})
export type StripeAccount = z.infer<typeof stripeAccountSchema>
