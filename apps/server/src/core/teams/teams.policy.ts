import type { Role } from '@blocksmith/contracts/teams.ts'

export function canManageMembers(role: Role): boolean {
	return role === 'owner' || role === 'admin'
}

/** Owners may remove anyone; admins may remove admins and members; members no one. */
export function canRemoveMember(actor: Role, target: Role): boolean {
	if (actor === 'owner') {
		return true
	}
	return actor === 'admin' && target !== 'owner'
}

/** Only an owner may make someone an owner or change an owner's role. */
export function canAssignRole(actor: Role, currentRole: Role | null, newRole: Role): boolean {
	if (!canManageMembers(actor)) {
		return false
	}
	if (newRole === 'owner' || currentRole === 'owner') {
		return actor === 'owner'
	}
	return true
}
