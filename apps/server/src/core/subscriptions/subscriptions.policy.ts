import type { Role } from '@blocksmith/contracts/teams.ts'

/** Owners and admins change billing; members see the plan and its usage. */
export function canManageBilling(role: Role): boolean {
	return role === 'owner' || role === 'admin'
}
