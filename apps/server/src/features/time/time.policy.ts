import type { Role } from '@blocksmith/contracts/teams.ts'

// Who may do what to a time entry. Pure rules: the service applies them after it has found the
// entry in the caller's organization (another organization's entry reads as 404, never 403).
// An entry is its person's own: nobody else stops or edits it, not even an owner, since the row
// says that person worked then. An entry whose person deleted their account (user null) is
// nobody's to change: it stays as they left it.

export function canChangeEntry(entry: { userId: string | null }, userId: string): boolean {
	return entry.userId === userId
}

/** Rates are what the team charges its clients: owners and admins set them, members see them. */
export function canChangeRates(role: Role): boolean {
	return role === 'owner' || role === 'admin'
}

export const timeRefusals = {
	changeEntry: 'Only the person who tracked this time can stop or change it. Ask them to do it.',
} as const
