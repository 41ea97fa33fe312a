// The public side of an invoice, reached by its unguessable token with no session: the page's
// data (what the invoice itself shows, nothing more), its PDF, paying it through Stripe Checkout
// in the team's own account, and that account's webhook. A draft, a void document and an unknown
// token are the same 404. Payments online are recorded with the Checkout Session's id as their
// external id, so the return from Checkout and the webhook (in any order, any number of times)
// record one payment. Decision 036.

import { minorToDecimal } from '@blocksmith/contracts/invoice-currencies.ts'
import type { Allowance, Money } from '@blocksmith/contracts/invoice-money.ts'
import type { PublicInvoice } from '@blocksmith/contracts/invoice-sending.ts'
import { and, eq, isNull } from 'drizzle-orm'
import Stripe from 'stripe'
import { organizationDeletions } from '#src/core/deletion/deletion.schema.ts'
import { AppError, found } from '#src/lib/errors.ts'
import { enforceRateLimit } from '#src/lib/rate-limit.ts'
import type { InvoicesCtx, InvoicesDeps } from './invoices.deps.ts'
import { invoiceDocumentOf, invoicePdf } from './invoices.documents.pdf.ts'
import { type DocumentRecord, invoiceDocuments } from './invoices.documents.schema.ts'
import { isOverdue } from './invoices.documents.ts'
import { documentChanged } from './invoices.lifecycle.ts'
import { dayOf } from './invoices.numbering.ts'
import { createPayment, leftToPay } from './invoices.payments.ts'
import { publicLink } from './invoices.send.ts'
import { minorFromStripe, secretBox, stripeAccountOf, stripeAmount, stripeClient } from './invoices.stripe.ts'

const gone = () =>
	new AppError('NOT_FOUND', { detail: 'This invoice link does not work. Ask the sender for a new one.' })

/** Checkout Sessions a visitor may start, per address: each is a call into the team's Stripe account. */
const checkoutRule = { limit: 10, windowSeconds: 600 }
const confirmRule = { limit: 30, windowSeconds: 600 }

/**
 * A finalized, not void document by its token, or 404; 404 too while its organization is
 * scheduled for deletion (decision 040: its public pages go away at once).
 */
async function documentByToken(deps: InvoicesDeps, token: string): Promise<DocumentRecord> {
	const [row] = await deps.db
		.select({ record: invoiceDocuments, deletingSince: organizationDeletions.requestedAt })
		.from(invoiceDocuments)
		.leftJoin(organizationDeletions, eq(organizationDeletions.organizationId, invoiceDocuments.organizationId))
		.where(eq(invoiceDocuments.publicToken, token))
	const record = row?.record
	if (!record || record.status === 'draft' || record.status === 'void' || row.deletingSince !== null) {
		throw gone()
	}
	return record
}

/** Acting for nobody in the document's organization (the client, or Stripe). */
function visitorCtx(deps: InvoicesDeps, record: DocumentRecord): InvoicesCtx {
	return { ...deps, orgId: record.organizationId, userId: '', role: 'member' }
}

function dueOf(record: DocumentRecord): number {
	return record.kind === 'invoice' ? leftToPay(record) : 0
}

async function canPayOnline(deps: InvoicesDeps, record: DocumentRecord): Promise<boolean> {
	const due = dueOf(record)
	if (due <= 0 || stripeAmount(due, record.currency) === null) {
		return false
	}
	return (await stripeAccountOf(deps.db, record.profileId)) !== null
}

/** Sets `viewedAt` the first time (one 'viewed' event, however many visitors open it at once). */
async function markViewed(deps: InvoicesDeps, record: DocumentRecord): Promise<void> {
	if (record.viewedAt) {
		return
	}
	const ctx = visitorCtx(deps, record)
	await deps.db.transaction(async (tx) => {
		const now = ctx.now()
		const [viewed] = await tx
			.update(invoiceDocuments)
			.set({ viewedAt: now })
			.where(and(eq(invoiceDocuments.id, record.id), isNull(invoiceDocuments.viewedAt)))
			.returning()
		if (viewed) {
			await documentChanged(ctx, tx, viewed, { kind: 'viewed' })
		}
	})
}

/**
 * Each discount once, as the client gave it: the money core splits a discount over the rates of
 * the lines it applies to (one allowance per rate, as EN 16931 wants), and the page adds them up.
 */
function discountsOf(allowances: Allowance[], money: (minor: number) => Money): PublicInvoice['discounts'] {
	const byDiscount = new Map<number, { percent: string | null; reason: string | null; minor: number }>()
	for (const allowance of allowances) {
		const seen = byDiscount.get(allowance.discountIndex)
		if (seen) {
			seen.minor += allowance.amount.minor
		} else {
			byDiscount.set(allowance.discountIndex, {
				percent: allowance.percent,
				reason: allowance.reason,
				minor: allowance.amount.minor,
			})
		}
	}
	return [...byDiscount.values()].map(({ percent, reason, minor }) => ({ percent, reason, amount: money(minor) }))
}

async function pageData(deps: InvoicesDeps, record: DocumentRecord): Promise<PublicInvoice> {
	const ctx = visitorCtx(deps, record)
	const model = await invoiceDocumentOf(ctx, record.id)
	const money = (minor: number) => ({ minor, decimal: minorToDecimal(minor, record.currency) })
	const rates = new Map(model.taxRates.map((rate) => [rate.id, rate.name]))
	const { totals, profile, client } = model
	return {
		kind: record.kind,
		number: record.number ?? '',
		status: record.status,
		isOverdue: isOverdue(record, dayOf(ctx.now())),
		currency: record.currency,
		issueDate: record.issueDate,
		dueDate: record.dueDate,
		sender: {
			legalName: profile.legalName,
			address: profile.address,
			email: profile.email,
			vatId: profile.taxIds.vatId,
		},
		client: { name: client.name, address: client.address, taxId: client.taxId },
		lines: model.lines.map((line, index) => {
			const figures = found(totals.lines[index])
			return {
				description: line.description,
				quantity: line.quantity,
				unit: line.unit,
				unitPrice: line.unitPrice,
				// The rate's name as the team wrote it ("VAT 19 %"); the breakdown below gives the percentages.
				tax: rates.get(line.taxRateId) ?? `${figures.rate} %`,
				net: figures.net,
			}
		}),
		discounts: discountsOf(totals.allowances, money),
		taxBreakdown: totals.vatBreakdown.map((row) => ({
			categoryCode: row.categoryCode,
			rate: row.rate,
			taxable: row.taxableAmount,
			tax: row.taxAmount,
		})),
		totals: {
			lines: totals.lineNetTotal,
			net: totals.taxExclusiveAmount,
			tax: totals.vatTotal,
			total: totals.taxInclusiveAmount,
			paid: money(record.paidMinor),
			credited: money(record.creditedMinor),
			due: money(dueOf(record)),
		},
		paidAt: record.paidAt?.toISOString().slice(0, 10) ?? null,
		notes: profile.notes,
		footer: profile.footer,
		paymentTerms: model.paymentTerms,
		canPayOnline: await canPayOnline(deps, record),
		accentColor: profile.template.accentColor,
		locale: profile.locale,
	}
}

/** The page's data; the first request marks the invoice viewed. */
export async function publicInvoice(deps: InvoicesDeps, token: string): Promise<PublicInvoice> {
	const record = await documentByToken(deps, token)
	await markViewed(deps, record)
	return pageData(deps, await documentByToken(deps, token))
}

export async function publicPdf(deps: InvoicesDeps, token: string): Promise<{ pdf: Buffer; name: string }> {
	const record = await documentByToken(deps, token)
	return invoicePdf(visitorCtx(deps, record), record.id)
}

async function accountClient(deps: InvoicesDeps, profileId: string) {
	const account = await stripeAccountOf(deps.db, profileId)
	return account ? { account, stripe: stripeClient(deps, secretBox(deps).open(account.secretKey)) } : null
}

/** A Checkout Session for what is left to pay, in the team's account; `{ url }` to send the visitor to. */
export async function createCheckout(deps: InvoicesDeps, token: string, clientIp: string): Promise<{ url: string }> {
	if (deps.rateLimits) {
		await enforceRateLimit(deps.db, `invoice-checkout:${clientIp}`, checkoutRule)
	}
	const record = await documentByToken(deps, token)
	const due = dueOf(record)
	if (due <= 0) {
		throw new AppError('CONFLICT', { detail: 'Nothing is left to pay on this invoice.' })
	}
	const amount = stripeAmount(due, record.currency)
	const connected = await accountClient(deps, record.profileId)
	if (!connected || amount === null) {
		throw new AppError('CONFLICT', { detail: 'This invoice cannot be paid online. Use the bank details on it.' })
	}
	const page = publicLink(deps.publicUrl, token)
	const metadata = { invoiceId: record.id, profileId: record.profileId, number: record.number ?? '' }
	try {
		const session = await connected.stripe.checkout.sessions.create({
			mode: 'payment',
			line_items: [
				{
					quantity: 1,
					price_data: {
						currency: record.currency.toLowerCase(),
						unit_amount: amount,
						product_data: { name: `Invoice ${record.number ?? ''}`.trim() },
					},
				},
			],
			client_reference_id: record.id,
			metadata,
			...(record.client?.email ? { customer_email: record.client.email } : {}),
			success_url: `${page}?session_id={CHECKOUT_SESSION_ID}`,
			cancel_url: page,
		})
		return { url: found(session.url) }
	} catch (error) {
		// Refused (an amount under the account's minimum charge, a currency it does not take): trying
		// again will not help, and the client needs to know to pay another way.
		if (error instanceof Stripe.errors.StripeInvalidRequestError) {
			deps.log.warn({ err: error, invoiceId: record.id }, 'Stripe refused the Checkout Session')
			throw new AppError('CONFLICT', {
				detail: `Stripe refused this payment (${error.message}). Use the bank details on the invoice.`,
			})
		}
		throw new AppError('SERVICE_UNAVAILABLE', {
			detail: 'Stripe could not start the payment. Try again.',
			cause: error,
		})
	}
}

/**
 * Records a completed, paid session as a payment of its invoice (idempotent by the session's
 * id). A session for another invoice, an unpaid one, or another currency records nothing.
 */
async function recordSession(deps: InvoicesDeps, record: DocumentRecord, session: Stripe.Checkout.Session) {
	const belongs = session.client_reference_id === record.id && session.metadata?.invoiceId === record.id
	if (!belongs || session.status !== 'complete' || session.payment_status !== 'paid') {
		return false
	}
	const minor =
		session.amount_total !== null && session.currency?.toUpperCase() === record.currency
			? minorFromStripe(session.amount_total, record.currency)
			: null
	if (minor === null || minor <= 0) {
		deps.log.error({ sessionId: session.id, invoiceId: record.id }, 'Stripe session amount does not fit the invoice')
		return false
	}
	const ctx = visitorCtx(deps, record)
	try {
		await createPayment(ctx, record.id, {
			date: dayOf(ctx.now()),
			amount: minorToDecimal(minor, record.currency),
			method: 'stripe',
			note: `Paid online (Stripe Checkout ${session.id})`,
			externalId: session.id,
		})
	} catch (error) {
		// Paid twice (two sessions both completed) or paid meanwhile by hand: more than is left to
		// pay is refused by the payments' rules; the money is in the team's Stripe account to refund.
		if (error instanceof AppError && (error.code === 'VALIDATION_FAILED' || error.code === 'CONFLICT')) {
			deps.log.error(
				{ sessionId: session.id, invoiceId: record.id, detail: error.detail },
				'Stripe payment not recorded: refund it in Stripe',
			)
			return false
		}
		throw error
	}
	return true
}

/** The return from Checkout: the session is read from Stripe (never trusted from the browser). */
export async function confirmCheckout(
	deps: InvoicesDeps,
	token: string,
	sessionId: string,
	clientIp: string,
): Promise<PublicInvoice> {
	if (deps.rateLimits) {
		await enforceRateLimit(deps.db, `invoice-confirm:${clientIp}`, confirmRule)
	}
	const record = await documentByToken(deps, token)
	const connected = await accountClient(deps, record.profileId)
	if (!connected) {
		throw gone()
	}
	let session: Stripe.Checkout.Session
	try {
		session = await connected.stripe.checkout.sessions.retrieve(sessionId)
	} catch (error) {
		if (error instanceof Stripe.errors.StripeInvalidRequestError) {
			throw new AppError('NOT_FOUND', { detail: 'No such payment for this invoice.' })
		}
		throw new AppError('SERVICE_UNAVAILABLE', {
			detail: 'Stripe could not be reached. Reload in a moment.',
			cause: error,
		})
	}
	if (session.client_reference_id !== record.id) {
		throw new AppError('NOT_FOUND', { detail: 'No such payment for this invoice.' })
	}
	await recordSession(deps, record, session)
	return pageData(deps, await documentByToken(deps, token))
}

/**
 * Stripe's events for one profile's account, verified with that account's endpoint secret on
 * the raw body. Only `checkout.session.completed` (and its delayed twin) record anything.
 */
export async function handleInvoiceWebhook(
	deps: InvoicesDeps,
	profileId: string,
	body: string,
	signature: string,
): Promise<void> {
	const account = await stripeAccountOf(deps.db, profileId)
	if (!account?.webhookSecret) {
		throw new AppError('NOT_FOUND')
	}
	let event: Stripe.Event
	try {
		event = await Stripe.webhooks.constructEventAsync(body, signature, secretBox(deps).open(account.webhookSecret))
	} catch {
		throw new AppError('VALIDATION_FAILED', {
			detail: 'The Stripe-Signature header does not match this body and the endpoint signing secret.',
			errors: [{ field: 'stripe-signature', message: 'Invalid signature.' }],
		})
	}
	if (event.type !== 'checkout.session.completed' && event.type !== 'checkout.session.async_payment_succeeded') {
		return
	}
	const session = event.data.object
	const invoiceId = session.metadata?.invoiceId
	if (!invoiceId || session.metadata?.profileId !== profileId) {
		return
	}
	const [record] = await deps.db
		.select()
		.from(invoiceDocuments)
		.where(and(eq(invoiceDocuments.id, invoiceId), eq(invoiceDocuments.profileId, profileId)))
	if (record && record.organizationId === account.organizationId) {
		await recordSession(deps, record, session)
	}
}
