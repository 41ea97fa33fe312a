import type { Role } from '@blocksmith/contracts/teams.ts'
import type { PropertyType } from '@blocksmith/contracts/workspaces.ts'

// Who may do what to a form, and what a new form asks by default. Pure rules: the service
// applies them after it has found the form in the caller's organization (so another
// organization's form reads as 404, never 403).

export function canDeleteForm(role: Role): boolean {
	return role === 'owner' || role === 'admin'
}

/** Listing included: a webhook carries its signing secret, and its URL is often a secret too. */
export function canManageWebhooks(role: Role): boolean {
	return role === 'owner' || role === 'admin'
}

export const formRefusals = {
	deleteForm: 'Only an owner or admin can delete a form. Ask one of them to do it.',
	manageWebhooks: 'Only an owner or admin can see and change webhooks. Ask one of them to do it.',
} as const

/**
 * The plain inputs a new form asks for. Relation, people and status stay out: a relation or
 * people field shows every visitor the related rows' titles or the team's names, and a status
 * is the team's own bookkeeping. The owner can still add them, knowingly.
 */
const askedByDefault: ReadonlySet<PropertyType> = new Set<PropertyType>([
	'title',
	'rich_text',
	'number',
	'select',
	'multi_select',
	'date',
	'checkbox',
	'email',
	'phone_number',
	'url',
	'files',
])

export function isAskedByDefault(type: PropertyType): boolean {
	return askedByDefault.has(type)
}
