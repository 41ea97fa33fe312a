import type { Role } from '@blocksmith/contracts/teams.ts'

// Who may do what with invoice settings. Pure rules: the service applies them after it has found
// the profile in the caller's organization (another organization's reads as 404, never 403).

/** A profile is the company's legal identity on every invoice: owners and admins change it, members read it. */
export function canChangeSettings(role: Role): boolean {
	return role === 'owner' || role === 'admin'
}

export const invoiceRefusals = {
	changeSettings: 'Only an owner or admin can change invoice settings. Ask one of them to do it.',
	deleteNumbered:
		'Documents were numbered from this profile, so it is kept: their numbers must stay unique. Make another profile the default instead.',
} as const
