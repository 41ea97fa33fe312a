import type { PortalDatabaseOption } from '@blocksmith/contracts/portals.ts'
import { describe, expect, test } from 'vitest'
import { companiesCandidate, pageFor, pagesFor, suggestedPages } from './first-portal.ts'
import { describeRule, preferredRule } from './rules.ts'
import { sampleDatabases } from './testing.ts'

describe('the first portal suggested from a workspace', () => {
	test('the companies are the database the others relate to, a client-like name first', () => {
		const databases = sampleDatabases()
		expect(companiesCandidate(databases)?.name).toBe('Clients')
		// Without relations there is nothing to share by company.
		const unrelated = databases.map((database) => ({
			...database,
			properties: database.properties.filter((property) => property.type !== 'relation'),
		}))
		expect(companiesCandidate(unrelated)).toBeNull()
		// Time entries related to by two databases, Clients by one: the name like a client's wins.
		const moreToTime = databases.map((database) =>
			database.id === 'db-projects' || database.id === 'db-enquiries'
				? {
						...database,
						properties: database.properties.map((property) =>
							property.type === 'relation' ? { ...property, relationDatabaseId: 'db-time' } : property,
						),
					}
				: database,
		)
		expect(companiesCandidate(moreToTime)?.name).toBe('Clients')
	})

	test('pages: the databases related to the companies, shared company-wide, the usual client pages checked and first', () => {
		const databases = sampleDatabases({ companiesDatabaseId: 'db-clients' })
		const companies = companiesCandidate(databases)
		const suggestions = suggestedPages(databases, companies)
		expect(suggestions.map(({ database, isChecked }) => [database.name, isChecked])).toEqual([
			['Projects', true],
			['Invoices', true],
			['Enquiries', false],
		])
		expect(suggestions.map(({ rule, database }) => describeRule(rule, database))).toEqual([
			"Rows whose Client is the member's company",
			"Rows whose Client is the member's company",
			"Rows whose Client is the member's company",
		])
	})

	test("a page shows what a client may read: not the rule's relation, not the team's people, not the title twice", () => {
		const invoices = sampleDatabases({ companiesDatabaseId: 'db-clients' })[2] as PortalDatabaseOption
		const page = pageFor(invoices, { kind: 'company', property: 'i-client' }, ['invoices'])
		expect(page).toMatchObject({
			id: 'invoices-2',
			title: 'Invoices',
			properties: ['i-amount', 'i-status', 'i-files'],
			filterable: ['i-status'],
			view: 'table',
		})
	})

	test('a database without a company rule takes its best other rule, never everyone', () => {
		const clients = sampleDatabases({ companiesDatabaseId: 'db-clients' })[0] as PortalDatabaseOption
		expect(preferredRule(clients)).toEqual({ kind: 'company_row' })
		const projects = sampleDatabases()[1] as PortalDatabaseOption
		expect(preferredRule(projects)).toEqual({ kind: 'person', property: 'p-owner' })
		const time = sampleDatabases()[4] as PortalDatabaseOption
		expect(preferredRule({ ...time, suggestedRules: [{ kind: 'everyone' }] })).toBeNull()
		expect(pagesFor([{ database: time }])).toEqual([])
	})
})
