import type { PortalPage, PortalRule } from '@blocksmith/contracts/portals.ts'
import type { Property, PropertyType } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, type SQL, sql } from 'drizzle-orm'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import type { PortalMemberContext } from './portals.deps.ts'

// A page's rule as one SQL condition on `workspace_rows` (decision 038). Every query a portal
// member's request makes goes through `grantedRows`: there is no other way to read a row here.

/** What a rule's property may be: anything else (the property retyped since the setup) grants nothing. */
const ruleTypes: Record<Exclude<PortalRule['kind'], 'company_row' | 'everyone'>, readonly PropertyType[]> = {
	email: ['email', 'rich_text', 'title'],
	person: ['people', 'created_by', 'last_edited_by'],
	member: ['relation'],
	company: ['relation'],
}

/** Who the rule is matched against: the member's row ids and e-mail. */
export type RuleMember = Pick<PortalMemberContext, 'email' | 'companyRowId' | 'memberRowId' | 'personRef'>

/**
 * `values @> {"prop": ["id"]}`: the row's list property holds the id. Written as containment of
 * a constant so the GIN (jsonb_path_ops) index on `values` answers it; the property id and the
 * row id are bound parameters.
 */
function contains(propertyId: string, id: string): SQL {
	return sql`${workspaceRows.values} @> jsonb_build_object(${propertyId}::text, jsonb_build_array(${id}::text))`
}

/**
 * The rule alone, without the organization and database: `false` when the member lacks what the
 * rule needs; `null` when the rule cannot apply to the database as it is now (its property gone or
 * retyped) — the page is then unavailable, never open to all.
 */
export function ruleSql(rule: PortalRule, member: RuleMember, properties: Property[]): SQL | null {
	if (rule.kind === 'everyone') {
		return sql`true`
	}
	if (rule.kind === 'company_row') {
		return member.companyRowId ? eq(workspaceRows.externalId, member.companyRowId) : sql`false`
	}
	const property = properties.find((candidate) => candidate.id === rule.property)
	if (!property || !ruleTypes[rule.kind].includes(property.type)) {
		return null
	}
	switch (rule.kind) {
		case 'email': {
			const email = member.email.trim().toLowerCase()
			if (!email) {
				return sql`false`
			}
			return property.type === 'title'
				? sql`lower(${workspaceRows.title}) = ${email}`
				: sql`lower(${workspaceRows.values} ->> ${property.id}::text) = ${email}`
		}
		case 'person':
			return member.personRef ? contains(property.id, member.personRef) : sql`false`
		case 'member':
			return member.memberRowId ? contains(property.id, member.memberRowId) : sql`false`
		case 'company':
			return member.companyRowId ? contains(property.id, member.companyRowId) : sql`false`
	}
}

/**
 * The rows of `page` the member may see: the portal's organization, the page's database, and the
 * rule. Null when the page cannot be served (see `ruleSql`).
 */
export function grantedRows(
	page: Pick<PortalPage, 'databaseId' | 'rule'>,
	member: RuleMember & Pick<PortalMemberContext, 'orgId'>,
	properties: Property[],
): SQL | null {
	const rule = ruleSql(page.rule, member, properties)
	if (!rule) {
		return null
	}
	return and(eq(workspaceRows.organizationId, member.orgId), eq(workspaceRows.databaseId, page.databaseId), rule) as SQL
}
