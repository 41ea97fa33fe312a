import {
	type BulkInviteInput,
	type BulkInviteResult,
	bulkInviteResultSchema,
	type Portal,
	type PortalDatabaseOption,
	type PortalJobTimer,
	type PortalMember,
	type PortalSetupInput,
	portalDatabaseOptionSchema,
	portalJobTimerSchema,
	portalMemberSchema,
	portalSchema,
	portalSetupResponseSchema,
} from '@blocksmith/contracts/portals.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { api } from '#src/lib/api-client.ts'

// The portals' API. A portal lives under the tool of the workspace its databases are in
// (`/dashboard/local_portal/…`, `/dashboard/notion_portal/…`); the list asks both tools and shows
// them as one, as time tracking does. Notion not connected answers nothing, not an error.

const portalTools = ['local', 'notion'] as const satisfies readonly WorkspaceTool[]

const encode = encodeURIComponent
const base = (tool: WorkspaceTool) => `/dashboard/${tool}_portal`

export const portalKeys = {
	all: ['portals'] as const,
	setup: ['portals', 'setup'] as const,
	databases: (tool: WorkspaceTool, params: DatabaseParams) => ['portals', 'databases', tool, params] as const,
	jobTimer: (tool: WorkspaceTool, portalId: string) => ['portals', 'job-timer', tool, portalId] as const,
	members: (tool: WorkspaceTool, portalId: string) => ['portals', 'members', tool, portalId] as const,
}

export type PortalsState = {
	portals: Portal[]
	/** The smallest limit either tool reports (the plan's, the same for both); null: none. */
	limit: number | null
}

/** Every portal of the organization, through both tools. */
export const portalsQuery = queryOptions({
	queryKey: portalKeys.setup,
	queryFn: async ({ signal }): Promise<PortalsState> => {
		const answers = await Promise.all(
			portalTools.map((tool) =>
				api(`${base(tool)}/setup`, { schema: portalSetupResponseSchema, signal }).catch((error: unknown) => {
					// The built-in tool always answers; a Notion side that cannot (not connected) adds nothing.
					if (tool === 'local') {
						throw error
					}
					return null
				}),
			),
		)
		const found = answers.filter((answer) => answer !== null)
		const limits = found.map((answer) => answer.limit).filter((limit) => limit !== null)
		return {
			portals: found.flatMap((answer) => answer.portals).sort((a, b) => a.createdAt.localeCompare(b.createdAt)),
			limit: limits.length > 0 ? Math.min(...limits) : null,
		}
	},
})

export type DatabaseParams = {
	portalId?: string | undefined
	companiesDatabaseId?: string | null | undefined
	membersDatabaseId?: string | null | undefined
}

/** The databases a portal on `tool` can expose, each with the rules it supports given the access settings. */
export function portalDatabasesQuery(tool: WorkspaceTool, params: DatabaseParams) {
	return queryOptions({
		queryKey: portalKeys.databases(tool, params),
		queryFn: ({ signal }): Promise<PortalDatabaseOption[]> =>
			api(`${base(tool)}/setup/fetch_public_databases`, {
				query: {
					portalId: params.portalId || undefined,
					companiesDatabaseId: params.companiesDatabaseId || undefined,
					membersDatabaseId: params.membersDatabaseId || undefined,
				},
				schema: z.array(portalDatabaseOptionSchema),
				signal,
			}),
	})
}

/** Creates the portal without `id`, saves it with one. */
export async function saveSetup(tool: WorkspaceTool, input: PortalSetupInput): Promise<Portal> {
	return api(`${base(tool)}/setup/update_setup`, { json: input, schema: portalSchema })
}

export async function resetPortal(portal: Pick<Portal, 'id' | 'tool'>, confirm: string): Promise<Portal> {
	return api(`${base(portal.tool)}/setup/reset_portal_config`, {
		json: { id: portal.id, confirm },
		schema: portalSchema,
	})
}

export async function deletePortal(portal: Pick<Portal, 'id' | 'tool'>): Promise<void> {
	await api(`${base(portal.tool)}/setup/${encode(portal.id)}`, { method: 'DELETE' })
}

// ---- freshness ----------------------------------------------------------------------------

/** Polled every 2 s while a sync is queued or running, so "running now" ends by itself. */
export function jobTimerQuery(tool: WorkspaceTool, portalId: string) {
	return queryOptions({
		queryKey: portalKeys.jobTimer(tool, portalId),
		queryFn: ({ signal }): Promise<PortalJobTimer> =>
			api(`${base(tool)}/databases/get_job_timer`, { query: { portalId }, schema: portalJobTimerSchema, signal }),
		refetchInterval: (query) => (isSyncing(query.state.data) ? 2000 : false),
	})
}

export function isSyncing(timer: PortalJobTimer | undefined): boolean {
	return Boolean(timer && (timer.isRunning || timer.databases.some((database) => database.state !== 'idle')))
}

export async function refreshPortal(tool: WorkspaceTool, portalId: string): Promise<PortalJobTimer> {
	return api(`${base(tool)}/databases/refresh`, { json: { portalId }, schema: portalJobTimerSchema })
}

// ---- members ------------------------------------------------------------------------------

export function membersQuery(tool: WorkspaceTool, portalId: string) {
	return queryOptions({
		queryKey: portalKeys.members(tool, portalId),
		queryFn: ({ signal }): Promise<PortalMember[]> =>
			api(`${base(tool)}/invitations`, { query: { portalId }, schema: z.array(portalMemberSchema), signal }),
	})
}

export async function bulkInvite(tool: WorkspaceTool, input: BulkInviteInput): Promise<BulkInviteResult> {
	return api(`${base(tool)}/invitations/bulk_invite`, { json: input, schema: bulkInviteResultSchema })
}

export async function resendInvitation(tool: WorkspaceTool, memberId: string): Promise<void> {
	await api(`${base(tool)}/invitations/${encode(memberId)}/resend`, { method: 'POST' })
}

export async function updateMember(
	tool: WorkspaceTool,
	memberId: string,
	input: { name?: string | null; company?: string | null },
): Promise<void> {
	// The answer is not read: the list is read again after a change.
	await api(`${base(tool)}/invitations/${encode(memberId)}`, { method: 'PATCH', json: input })
}

export async function removeMember(tool: WorkspaceTool, memberId: string): Promise<void> {
	await api(`${base(tool)}/invitations/${encode(memberId)}`, { method: 'DELETE' })
}

// ---- what else members can do: the team's forms and charts, read here in the little the setup needs

const offerSchema = z.object({
	id: z.string(),
	name: z.string(),
	tool: z.enum(portalTools),
	databaseId: z.string(),
	published: z.boolean(),
})
export type PortalOffer = z.infer<typeof offerSchema>

/** The organization's forms on `tool`, to offer members (the forms module's list, only what this needs). */
export function portalFormsQuery(tool: WorkspaceTool) {
	return queryOptions({
		queryKey: ['portals', 'offers', 'forms', tool] as const,
		queryFn: async ({ signal }): Promise<PortalOffer[]> => {
			const forms = await api('/dashboard/forms', { schema: z.array(offerSchema), signal })
			return forms.filter((form) => form.tool === tool)
		},
	})
}

/** The organization's charts on `tool`. */
export function portalChartsQuery(tool: WorkspaceTool) {
	return queryOptions({
		queryKey: ['portals', 'offers', 'charts', tool] as const,
		queryFn: ({ signal }): Promise<PortalOffer[]> =>
			api(`/dashboard/${tool}_charts/charts`, { schema: z.array(offerSchema), signal }),
	})
}
