import type { PortalDatabaseOption, PortalPage, PortalRule } from '@blocksmith/contracts/portals.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { pageIdFor } from './portal-form.ts'
import { preferredRule } from './rules.ts'

// The first portal, suggested from what the workspace already has, so that a new user's first
// click works without reading anything: the clients database (the one the others relate to) as
// the companies, and each database related to it as a page shared company-wide. On the sample
// workspace that is Clients, with Projects and Invoices checked (Enquiries offered, unchecked).

const companyName = /\b(clients?|customers?|compan(y|ies)|accounts?|organi[sz]ations?)\b/i
/** What a client looks at in a portal, in the order of its menu. */
const usualPages = [/\bprojects?\b/i, /\btasks?\b/i, /\bdeliverables?\b/i, /\binvoices?\b/i]
const usualRank = (name: string) => {
	const rank = usualPages.findIndex((pattern) => pattern.test(name))
	return rank < 0 ? usualPages.length : rank
}
/** What a client page shows first: never who works on it inside the team, nor internal bookkeeping. */
const hiddenTypes = new Set<Property['type']>([
	'title',
	'people',
	'created_by',
	'last_edited_by',
	'button',
	'verification',
	'unsupported',
])

/** The database most others relate to, a name like Clients first; null when none is related to. */
export function companiesCandidate(databases: PortalDatabaseOption[]): PortalDatabaseOption | null {
	const score = (database: PortalDatabaseOption) =>
		databases.filter((other) =>
			other.properties.some((property) => property.type === 'relation' && property.relationDatabaseId === database.id),
		).length
	const ranked = databases
		.map((database) => ({ database, related: score(database), named: companyName.test(database.name) ? 1 : 0 }))
		.filter((entry) => entry.related > 0)
		.sort((a, b) => b.named - a.named || b.related - a.related || a.database.name.localeCompare(b.database.name))
	return ranked[0]?.database ?? null
}

/** A new page for a database, with its properties chosen and the given rule. */
export function pageFor(database: PortalDatabaseOption, rule: PortalRule, taken: readonly string[]): PortalPage {
	const ruleProperty = 'property' in rule ? rule.property : null
	const properties = database.properties
		.filter((property) => !hiddenTypes.has(property.type) && property.id !== ruleProperty)
		.slice(0, 6)
	return {
		id: pageIdFor(database.name, taken),
		title: database.name,
		databaseId: database.id,
		properties: properties.map((property) => property.id),
		view: 'table',
		groupBy: null,
		coverProperty: null,
		sort: [],
		filterable: properties
			.filter((property) => property.type === 'select' || property.type === 'status')
			.map((property) => property.id),
		isSearchable: true,
		rule,
		showContent: true,
	}
}

export type PageSuggestion = { database: PortalDatabaseOption; rule: PortalRule; isChecked: boolean }

/** Databases that share by the member's company, the usual client pages checked. */
export function suggestedPages(
	databases: PortalDatabaseOption[],
	companies: PortalDatabaseOption | null,
): PageSuggestion[] {
	const found = databases
		.filter((database) => database.id !== companies?.id)
		.flatMap((database) => {
			const rule = database.suggestedRules.find((candidate) => candidate.kind === 'company')
			return rule ? [{ database, rule }] : []
		})
	const hasUsual = found.some(({ database }) => usualRank(database.name) < usualPages.length)
	return found
		.map(({ database, rule }) => ({
			database,
			rule,
			isChecked: hasUsual ? usualRank(database.name) < usualPages.length : true,
		}))
		.sort(
			(a, b) =>
				usualRank(a.database.name) - usualRank(b.database.name) || a.database.name.localeCompare(b.database.name),
		)
}

/** The databases' pages, ids unique; each database's rule as suggested, else its preferred one. */
export function pagesFor(suggestions: { database: PortalDatabaseOption; rule?: PortalRule }[]): PortalPage[] {
	const pages: PortalPage[] = []
	for (const { database, rule } of suggestions) {
		const chosen = rule ?? preferredRule(database)
		if (chosen) {
			pages.push(
				pageFor(
					database,
					chosen,
					pages.map((page) => page.id),
				),
			)
		}
	}
	return pages
}
