import type { PortalDatabaseOption, PortalRule } from '@blocksmith/contracts/portals.ts'

// A page's rule said in plain words, and as one key (`company:prop-id`). The
// rules offered are the server's `suggestedRules` for the database (what its properties and the
// portal's access settings allow); `everyone` is never among the defaults.

export function ruleKey(rule: PortalRule): string {
	return 'property' in rule ? `${rule.kind}:${rule.property}` : rule.kind
}

/** A property's name by its id (or the reference itself when the database does not have it any more). */
export function propertyName(database: Pick<PortalDatabaseOption, 'properties'> | undefined, ref: string): string {
	return database?.properties.find((property) => property.id === ref || property.name === ref)?.name ?? ref
}

/** "Rows whose Client is the member's company". */
export function describeRule(rule: PortalRule, database: Pick<PortalDatabaseOption, 'properties'> | undefined): string {
	switch (rule.kind) {
		case 'company':
			return `Rows whose ${propertyName(database, rule.property)} is the member's company`
		case 'member':
			return `Rows whose ${propertyName(database, rule.property)} is the member's own contact row`
		case 'email':
			return `Rows whose ${propertyName(database, rule.property)} is the member's e-mail address`
		case 'person':
			return `Rows where the member is one of the ${propertyName(database, rule.property)}`
		case 'company_row':
			return "The member's own company (this database is the companies database)"
		case 'everyone':
			return 'Every row, to every member'
	}
}

/** The rule offered first: a company-wide one when there is one (several contacts of one client see the same rows). */
export function preferredRule(database: Pick<PortalDatabaseOption, 'suggestedRules'>): PortalRule | null {
	const order: PortalRule['kind'][] = ['company', 'company_row', 'member', 'email', 'person']
	for (const kind of order) {
		const found = database.suggestedRules.find((rule) => rule.kind === kind)
		if (found) {
			return found
		}
	}
	return null
}
