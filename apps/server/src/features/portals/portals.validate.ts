import type { FieldError } from '@blocksmith/contracts/errors.ts'
import type { PortalPage, PortalSetup } from '@blocksmith/contracts/portals.ts'
import type { Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, eq } from 'drizzle-orm'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import type { Db } from '#src/db/client.ts'
import { chartsOfOrganization } from '#src/features/charts/charts.public.ts'
import { formsOfOrganization } from '#src/features/forms/forms.public.ts'
import { AppError } from '#src/lib/errors.ts'
import { workspaceDatabases, workspaces } from '#src/workspaces/workspaces.schema.ts'
import { isReservedSlug } from './portals.policy.ts'

// A portal's setup checked against what it points at: the organization's databases of the
// portal's tool (their properties as the mirror last read them), its forms, charts and logo.
// Every problem is a field error naming where it is (`pages.0.rule.property`), all at once, so
// the editor can mark each. The checks are pure (`setupErrors`); `validateSetup` reads the facts.

export type DatabaseFacts = {
	id: string
	workspaceId: string
	tool: WorkspaceTool
	name: string
	properties: Property[]
}

export type SetupFacts = {
	/** The organization's databases of the portal's tool. */
	databases: Map<string, DatabaseFacts>
	/** The organization's databases of any tool (a form may write to either). */
	anyDatabases: Map<string, DatabaseFacts>
	forms: Map<string, { databaseId: string | null }>
	charts: Map<string, { databaseId: string | null; published: boolean; groupedBy: string[] }>
	logo: { contentType: string; status: string; scope: string | null } | null
}

/** Portal logos are served as they were uploaded: raster images only (an SVG could carry script). */
export const portalLogoTypes = ['image/png', 'image/jpeg', 'image/webp', 'image/gif']

/** Sort keys that are no property: the row's own times. */
const rowTimeKeys = new Set(['created_time', 'last_edited_time'])

const emailRuleTypes = new Set(['email', 'rich_text', 'title'])
const personRuleTypes = new Set(['people', 'created_by', 'last_edited_by'])
const groupByTypes = new Set(['select', 'status'])

/** Whether a property can hold an e-mail to compare with the member's (a formula only when it is text). */
function holdsText(property: Property): boolean {
	if (emailRuleTypes.has(property.type)) {
		return true
	}
	// Notion does not say what a formula returns; a known non-text one can never match.
	return property.type === 'formula' && (property.resultType === undefined || property.resultType === 'string')
}

function relationTo(property: Property, databaseId: string | null): boolean {
	return databaseId !== null && property.type === 'relation' && property.relationDatabaseId === databaseId
}

function ruleErrors(setup: PortalSetup, page: PortalPage, at: string, byId: Map<string, Property>): FieldError[] {
	const { rule } = page
	const { companiesDatabaseId, membersDatabaseId } = setup.access
	if (rule.kind === 'everyone') {
		return []
	}
	if (rule.kind === 'company_row') {
		return page.databaseId === companiesDatabaseId
			? []
			: [{ field: `${at}.rule.kind`, message: 'Only a page on the companies database can show the company itself.' }]
	}
	if (rule.kind === 'member' && !membersDatabaseId) {
		return [{ field: `${at}.rule.kind`, message: 'Choose the members database first (under access).' }]
	}
	if (rule.kind === 'company' && !companiesDatabaseId) {
		return [{ field: `${at}.rule.kind`, message: 'Choose the companies database first (under access).' }]
	}
	const property = byId.get(rule.property)
	const field = `${at}.rule.property`
	if (!property) {
		return [{ field, message: 'This database has no such property.' }]
	}
	const fits = {
		email: () => holdsText(property),
		person: () => personRuleTypes.has(property.type),
		member: () => relationTo(property, membersDatabaseId),
		company: () => relationTo(property, companiesDatabaseId),
	}[rule.kind]()
	if (fits) {
		return []
	}
	const message = {
		email: 'Choose an e-mail or text property.',
		person: 'Choose a people property (or created by / last edited by).',
		member: 'Choose a relation to the members database.',
		company: 'Choose a relation to the companies database.',
	}[rule.kind]
	return [{ field, message }]
}

function pageErrors(setup: PortalSetup, page: PortalPage, index: number, facts: SetupFacts): FieldError[] {
	const at = `pages.${index}`
	const database = facts.databases.get(page.databaseId)
	if (!database) {
		return [{ field: `${at}.databaseId`, message: "Choose a database of this organization's workspaces." }]
	}
	const byId = new Map(database.properties.map((property) => [property.id, property]))
	const errors: FieldError[] = []
	page.properties.forEach((id, i) => {
		if (!byId.has(id)) {
			errors.push({ field: `${at}.properties.${i}`, message: 'This database has no such property.' })
		}
	})
	if (new Set(page.properties).size !== page.properties.length) {
		errors.push({ field: `${at}.properties`, message: 'Each property is shown once.' })
	}
	errors.push(...ruleErrors(setup, page, at, byId))
	const groupBy = page.groupBy === null ? undefined : byId.get(page.groupBy)
	if (page.view === 'board' && page.groupBy === null) {
		errors.push({ field: `${at}.groupBy`, message: 'A board needs a select or status property to group by.' })
	} else if (page.groupBy !== null && !(groupBy && groupByTypes.has(groupBy.type))) {
		errors.push({ field: `${at}.groupBy`, message: 'Group by a select or status property.' })
	}
	if (page.coverProperty !== null && byId.get(page.coverProperty)?.type !== 'files') {
		errors.push({ field: `${at}.coverProperty`, message: 'Choose a files property for the cover.' })
	}
	page.sort.forEach((sort, i) => {
		if (!byId.has(sort.property) && !rowTimeKeys.has(sort.property)) {
			errors.push({ field: `${at}.sort.${i}.property`, message: 'This database has no such property.' })
		}
	})
	const shown = new Set(page.properties)
	page.filterable.forEach((id, i) => {
		if (!shown.has(id)) {
			errors.push({ field: `${at}.filterable.${i}`, message: 'Visitors can filter only by properties the page shows.' })
		}
	})
	return errors
}

function accessErrors(setup: PortalSetup, facts: SetupFacts): FieldError[] {
	const { companiesDatabaseId, membersDatabaseId, membersEmailProperty } = setup.access
	const errors: FieldError[] = []
	const ours = "Choose a database of this organization's workspaces."
	if (companiesDatabaseId !== null && !facts.databases.has(companiesDatabaseId)) {
		errors.push({ field: 'access.companiesDatabaseId', message: ours })
	}
	if (membersDatabaseId === null) {
		if (membersEmailProperty !== null) {
			errors.push({ field: 'access.membersEmailProperty', message: 'Choose the members database first.' })
		}
		return errors
	}
	const members = facts.databases.get(membersDatabaseId)
	if (!members) {
		errors.push({ field: 'access.membersDatabaseId', message: ours })
		return errors
	}
	const property = members.properties.find((candidate) => candidate.id === membersEmailProperty)
	if (!property || !holdsText(property)) {
		errors.push({
			field: 'access.membersEmailProperty',
			message: "Choose the members database's e-mail property: members are found in it by their e-mail.",
		})
	}
	return errors
}

function formErrors(setup: PortalSetup, facts: SetupFacts): FieldError[] {
	const errors: FieldError[] = []
	const { companiesDatabaseId, membersDatabaseId } = setup.access
	setup.forms.forEach((entry, i) => {
		const form = facts.forms.get(entry.formId)
		if (!form) {
			errors.push({ field: `forms.${i}.formId`, message: 'Choose a form of this organization.' })
			return
		}
		if (entry.linkProperty === null) {
			return
		}
		const database = form.databaseId ? facts.anyDatabases.get(form.databaseId) : undefined
		const property = database?.properties.find((candidate) => candidate.id === entry.linkProperty)
		if (!property || !(relationTo(property, companiesDatabaseId) || relationTo(property, membersDatabaseId))) {
			errors.push({
				field: `forms.${i}.linkProperty`,
				message: "Choose a relation of the form's database to the companies or members database.",
			})
		}
	})
	if (new Set(setup.forms.map((entry) => entry.formId)).size !== setup.forms.length) {
		errors.push({ field: 'forms', message: 'Each form is offered once.' })
	}
	return errors
}

function chartErrors(setup: PortalSetup, facts: SetupFacts): FieldError[] {
	const errors: FieldError[] = []
	const pages = new Map(setup.pages.map((page) => [page.id, page]))
	setup.charts.forEach((entry, i) => {
		const chart = facts.charts.get(entry.chartId)
		if (!chart) {
			errors.push({ field: `charts.${i}.chartId`, message: 'Choose a chart of this organization.' })
			return
		}
		if (!chart.published) {
			errors.push({ field: `charts.${i}.chartId`, message: 'Publish the chart first.' })
		}
		// Grouped by a relation, its labels are linked rows' titles: another client's, for a row linked to both.
		const properties = chart.databaseId ? (facts.databases.get(chart.databaseId)?.properties ?? []) : []
		const linked = properties.filter(
			(p) => (p.type === 'relation' || p.type === 'rollup') && chart.groupedBy.includes(p.id),
		)
		if (linked.length > 0) {
			errors.push({
				field: `charts.${i}.chartId`,
				message: `This chart groups by ${linked[0]?.name}, whose labels are linked rows' titles; a portal cannot show it. Group it by another property.`,
			})
		}
		const page = pages.get(entry.pageId)
		if (!page) {
			errors.push({ field: `charts.${i}.pageId`, message: 'Choose a page of this portal.' })
		} else if (page.databaseId !== chart.databaseId) {
			// Its rows are filtered by the page's rule: that rule must be about the chart's rows.
			errors.push({ field: `charts.${i}.pageId`, message: "Choose a page on the chart's database." })
		}
	})
	return errors
}

/** Every problem of a setup, none when it can be saved. Slug and domain uniqueness are the caller's (409). */
export function setupErrors(setup: PortalSetup, facts: SetupFacts): FieldError[] {
	const errors: FieldError[] = []
	if (isReservedSlug(setup.slug)) {
		errors.push({ field: 'slug', message: 'This address is reserved. Choose another.' })
	}
	errors.push(...accessErrors(setup, facts))
	const seen = new Set<string>()
	setup.pages.forEach((page, i) => {
		if (seen.has(page.id)) {
			errors.push({ field: `pages.${i}.id`, message: 'Another page has this id.' })
		}
		seen.add(page.id)
		errors.push(...pageErrors(setup, page, i, facts))
	})
	errors.push(...formErrors(setup, facts), ...chartErrors(setup, facts))
	if (setup.showInvoices && setup.access.companiesDatabaseId === null) {
		errors.push({
			field: 'showInvoices',
			message: "Invoices are shown by the member's company: choose the companies database.",
		})
	}
	const { logoBlobId } = setup.branding
	if (logoBlobId !== null) {
		const { logo } = facts
		// A visitor's upload to a form (scoped) is not the team's to use.
		if (logo?.status !== 'uploaded' || logo.scope !== null) {
			errors.push({ field: 'branding.logoBlobId', message: 'Upload the logo first.' })
		} else if (!portalLogoTypes.includes(logo.contentType)) {
			errors.push({ field: 'branding.logoBlobId', message: 'Use a PNG, JPEG, WebP or GIF image.' })
		}
	}
	return errors
}

/** The organization's databases (of `tool`, or of any tool), with their properties. */
export async function databasesOf(db: Db, orgId: string, tool?: WorkspaceTool): Promise<Map<string, DatabaseFacts>> {
	const conditions = [eq(workspaceDatabases.organizationId, orgId)]
	if (tool) {
		conditions.push(eq(workspaces.tool, tool))
	}
	const rows = await db
		.select({
			id: workspaceDatabases.id,
			workspaceId: workspaceDatabases.workspaceId,
			tool: workspaces.tool,
			name: workspaceDatabases.name,
			properties: workspaceDatabases.properties,
		})
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(and(...conditions))
	return new Map(rows.map((row) => [row.id, row]))
}

async function loadFacts(db: Db, orgId: string, tool: WorkspaceTool, setup: PortalSetup): Promise<SetupFacts> {
	const anyDatabases = await databasesOf(db, orgId)
	const toolDatabases = new Map([...anyDatabases].filter(([, database]) => database.tool === tool))
	const [forms, charts] = await Promise.all([
		formsOfOrganization(
			db,
			orgId,
			setup.forms.map((entry) => entry.formId),
		),
		chartsOfOrganization(
			db,
			orgId,
			setup.charts.map((entry) => entry.chartId),
		),
	])
	const { logoBlobId } = setup.branding
	const [logo] = logoBlobId
		? await db
				.select({ contentType: blobs.contentType, status: blobs.status, scope: blobs.scope })
				.from(blobs)
				.where(and(eq(blobs.id, logoBlobId), eq(blobs.organizationId, orgId)))
		: []
	return {
		databases: toolDatabases,
		anyDatabases,
		forms: new Map(forms.map((form) => [form.id, form])),
		charts: new Map(charts.map((chart) => [chart.id, chart])),
		logo: logo ?? null,
	}
}

/** 400 VALIDATION_FAILED listing every problem of the setup, against the organization's own objects. */
export async function validateSetup(db: Db, orgId: string, tool: WorkspaceTool, setup: PortalSetup): Promise<void> {
	const errors = setupErrors(setup, await loadFacts(db, orgId, tool, setup))
	if (errors.length > 0) {
		throw new AppError('VALIDATION_FAILED', { errors })
	}
}
