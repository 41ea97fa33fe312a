import type { Property } from '@blocksmith/contracts/workspaces.ts'
import type { SQL } from 'drizzle-orm'
import { PgDialect } from 'drizzle-orm/pg-core'
import { describe, expect, it } from 'vitest'
import { grantedRows, ruleSql } from './portals.rules.ts'

const dialect = new PgDialect()
const render = (condition: SQL | null) => (condition ? dialect.sqlToQuery(condition) : null)

const properties: Property[] = [
	{ id: 'title', name: 'Name', type: 'title' },
	{ id: 'client', name: 'Client', type: 'relation', relationDatabaseId: 'clients-db' },
	{ id: 'contact', name: 'Contact', type: 'relation', relationDatabaseId: 'contacts-db' },
	{ id: 'owner', name: 'Owner', type: 'people' },
	{ id: 'mail', name: 'Email', type: 'email' },
	{ id: 'budget', name: 'Budget', type: 'number' },
]
const member = {
	email: 'Ana@Acme.example',
	companyRowId: 'company-1',
	memberRowId: 'contact-7',
	personRef: 'user-3',
}
const nobody = { email: 'x@y.example', companyRowId: null, memberRowId: null, personRef: null }

describe('portal rules as SQL', () => {
	it('company: containment of the member’s company row in the relation, every value bound', () => {
		const query = render(ruleSql({ kind: 'company', property: 'client' }, member, properties))
		expect(query?.sql).toBe(`"workspace_rows"."values" @> jsonb_build_object($1::text, jsonb_build_array($2::text))`)
		expect(query?.params).toEqual(['client', 'company-1'])
	})

	it('member: containment of the member’s own row', () => {
		const query = render(ruleSql({ kind: 'member', property: 'contact' }, member, properties))
		expect(query?.sql).toContain('@> jsonb_build_object(')
		expect(query?.params).toEqual(['contact', 'contact-7'])
	})

	it('person: containment of the member’s person in the people property', () => {
		const query = render(ruleSql({ kind: 'person', property: 'owner' }, member, properties))
		expect(query?.sql).toContain('@> jsonb_build_object(')
		expect(query?.params).toEqual(['owner', 'user-3'])
	})

	it('email: the property lower-cased equals the member’s e-mail lower-cased', () => {
		const query = render(ruleSql({ kind: 'email', property: 'mail' }, member, properties))
		expect(query?.sql).toBe(`lower("workspace_rows"."values" ->> $1::text) = $2`)
		expect(query?.params).toEqual(['mail', 'ana@acme.example'])
		const onTitle = render(ruleSql({ kind: 'email', property: 'title' }, member, properties))
		expect(onTitle?.sql).toBe(`lower("workspace_rows"."title") = $1`)
	})

	it('company_row: the row is the member’s company; everyone: true', () => {
		const query = render(ruleSql({ kind: 'company_row' }, member, properties))
		expect(query?.sql).toBe(`"workspace_rows"."external_id" = $1`)
		expect(query?.params).toEqual(['company-1'])
		expect(render(ruleSql({ kind: 'everyone' }, member, properties))?.sql).toBe('true')
	})

	it('a member without what the rule needs matches nothing', () => {
		for (const rule of [
			{ kind: 'company', property: 'client' },
			{ kind: 'member', property: 'contact' },
			{ kind: 'person', property: 'owner' },
			{ kind: 'company_row' },
		] as const) {
			expect(render(ruleSql(rule, nobody, properties))?.sql).toBe('false')
		}
	})

	it('a rule whose property is gone or of another type cannot apply (null), never true', () => {
		expect(ruleSql({ kind: 'company', property: 'gone' }, member, properties)).toBeNull()
		expect(ruleSql({ kind: 'company', property: 'budget' }, member, properties)).toBeNull()
		expect(ruleSql({ kind: 'email', property: 'owner' }, member, properties)).toBeNull()
		expect(ruleSql({ kind: 'person', property: 'client' }, member, properties)).toBeNull()
		expect(
			grantedRows({ databaseId: 'db', rule: { kind: 'member', property: 'gone' } }, { ...member, orgId: 'o' }, []),
		).toBeNull()
	})

	it('always with the organization and the page’s database', () => {
		const query = render(
			grantedRows(
				{ databaseId: 'projects-db', rule: { kind: 'company', property: 'client' } },
				{ ...member, orgId: 'org-1' },
				properties,
			),
		)
		expect(query?.sql).toBe(
			`("workspace_rows"."organization_id" = $1 and "workspace_rows"."database_id" = $2 and "workspace_rows"."values" @> jsonb_build_object($3::text, jsonb_build_array($4::text)))`,
		)
		expect(query?.params).toEqual(['org-1', 'projects-db', 'client', 'company-1'])
	})
})
