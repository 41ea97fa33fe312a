import type { Role } from '@blocksmith/contracts/teams.ts'
import { useQuery } from '@tanstack/react-query'
import { orgDetailsQuery } from '../api/teams.ts'

/**
 * Owners and admins delete forms, workspaces and databases and manage webhooks; members build
 * and edit the rest. The server holds the same rule (forms.policy.ts, workspaces.policy.ts);
 * the screens follow it so that a member never meets a refusal by clicking.
 */
function isOwnerOrAdmin(role: Role | undefined): boolean {
	return role === 'owner' || role === 'admin'
}

/**
 * Whether the caller is an owner or admin of the organization they work in: undefined while the
 * organization's details load, false if they cannot be read (the server decides anyway).
 */
export function useIsOwnerOrAdmin(): boolean | undefined {
	const org = useQuery(orgDetailsQuery)
	return org.isPending ? undefined : isOwnerOrAdmin(org.data?.role)
}
