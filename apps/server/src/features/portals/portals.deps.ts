import type { Subscriptions } from '#src/core/subscriptions/subscriptions.module.ts'
import type { Db } from '#src/db/client.ts'
import type { ChartsDeps } from '#src/features/charts/charts.public.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Mailer } from '#src/lib/mail.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { WorkspaceDeps } from '#src/workspaces/workspaces.deps.ts'

/** What the portals module needs, built once in `createPortals`. */
export type PortalsDeps = {
	db: Db
	log: Logger
	/** Where `/p/{slug}` and the links in e-mails point. */
	publicUrl: string
	authSecret: string
	mailer: Mailer
	storage: Pick<Storage, 'get' | 'put'>
	rateLimits: boolean
	workspaces: WorkspaceDeps
	/** Published charts drawn over a member's rows (portals.charts.ts). */
	charts: ChartsDeps
	/** Plan limits (`portals`, `portalMembers`, the `customDomain` switch) and whether public pages are served. */
	subscriptions: Pick<Subscriptions, 'assertCanAdd' | 'isAvailable' | 'hasSwitch' | 'summary'>
	now: () => Date
}

/** The portal a visitor's request is for, as read once by the middleware. */
export type PortalRecord = typeof import('./portals.schema.ts').portals.$inferSelect

/** The signed-in member of that portal: what every rule is matched against. */
export type PortalMemberContext = {
	memberId: string
	sessionId: string
	portalId: string
	orgId: string
	email: string
	name: string | null
	companyRowId: string | null
	memberRowId: string | null
	personRef: string | null
	hasPassword: boolean
}
