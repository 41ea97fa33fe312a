import type { Role } from '@blocksmith/contracts/teams.ts'
import type { Db } from '#src/db/client.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { WorkspaceCtx, WorkspaceDeps } from '#src/workspaces/workspaces.deps.ts'

/** What the time module needs, built once in `createTime`. */
export type TimeDeps = {
	db: Db
	log: Logger
	workspaces: WorkspaceDeps
	/** The clock entries start and stop by; tests set it. */
	now: () => Date
}

/** A member working in one organization, with their role there. */
export type TimeCtx = TimeDeps & {
	orgId: string
	userId: string
	role: Role
	/**
	 * The member's person value in the workspace, when the caller read it already: a Notion
	 * person is read from Notion, which must not happen inside a transaction.
	 */
	person?: string[] | null
}

/** The workspace layer as the caller, for the writes and reads made on their behalf. */
export function workspaceCtxFor(ctx: TimeCtx): WorkspaceCtx {
	return { ...ctx.workspaces, db: ctx.db, orgId: ctx.orgId, userId: ctx.userId }
}
