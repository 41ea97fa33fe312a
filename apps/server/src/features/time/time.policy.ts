// Who may do what to a time entry. Pure rules: the service applies them after it has found the
// entry in the caller's organization (another organization's entry reads as 404, never 403).
// A timer is its person's own: nobody else stops it, not even an owner, since the row says
// that person worked until then.

export function canStopEntry(entry: { userId: string }, userId: string): boolean {
	return entry.userId === userId
}

export const timeRefusals = {
	stopEntry: 'Only the person tracking this time can stop their timer. Ask them to stop it.',
} as const
