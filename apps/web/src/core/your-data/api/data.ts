import {
	type AccountDeletionPreview,
	accountDeletionPreviewSchema,
	type DeleteOrganizationResult,
	deleteOrganizationResultSchema,
	type OrganizationExport,
	organizationExportListSchema,
	organizationExportSchema,
} from '@blocksmith/contracts/data.ts'
import { queryOptions } from '@tanstack/react-query'
import { api } from '#src/lib/api-client.ts'

// Your data (issue 20, decision 040): the organization's export, its deletion, and deleting one's
// account. Restoring is the deletion page's own call (deletion-page.tsx says why).

export const dataKeys = {
	exports: ['data', 'exports'] as const,
	export: (id: string) => ['data', 'exports', id] as const,
	accountDeletion: ['data', 'account-deletion'] as const,
}

/** An export still being built: read again until it is ready or failed. */
export function isExportRunning(item: Pick<OrganizationExport, 'status'>): boolean {
	return item.status === 'queued' || item.status === 'running'
}

export const exportsQuery = queryOptions({
	queryKey: dataKeys.exports,
	queryFn: async ({ signal }): Promise<OrganizationExport[]> =>
		(await api('/dashboard/exports', { schema: organizationExportListSchema, signal })).exports,
})

const pollEveryMs = 2000

/** One export, read every 2 s while it is queued or running. */
export function exportQuery(id: string) {
	return queryOptions({
		queryKey: dataKeys.export(id),
		queryFn: ({ signal }): Promise<OrganizationExport> =>
			api(`/dashboard/exports/${encodeURIComponent(id)}`, { schema: organizationExportSchema, signal }),
		refetchInterval: (query) => (query.state.data && !isExportRunning(query.state.data) ? false : pollEveryMs),
	})
}

export async function startExport(): Promise<OrganizationExport> {
	return api('/dashboard/exports', { json: {}, schema: organizationExportSchema })
}

/** Schedules the organization's deletion; `name` must be its name exactly. */
export async function deleteOrganization(name: string): Promise<DeleteOrganizationResult> {
	return api('/dashboard/organization/delete', { json: { name }, schema: deleteOrganizationResultSchema })
}

export const accountDeletionQuery = queryOptions({
	queryKey: dataKeys.accountDeletion,
	queryFn: ({ signal }): Promise<AccountDeletionPreview> =>
		api('/dashboard/users/delete_account', { schema: accountDeletionPreviewSchema, signal }),
	// The card says itself when the preview could not be read.
	meta: { isErrorShownInPage: true },
	// Read again each time the card shows: a role changed in Members (another owner made) unblocks it.
	staleTime: 0,
})

/**
 * Deletes the caller's account. A wrong password is a 400 naming `password` and never a lost
 * session, so a 401 here is the form's business too, not a reason to leave for /login.
 */
export async function deleteAccount(password: string | undefined): Promise<void> {
	await api('/dashboard/users/delete_account', {
		json: password === undefined ? {} : { password },
		isCredentialCheck: true,
	})
}
