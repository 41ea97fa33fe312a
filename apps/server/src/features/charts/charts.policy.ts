import type { Role } from '@blocksmith/contracts/teams.ts'

// Who may do what to a chart. Pure rules: the service applies them after it has found the
// chart in the caller's organization (another organization's chart reads as 404, never 403).
// Members build, change and publish charts (a published chart shows figures, never rows);
// deleting one, which breaks every page it is embedded in, is for owners and admins, as for forms.

export function canDeleteChart(role: Role): boolean {
	return role === 'owner' || role === 'admin'
}

export const chartRefusals = {
	deleteChart: 'Only an owner or admin can delete a chart. Ask one of them to do it.',
} as const
