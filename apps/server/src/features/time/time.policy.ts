// Who may do what to a time entry. Pure rules: the service applies them after it has found the
// entry in the caller's organization (another organization's entry reads as 404, never 403).
// An entry is its person's own: nobody else stops or edits it, not even an owner, since the row
// says that person worked then.

export function canChangeEntry(entry: { userId: string }, userId: string): boolean {
	return entry.userId === userId
}

export const timeRefusals = {
	changeEntry: 'Only the person who tracked this time can stop or change it. Ask them to do it.',
} as const
