import type { Db } from '#src/db/client.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Mailer } from '#src/lib/mail.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { Workspaces } from '#src/workspaces/workspaces.module.ts'
import type { InvoicesDeps } from './invoices.deps.ts'
import { labelInvoiceWrites } from './invoices.workspace-writeback.ts'

/** Builds the invoices module's dependencies. */
export function createInvoices(options: {
	db: Db
	log: Logger
	publicUrl: string
	authSecret: string
	storage: Pick<Storage, 'get' | 'put'>
	mailer: Mailer
	rateLimits?: boolean
	stripeApiBaseUrl?: string | null
	workspaces: Workspaces
	now?: () => Date
}) {
	const deps: InvoicesDeps = {
		db: options.db,
		log: options.log,
		publicUrl: options.publicUrl,
		authSecret: options.authSecret,
		storage: options.storage,
		mailer: options.mailer,
		rateLimits: options.rateLimits ?? true,
		stripeApiBaseUrl: options.stripeApiBaseUrl ?? null,
		workspaces: options.workspaces.deps,
		now: options.now ?? (() => new Date()),
	}
	options.workspaces.registerSourceLabels('invoice', labelInvoiceWrites)
	return { deps }
}

export type Invoices = ReturnType<typeof createInvoices>
