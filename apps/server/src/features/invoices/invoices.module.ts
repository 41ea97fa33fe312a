import type { Db } from '#src/db/client.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { InvoicesDeps } from './invoices.deps.ts'

/** Builds the invoices module's dependencies. */
export function createInvoices(options: {
	db: Db
	log: Logger
	publicUrl: string
	authSecret: string
	storage: Pick<Storage, 'get'>
	now?: () => Date
}) {
	const deps: InvoicesDeps = {
		db: options.db,
		log: options.log,
		publicUrl: options.publicUrl,
		authSecret: options.authSecret,
		storage: options.storage,
		now: options.now ?? (() => new Date()),
	}
	return { deps }
}

export type Invoices = ReturnType<typeof createInvoices>
