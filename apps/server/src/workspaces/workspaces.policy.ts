import type { Role } from '@blocksmith/contracts/teams.ts'

// Who may take the actions on workspaces that lose data for the whole team. Pure rules: the
// service applies them after it has found the object in the caller's organization (so another
// organization's workspace or database reads as 404, never 403).

/** Disconnecting a Notion workspace, or deleting a built-in (local) one, with its databases and rows. */
export function canRemoveWorkspace(role: Role): boolean {
	return role === 'owner' || role === 'admin'
}

/** Deleting a local database and its rows. */
export function canDeleteDatabase(role: Role): boolean {
	return role === 'owner' || role === 'admin'
}

export const workspaceRefusals = {
	removeWorkspace: 'Only an owner or admin can disconnect or delete a workspace. Ask one of them to do it.',
	deleteDatabase: 'Only an owner or admin can delete a database. Ask one of them to do it.',
} as const
