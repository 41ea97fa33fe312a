// Sending an invoice by e-mail: the profile's subject and text with the placeholders filled,
// the PDF attached, the public link in the text, then the document marked sent with the
// recipients in its 'sent' event. And the document's history, newest first. Decision 036.

import { createHash, randomUUID } from 'node:crypto'
import { formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import type { InvoiceEvent, sendInvoiceSchema } from '@blocksmith/contracts/invoice-sending.ts'
import { and, desc, eq } from 'drizzle-orm'
import type { z } from 'zod'
import { users } from '#src/core/auth/auth.schema.ts'
import { AppError, found } from '#src/lib/errors.ts'
import type { InvoicesCtx } from './invoices.deps.ts'
import { invoicePdf } from './invoices.documents.pdf.ts'
import { type DocumentRecord, invoiceDocuments, invoiceEvents } from './invoices.documents.schema.ts'
import { documentRecord, invalid, toInvoice } from './invoices.documents.ts'
import { documentChanged } from './invoices.lifecycle.ts'
import { dayOf } from './invoices.numbering.ts'
import { leftToPay } from './invoices.payments.ts'
import { invoiceProfiles, type ProfileRecord } from './invoices.schema.ts'

type SendInput = z.output<typeof sendInvoiceSchema>

/** The public page of a finalized document (decision 036: the token is the only key to it). */
export function publicLink(publicUrl: string, token: string): string {
	return `${publicUrl}/i/${token}`
}

function dayText(day: string | null, locale: string): string {
	if (!day) {
		return ''
	}
	return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`))
}

/** Fills {number}, {client}, {amount} (left to pay), {due_date}, {issue_date}, {company} and {link}. */
function fill(template: string, document: DocumentRecord, profile: ProfileRecord, link: string): string {
	const locale = document.sender?.locale ?? profile.details.locale
	const values: Record<string, string> = {
		number: document.number ?? '',
		client: document.client?.name ?? '',
		amount: formatMoney(
			document.kind === 'invoice' ? leftToPay(document) : document.totalMinor,
			document.currency,
			locale,
		),
		due_date: dayText(document.dueDate, locale),
		issue_date: dayText(document.issueDate, locale),
		company: document.sender?.legalName ?? profile.legalName,
		link,
	}
	return template.replace(/\{([a-z_]+)\}/g, (whole, name: string) => values[name] ?? whole)
}

async function storePdf(ctx: InvoicesCtx, pdf: Buffer): Promise<string> {
	const key = `invoices/${ctx.orgId}/sent/${randomUUID()}`
	await ctx.storage.put(key, new Blob([new Uint8Array(pdf)]).stream(), {
		byteSize: pdf.length,
		checksum: createHash('md5').update(pdf).digest('base64'),
	})
	return key
}

/**
 * Sends a finalized document to `to` (default: the client's e-mail) and marks it sent. The PDF
 * is rendered now and kept in the storage under its own key: the mail job reads it when it
 * delivers, and the file stays as the record of exactly what was sent.
 */
export async function sendInvoice(ctx: InvoicesCtx, id: string, input: SendInput = {}) {
	const document = await documentRecord(ctx.db, ctx.orgId, id)
	if (document.status === 'draft' || !document.publicToken) {
		throw new AppError('CONFLICT', { detail: 'Finalize the invoice before sending it: a draft has no number.' })
	}
	if (document.status === 'void') {
		throw new AppError('CONFLICT', { detail: 'This invoice is void.' })
	}
	const to = input.to ?? (document.client?.email ? [document.client.email] : [])
	if (to.length === 0) {
		throw invalid([{ field: 'to', message: 'The client has no e-mail address: say whom to send it to.' }])
	}
	const [profileRow] = await ctx.db
		.select()
		.from(invoiceProfiles)
		.where(and(eq(invoiceProfiles.id, document.profileId), eq(invoiceProfiles.organizationId, ctx.orgId)))
	const profile = found(profileRow)
	const link = publicLink(ctx.publicUrl, document.publicToken)
	const subject = fill(input.subject ?? profile.details.emailMessage.subject, document, profile, link)
	let text = fill(input.message ?? profile.details.emailMessage.body, document, profile, link)
	// The link is how the client pays online: it is in every message, whatever the text says.
	if (!text.includes(link)) {
		text = `${text}\n\n${link}`
	}
	const { pdf, name } = await invoicePdf(ctx, id)
	const storageKey = await storePdf(ctx, pdf)
	const cc = input.cc ?? []
	const sender = document.sender?.email ?? profile.details.email

	const record = await ctx.db.transaction(async (tx) => {
		const locked = await documentRecord(tx, ctx.orgId, id, true)
		if (locked.status === 'void') {
			throw new AppError('CONFLICT', { detail: 'This invoice is void.' })
		}
		const now = ctx.now()
		const [updated] = await tx
			.update(invoiceDocuments)
			.set({
				sentAt: locked.sentAt ?? now,
				status: locked.status === 'finalized' ? 'sent' : locked.status,
				updatedAt: now,
			})
			.where(eq(invoiceDocuments.id, locked.id))
			.returning()
		await documentChanged(ctx, tx, found(updated), {
			kind: 'sent',
			detail: { by: 'email', to, ...(cc.length > 0 ? { cc } : {}), subject },
		})
		return found(updated)
	})
	// Queued once the document says sent; the job retries delivery until the mail server takes it.
	await ctx.mailer.send({
		to,
		...(cc.length > 0 ? { cc } : {}),
		subject,
		text,
		...(sender ? { replyTo: sender } : {}),
		attachments: [{ filename: `${name}.pdf`, contentType: 'application/pdf', storageKey }],
	})
	return toInvoice(record, dayOf(ctx.now()))
}

/** The document's history, newest first, with who did each thing (null: the client, Stripe or a scheduled run). */
export async function listEvents(ctx: InvoicesCtx, id: string): Promise<InvoiceEvent[]> {
	const document = await documentRecord(ctx.db, ctx.orgId, id)
	const rows = await ctx.db
		.select({
			id: invoiceEvents.id,
			kind: invoiceEvents.kind,
			at: invoiceEvents.at,
			detail: invoiceEvents.detail,
			actorName: users.name,
		})
		.from(invoiceEvents)
		.leftJoin(users, eq(users.id, invoiceEvents.actorId))
		.where(and(eq(invoiceEvents.documentId, document.id), eq(invoiceEvents.organizationId, ctx.orgId)))
		.orderBy(desc(invoiceEvents.at), desc(invoiceEvents.id))
	return rows.map((row) => ({
		id: row.id,
		kind: row.kind,
		at: row.at.toISOString(),
		actorName: row.actorName ?? null,
		detail: row.detail,
	}))
}
