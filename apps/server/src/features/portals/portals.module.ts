import { count, eq } from 'drizzle-orm'
import type { Subscriptions } from '#src/core/subscriptions/subscriptions.module.ts'
import type { Db } from '#src/db/client.ts'
import type { ChartsDeps } from '#src/features/charts/charts.public.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Mailer } from '#src/lib/mail.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { Workspaces } from '#src/workspaces/workspaces.module.ts'
import type { PortalsDeps } from './portals.deps.ts'
import { portalMembers, portals } from './portals.schema.ts'

/** Builds the portals module's dependencies and registers what a plan counts of it. */
export function createPortals(options: {
	db: Db
	log: Logger
	publicUrl: string
	authSecret: string
	mailer: Mailer
	storage: Pick<Storage, 'get' | 'put'>
	rateLimits?: boolean
	workspaces: Workspaces
	charts: ChartsDeps
	subscriptions: Subscriptions
	now?: () => Date
}) {
	const deps: PortalsDeps = {
		db: options.db,
		log: options.log,
		publicUrl: options.publicUrl,
		authSecret: options.authSecret,
		mailer: options.mailer,
		storage: options.storage,
		rateLimits: options.rateLimits ?? true,
		workspaces: options.workspaces.deps,
		charts: options.charts,
		subscriptions: options.subscriptions,
		now: options.now ?? (() => new Date()),
	}
	options.subscriptions.registerMeter('portals', async (db, organizationId) => {
		const [row] = await db.select({ n: count() }).from(portals).where(eq(portals.organizationId, organizationId))
		return row?.n ?? 0
	})
	options.subscriptions.registerMeter('portalMembers', async (db, organizationId) => {
		const [row] = await db
			.select({ n: count() })
			.from(portalMembers)
			.where(eq(portalMembers.organizationId, organizationId))
		return row?.n ?? 0
	})
	return { deps }
}

export type Portals = ReturnType<typeof createPortals>
