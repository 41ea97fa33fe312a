import type { Role } from '@blocksmith/contracts/teams.ts'

// Who may do what with a portal's setup. Pure rules: the service applies them after it has found
// the portal in the caller's organization (another organization's reads as 404, never 403).

/** A portal is what the team's clients see: owners and admins change it, members read it. */
export function canChangePortals(role: Role): boolean {
	return role === 'owner' || role === 'admin'
}

/**
 * Slugs that read like the product's own pages rather than a client's portal (a link to
 * `/p/admin` in an e-mail would look like ours). Lowercase, as slugs are.
 */
const reservedPortalSlugs: ReadonlySet<string> = new Set([
	'admin',
	'api',
	'app',
	'assets',
	'auth',
	'billing',
	'blocksmith',
	'dashboard',
	'help',
	'login',
	'logout',
	'portal',
	'portals',
	'settings',
	'sign-in',
	'sign-up',
	'signin',
	'signup',
	'static',
	'support',
	'www',
])

export function isReservedSlug(slug: string): boolean {
	return reservedPortalSlugs.has(slug.toLowerCase())
}

export const portalRefusals = {
	change: 'Only an owner or admin can change portals. Ask one of them to do it.',
} as const
