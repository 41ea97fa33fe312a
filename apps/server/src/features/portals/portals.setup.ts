// A portal's setup under /dashboard/{tool}_portal/setup: read by every team member, changed by
// owners and admins. Everything a setup names is checked against the organization's own
// databases, forms, charts and uploads (portals.validate.ts); another organization's portal reads
// as 404. Saving also decides which databases mirror their rows' content (pages that show it)
// and takes a snapshot of the people's names shown on the pages (never their e-mails).

import { randomUUID } from 'node:crypto'
import {
	type Portal,
	type PortalDatabaseOption,
	type PortalRule,
	type PortalSetup,
	type PortalSetupResponse,
	portalAccessSchema,
	portalBrandingSchema,
	portalPageSchema,
} from '@blocksmith/contracts/portals.ts'
import type { Role } from '@blocksmith/contracts/teams.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, asc, count, eq, inArray, ne } from 'drizzle-orm'
import { organizations } from '#src/core/auth/auth.schema.ts'
import { planById } from '#src/core/subscriptions/subscriptions.plans.ts'
import type { Db } from '#src/db/client.ts'
import { AppError, found } from '#src/lib/errors.ts'
import { workspaceDatabases, workspaces } from '#src/workspaces/workspaces.schema.ts'
import type { PortalRecord, PortalsDeps } from './portals.deps.ts'
import { queueContentReads, takePeopleSnapshot, updateMirrorContent } from './portals.effects.ts'
import { canChangePortals, portalRefusals } from './portals.policy.ts'
import { portalMembers, portals } from './portals.schema.ts'
import { validateSetup } from './portals.validate.ts'

export type PortalsCtx = PortalsDeps & { orgId: string; userId: string; role: Role }

// ---- reading ------------------------------------------------------------------------------

/** Where members open the portal: its custom domain when set, else `/p/{slug}` here. */
function portalUrl(deps: Pick<PortalsDeps, 'publicUrl'>, portal: Pick<PortalRecord, 'slug' | 'customDomain'>) {
	return portal.customDomain ? `https://${portal.customDomain}` : `${deps.publicUrl}/p/${portal.slug}`
}

/**
 * The portal's logo, served by the brand routes. The blob's id is in the query so a new logo is a
 * new address (the logo is cached for a while).
 */
export function portalLogoUrl(deps: Pick<PortalsDeps, 'publicUrl'>, portal: Pick<PortalRecord, 'slug' | 'branding'>) {
	const blobId = portal.branding.logoBlobId
	return blobId ? `${deps.publicUrl}/api/portal/${portal.slug}/logo?v=${encodeURIComponent(blobId)}` : null
}

async function toPortals(deps: PortalsDeps, records: PortalRecord[]): Promise<Portal[]> {
	const ids = records.map((record) => record.id)
	const counts =
		ids.length === 0
			? []
			: await deps.db
					.select({ portalId: portalMembers.portalId, n: count() })
					.from(portalMembers)
					.where(inArray(portalMembers.portalId, ids))
					.groupBy(portalMembers.portalId)
	const members = new Map(counts.map((row) => [row.portalId, row.n]))
	return records.map((record) => ({
		id: record.id,
		tool: record.tool,
		name: record.name,
		slug: record.slug,
		customDomain: record.customDomain,
		isEnabled: record.isEnabled,
		// Defaults filled on read, so portals saved earlier gain later settings.
		branding: portalBrandingSchema.parse(record.branding),
		access: portalAccessSchema.parse(record.access),
		pages: record.pages.map((page) => portalPageSchema.parse(page)),
		forms: record.forms,
		showInvoices: record.showInvoices,
		charts: record.charts,
		url: portalUrl(deps, record),
		logoUrl: portalLogoUrl(deps, record),
		membersCount: members.get(record.id) ?? 0,
		createdAt: record.createdAt.toISOString(),
		updatedAt: record.updatedAt.toISOString(),
	}))
}

async function toPortal(deps: PortalsDeps, record: PortalRecord): Promise<Portal> {
	const [portal] = await toPortals(deps, [record])
	return found(portal)
}

/** The organization's portal on `tool`, or 404 (another organization's too). */
export async function getPortalRecord(
	ctx: Pick<PortalsCtx, 'db' | 'orgId'>,
	tool: WorkspaceTool,
	id: string,
): Promise<PortalRecord> {
	const [record] = await ctx.db
		.select()
		.from(portals)
		.where(and(eq(portals.id, id), eq(portals.organizationId, ctx.orgId), eq(portals.tool, tool)))
	return found(record, 'No such portal.')
}

export async function listPortals(ctx: PortalsCtx, tool: WorkspaceTool): Promise<PortalSetupResponse> {
	const records = await ctx.db
		.select()
		.from(portals)
		.where(and(eq(portals.organizationId, ctx.orgId), eq(portals.tool, tool)))
		.orderBy(asc(portals.createdAt), asc(portals.id))
	const { planId } = await ctx.subscriptions.summary(ctx.orgId)
	return { portals: await toPortals(ctx, records), limit: planById(planId).limits.portals ?? null }
}

/**
 * The databases a portal on `tool` can expose, with the rules each supports given the access
 * settings (the saved portal's, or those the editor is about to save). `everyone` is never
 * suggested: showing every row to every member is a choice made on purpose.
 */
export async function listPortalDatabases(
	ctx: PortalsCtx,
	tool: WorkspaceTool,
	query: { portalId?: string; companiesDatabaseId?: string; membersDatabaseId?: string },
): Promise<PortalDatabaseOption[]> {
	const saved = query.portalId
		? portalAccessSchema.parse((await getPortalRecord(ctx, tool, query.portalId)).access)
		: null
	const companies = query.companiesDatabaseId ?? saved?.companiesDatabaseId ?? null
	const members = query.membersDatabaseId ?? saved?.membersDatabaseId ?? null
	const records = await ctx.db
		.select({ database: workspaceDatabases })
		.from(workspaceDatabases)
		.innerJoin(workspaces, eq(workspaces.id, workspaceDatabases.workspaceId))
		.where(and(eq(workspaceDatabases.organizationId, ctx.orgId), eq(workspaces.tool, tool)))
		.orderBy(asc(workspaceDatabases.name), asc(workspaceDatabases.id))
	return records.map(({ database }) => {
		const rules: PortalRule[] = []
		if (companies !== null && database.id === companies) {
			rules.push({ kind: 'company_row' })
		}
		for (const property of database.properties) {
			if (property.type === 'relation' && companies !== null && property.relationDatabaseId === companies) {
				rules.push({ kind: 'company', property: property.id })
			}
			if (property.type === 'relation' && members !== null && property.relationDatabaseId === members) {
				rules.push({ kind: 'member', property: property.id })
			}
		}
		for (const property of database.properties) {
			if (property.type === 'email') {
				rules.push({ kind: 'email', property: property.id })
			}
		}
		for (const property of database.properties) {
			if (property.type === 'people') {
				rules.push({ kind: 'person', property: property.id })
			}
		}
		return {
			id: database.id,
			workspaceId: database.workspaceId,
			name: database.name,
			icon: database.icon,
			rowCount: database.rowCount,
			properties: database.properties,
			suggestedRules: rules,
		}
	})
}

// ---- changing -----------------------------------------------------------------------------

function assertCanChange(ctx: PortalsCtx): void {
	if (!canChangePortals(ctx.role)) {
		throw new AppError('FORBIDDEN', { detail: portalRefusals.change })
	}
}

/** Serialises one organization's portal changes, so the plan's limit holds when two are made at once. */
async function lockOrganization(tx: Db, orgId: string): Promise<void> {
	await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, orgId)).for('update')
}

function serverHost(deps: Pick<PortalsDeps, 'publicUrl'>): string {
	return new URL(deps.publicUrl).hostname.toLowerCase()
}

/** The custom domain's checks other than its form: not ours, in the plan. */
async function checkDomain(ctx: PortalsCtx, domain: string | null, before: string | null): Promise<void> {
	if (domain === null) {
		return
	}
	if (domain === serverHost(ctx)) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'customDomain', message: "This is this server's own address. Use a domain of your own." }],
		})
	}
	// A domain kept from a plan that had the switch stays; a new one needs the switch.
	if (domain !== before && !(await ctx.subscriptions.hasSwitch(ctx.orgId, 'customDomain'))) {
		throw new AppError('PLAN_LIMIT_REACHED', {
			detail: 'A custom domain is not part of your plan. Upgrade to use one.',
			errors: [{ field: 'customDomain', message: 'A custom domain is not part of your plan.' }],
		})
	}
}

/** 409 when another portal (of any organization) has the slug or the domain. */
async function assertFree(db: Db, setup: { id: string; slug: string; customDomain: string | null }): Promise<void> {
	const [slugTaken] = await db
		.select({ id: portals.id })
		.from(portals)
		.where(and(eq(portals.slug, setup.slug), ne(portals.id, setup.id)))
	if (slugTaken) {
		throw new AppError('CONFLICT', {
			detail: 'This address is taken. Choose another.',
			errors: [{ field: 'slug', message: 'This address is taken.' }],
		})
	}
	if (setup.customDomain === null) {
		return
	}
	const [domainTaken] = await db
		.select({ id: portals.id })
		.from(portals)
		.where(and(eq(portals.customDomain, setup.customDomain), ne(portals.id, setup.id)))
	if (domainTaken) {
		throw new AppError('CONFLICT', {
			detail: 'Another portal uses this domain.',
			errors: [{ field: 'customDomain', message: 'Another portal uses this domain.' }],
		})
	}
}

/** The columns a setup writes (people and the rest are the caller's). */
function columnsOf(setup: PortalSetup) {
	return {
		name: setup.name,
		slug: setup.slug,
		customDomain: setup.customDomain,
		isEnabled: setup.isEnabled,
		branding: setup.branding,
		access: setup.access,
		pages: setup.pages,
		forms: setup.forms,
		showInvoices: setup.showInvoices,
		charts: setup.charts,
	}
}

/**
 * Creates the portal (no `id`) or replaces a portal's setup with the one sent. The people's
 * names are read before the transaction: a slow Notion never holds the organization's lock.
 */
export async function saveSetup(
	ctx: PortalsCtx,
	tool: WorkspaceTool,
	setup: PortalSetup,
): Promise<{ portal: Portal; isCreated: boolean }> {
	assertCanChange(ctx)
	const before = setup.id ? await getPortalRecord(ctx, tool, setup.id) : null
	await validateSetup(ctx.db, ctx.orgId, tool, setup)
	await checkDomain(ctx, setup.customDomain, before?.customDomain ?? null)
	const id = before?.id ?? randomUUID()
	await assertFree(ctx.db, { id, slug: setup.slug, customDomain: setup.customDomain })
	const people = await takePeopleSnapshot(ctx, tool, setup, before?.people ?? {})
	let saved: { record: PortalRecord | undefined; flagged: string[] }
	try {
		saved = await ctx.db.transaction(async (tx) => {
			await lockOrganization(tx, ctx.orgId)
			let record: PortalRecord | undefined
			if (before) {
				;[record] = await tx
					.update(portals)
					.set({ ...columnsOf(setup), people, updatedAt: ctx.now() })
					.where(and(eq(portals.id, id), eq(portals.organizationId, ctx.orgId)))
					.returning()
			} else {
				await ctx.subscriptions.assertCanAdd(tx, ctx.orgId, 'portals')
				;[record] = await tx
					.insert(portals)
					.values({ id, organizationId: ctx.orgId, tool, ...columnsOf(setup), people, createdBy: ctx.userId })
					.returning()
			}
			return { record, flagged: await updateMirrorContent(tx, ctx.orgId) }
		})
	} catch (error) {
		// Another portal took the slug or domain between the check and the write.
		if (!(error instanceof AppError)) {
			await assertFree(ctx.db, { id, slug: setup.slug, customDomain: setup.customDomain })
		}
		throw error
	}
	await queueContentReads(ctx, saved.flagged)
	// Deleted by someone else meanwhile.
	return { portal: await toPortal(ctx, found(saved.record, 'No such portal.')), isCreated: before === null }
}

/**
 * Pages, forms, charts, branding and access back to their defaults, after the portal's name is
 * typed to confirm. Name, address, domain, on/off and members are kept.
 */
export async function resetPortal(
	ctx: PortalsCtx,
	tool: WorkspaceTool,
	input: { id: string; confirm: string },
): Promise<Portal> {
	assertCanChange(ctx)
	const before = await getPortalRecord(ctx, tool, input.id)
	if (input.confirm.trim() !== before.name.trim()) {
		throw new AppError('VALIDATION_FAILED', {
			errors: [{ field: 'confirm', message: `Type the portal's name, ${before.name}, to confirm.` }],
		})
	}
	const record = await ctx.db.transaction(async (tx) => {
		const [saved] = await tx
			.update(portals)
			.set({
				branding: portalBrandingSchema.parse({}),
				access: portalAccessSchema.parse({}),
				pages: [],
				forms: [],
				charts: [],
				showInvoices: false,
				people: {},
				updatedAt: ctx.now(),
			})
			.where(and(eq(portals.id, before.id), eq(portals.organizationId, ctx.orgId)))
			.returning()
		await updateMirrorContent(tx, ctx.orgId)
		return saved
	})
	return toPortal(ctx, found(record, 'No such portal.'))
}

/** Deletes the portal; its members, their sessions and links go with it (foreign keys). */
export async function deletePortal(ctx: PortalsCtx, tool: WorkspaceTool, id: string): Promise<void> {
	assertCanChange(ctx)
	const record = await getPortalRecord(ctx, tool, id)
	await ctx.db.transaction(async (tx) => {
		await tx.delete(portals).where(and(eq(portals.id, record.id), eq(portals.organizationId, ctx.orgId)))
		await updateMirrorContent(tx, ctx.orgId)
	})
}
