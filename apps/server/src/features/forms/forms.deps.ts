import type { Role } from '@blocksmith/contracts/teams.ts'
import type { Subscriptions } from '#src/core/subscriptions/subscriptions.module.ts'
import type { Db } from '#src/db/client.ts'
import type { Jobs } from '#src/lib/jobs.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Mailer } from '#src/lib/mail.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { WorkspaceCtx, WorkspaceDeps } from '#src/workspaces/workspaces.deps.ts'

type FormSettings = {
	/** Seconds a person needs at least between the page being served and the answer coming back. */
	minFillSeconds: number
	/** How long view counts are gathered in memory before one write per form. */
	viewFlushMs: number
	/** First retry of a webhook delivery; doubles each time (up to 4 hours), for 24 hours. */
	webhookRetryDelaySeconds: number
	/** WEBHOOK_ALLOW_PRIVATE: let webhooks reach private and loopback addresses (an operator's choice). */
	webhookAllowPrivate: boolean
}

/** What the forms module needs, built once in `createForms`. */
export type FormsDeps = {
	db: Db
	jobs: Jobs
	mail: Mailer
	log: Logger
	storage: Storage
	publicUrl: string
	authSecret: string
	/** UPLOAD_MAX_BYTES: no file is larger, whatever a form's field allows. */
	uploadMaxBytes: number
	/** RATE_LIMITS: off only for load tests. */
	rateLimits: boolean
	settings: FormSettings
	workspaces: WorkspaceDeps
	/** The plan's room for forms and files, and whether the organization's public pages are served. */
	subscriptions: Subscriptions
}

/** A member working in one organization, with their role there. */
export type FormsCtx = FormsDeps & { orgId: string; userId: string; role: Role }

/** The workspace layer as the form's organization, for writes and reads made on its behalf. */
export function workspaceCtxFor(deps: FormsDeps, orgId: string, userId: string | null): WorkspaceCtx {
	return { ...deps.workspaces, orgId, userId: userId ?? '' }
}
