// What follows every change of a document's state, inside the transaction that made it: the
// event for its history, and (through `invoices.workspace-writeback.ts`) the write of its
// status to its workspace row. One place, so no path (a payment recorded by hand, a Stripe
// webhook, a recurring run, a credit note) can change a status and forget either.

import { randomBytes, randomUUID } from 'node:crypto'
import type { Db } from '#src/db/client.ts'
import { type DocumentRecord, invoiceEvents } from './invoices.documents.schema.ts'
import { type WriteBackCtx, writeBack } from './invoices.workspace-writeback.ts'

export type InvoiceEventKind =
	| 'created'
	| 'finalized'
	| 'sent'
	| 'viewed'
	| 'payment'
	| 'payment_deleted'
	| 'credited'
	| 'voided'
	| 'recurring'

/** The unguessable part of a public invoice link (192 random bits). */
export function newPublicToken(): string {
	return randomBytes(24).toString('base64url')
}

/**
 * Records what happened to `document` (as it is after the change) and queues the write of its
 * row in the mapped invoices database. `ctx` is the module's context: the write-back needs its
 * workspace deps, public URL and logger.
 */
export async function documentChanged(
	ctx: WriteBackCtx,
	tx: Db,
	document: DocumentRecord,
	event: { kind: InvoiceEventKind; detail?: Record<string, unknown> },
): Promise<void> {
	await tx.insert(invoiceEvents).values({
		id: randomUUID(),
		organizationId: ctx.orgId,
		documentId: document.id,
		kind: event.kind,
		detail: event.detail ?? {},
		// Webhooks and jobs act for nobody.
		actorId: ctx.userId || null,
		at: ctx.now(),
	})
	await writeBack(ctx, tx, document)
}
