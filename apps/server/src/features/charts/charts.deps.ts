import type { Role } from '@blocksmith/contracts/teams.ts'
import type { Subscriptions } from '#src/core/subscriptions/subscriptions.module.ts'
import type { Db } from '#src/db/client.ts'
import type { Logger } from '#src/lib/logger.ts'

/** What the charts module needs, built once in `createCharts`. */
export type ChartsDeps = {
	db: Db
	log: Logger
	publicUrl: string
	/** The clock figures are computed against (relative date ranges, "today"); tests set it. */
	now: () => Date
	/**
	 * Asks for a database's typed projection to be (re)built, soon and once for a burst of asks,
	 * holding (besides what its saved charts read) the properties `wanted`.
	 */
	requestProjection: (databaseId: string, wanted: string[]) => void
	/** The plan's room for charts and dashboards, and whether the organization's public pages are served. */
	subscriptions: Subscriptions
}

/** A member working in one organization, with their role there. */
export type ChartsCtx = ChartsDeps & { orgId: string; userId: string; role: Role }
