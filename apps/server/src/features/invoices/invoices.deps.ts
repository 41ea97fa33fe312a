import type { Role } from '@blocksmith/contracts/teams.ts'
import type { Db } from '#src/db/client.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Mailer } from '#src/lib/mail.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { WorkspaceDeps } from '#src/workspaces/workspaces.deps.ts'

/** What the invoices module needs, built once in `createInvoices`. */
export type InvoicesDeps = {
	db: Db
	log: Logger
	/** For the logo's signed download link. */
	publicUrl: string
	authSecret: string
	/** Where uploads are kept: the logo drawn on invoices is read from it. */
	storage: Pick<Storage, 'get' | 'put'>
	/** Sends invoices (the PDF attached, stored first under a key the mail job reads). */
	mailer: Mailer
	/** Whether public endpoints (paying online) are rate-limited; off in some tests. */
	rateLimits: boolean
	/** Where the Stripe SDK sends the teams' requests when not Stripe itself (the tests' fake). */
	stripeApiBaseUrl: string | null
	/** The write queue: each change of an invoice is written back to its workspace row through it. */
	workspaces: WorkspaceDeps
	/** The clock "today" is read from (the next numbers shown in the settings); tests set it. */
	now: () => Date
}

/** A member working in one organization, with their role there. */
export type InvoicesCtx = InvoicesDeps & { orgId: string; userId: string; role: Role }
