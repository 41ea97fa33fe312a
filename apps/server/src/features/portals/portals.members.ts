// A portal's members as the team manages them under /dashboard/{tool}_portal/invitations:
// bulk invitations (each with their company, matched in the mirror), the list with last visits,
// resend, rename or move to another company, remove. Owners and admins change; members read.
// Another organization's (or another tool's) portal or member reads as 404, before any role check.

import { randomUUID } from 'node:crypto'
import type {
	BulkInviteResult,
	bulkInviteInputSchema,
	PortalMember,
	UpdatePortalMember,
} from '@blocksmith/contracts/portals.ts'
import type { Role } from '@blocksmith/contracts/teams.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { and, asc, desc, eq, inArray, type SQL, sql } from 'drizzle-orm'
import type { z } from 'zod'
import { users } from '#src/core/auth/auth.schema.ts'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import { workspaceDatabases, workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { listUsers } from '#src/workspaces/workspaces.service.ts'
import type { PortalRecord, PortalsDeps } from './portals.deps.ts'
import { invitationLinkMs, issueMagicLinks } from './portals.links.ts'
import { portalInvitationMail, portalSignInUrl } from './portals.mail.ts'
import { portalMembers, portals } from './portals.schema.ts'

export type PortalMembersCtx = PortalsDeps & { orgId: string; userId: string; role: Role }
type BulkInviteInput = z.infer<typeof bulkInviteInputSchema>
type MemberRecord = typeof portalMembers.$inferSelect

const memberRefusals = {
	change: 'Only an owner or admin can invite, change or remove portal members. Ask one of them to do it.',
} as const

function assertCanManage(ctx: PortalMembersCtx): void {
	if (ctx.role !== 'owner' && ctx.role !== 'admin') {
		throw new AppError('FORBIDDEN', { detail: memberRefusals.change })
	}
}

async function findPortal(ctx: PortalMembersCtx, tool: WorkspaceTool, id: string): Promise<PortalRecord> {
	const [portal] = await ctx.db
		.select()
		.from(portals)
		.where(and(eq(portals.id, id), eq(portals.organizationId, ctx.orgId), eq(portals.tool, tool)))
	if (!portal) {
		throw new AppError('NOT_FOUND', { detail: 'No such portal.' })
	}
	return portal
}

async function findMember(
	ctx: PortalMembersCtx,
	tool: WorkspaceTool,
	id: string,
): Promise<{ member: MemberRecord; portal: PortalRecord }> {
	const [found] = await ctx.db
		.select({ member: portalMembers, portal: portals })
		.from(portalMembers)
		.innerJoin(portals, eq(portals.id, portalMembers.portalId))
		.where(and(eq(portalMembers.id, id), eq(portalMembers.organizationId, ctx.orgId), eq(portals.tool, tool)))
	if (!found) {
		throw new AppError('NOT_FOUND', { detail: 'No such portal member.' })
	}
	return found
}

// ---- matching in the mirror ---------------------------------------------------------------

type CompanyMatch = { rowId: string; title: string } | { reason: string }

/**
 * Each company as typed (a row id, or a title without case) → its row in the portal's companies
 * database, or why not. A title two rows share is refused: guessing would show one client another's rows.
 */
async function matchCompanies(
	ctx: PortalMembersCtx,
	portal: PortalRecord,
	typed: string[],
): Promise<Map<string, CompanyMatch>> {
	const result = new Map<string, CompanyMatch>()
	const wanted = [...new Set(typed)]
	if (wanted.length === 0) {
		return result
	}
	const databaseId = portal.access.companiesDatabaseId
	if (!databaseId) {
		for (const company of wanted) {
			result.set(company, { reason: 'The portal has no companies database: choose one in its setup first.' })
		}
		return result
	}
	const lowered = [...new Set(wanted.map((company) => company.toLowerCase()))]
	const rows = await ctx.db
		.select({ rowId: workspaceRows.externalId, title: workspaceRows.title })
		.from(workspaceRows)
		.where(
			and(
				eq(workspaceRows.organizationId, portal.organizationId),
				eq(workspaceRows.databaseId, databaseId),
				sql`(${inArray(workspaceRows.externalId, wanted)} or ${inArray(sql`lower(${workspaceRows.title})`, lowered)})`,
			),
		)
	for (const company of wanted) {
		const byId = rows.find((row) => row.rowId === company)
		const byTitle = rows.filter((row) => row.title.toLowerCase() === company.toLowerCase())
		if (byId) {
			result.set(company, byId)
		} else if (byTitle.length === 1 && byTitle[0]) {
			result.set(company, byTitle[0])
		} else if (byTitle.length > 1) {
			result.set(company, { reason: `Several companies are named “${company}”: use the row's id instead.` })
		} else {
			result.set(company, { reason: `No company “${company}” in the portal's companies database.` })
		}
	}
	return result
}

/** Each e-mail's own row in the members database (the oldest when several share it). */
export async function memberRowIdsByEmail(
	db: Db,
	portal: Pick<PortalRecord, 'organizationId' | 'access'>,
	emails: string[],
): Promise<Map<string, string>> {
	const { membersDatabaseId, membersEmailProperty } = portal.access
	const result = new Map<string, string>()
	if (!membersDatabaseId || !membersEmailProperty || emails.length === 0) {
		return result
	}
	const email = sql<string>`lower(${workspaceRows.values} ->> ${membersEmailProperty})`
	const rows = await db
		.select({ rowId: workspaceRows.externalId, email })
		.from(workspaceRows)
		.where(
			and(
				eq(workspaceRows.organizationId, portal.organizationId),
				eq(workspaceRows.databaseId, membersDatabaseId),
				inArray(email, emails),
			),
		)
		.orderBy(asc(workspaceRows.createdTime), asc(workspaceRows.id))
	for (const row of rows) {
		if (!result.has(row.email)) {
			result.set(row.email, row.rowId)
		}
	}
	return result
}

/**
 * Each e-mail's workspace person: the organization's users for a built-in workspace, the Notion
 * workspace's users for Notion (asked here, on a dashboard action, never on a visitor's request).
 * When Notion does not answer, nobody gets a person now; a resend asks again.
 */
async function personRefsByEmail(
	ctx: PortalMembersCtx,
	portal: PortalRecord,
	emails: string[],
): Promise<Map<string, string>> {
	const result = new Map<string, string>()
	if (emails.length === 0) {
		return result
	}
	const databaseId = portal.access.membersDatabaseId ?? portal.access.companiesDatabaseId ?? portal.pages[0]?.databaseId
	let workspaceId: string | undefined
	if (databaseId) {
		const [database] = await ctx.db
			.select({ workspaceId: workspaceDatabases.workspaceId })
			.from(workspaceDatabases)
			.where(and(eq(workspaceDatabases.id, databaseId), eq(workspaceDatabases.organizationId, ctx.orgId)))
		workspaceId = database?.workspaceId
	}
	if (portal.tool === 'notion' && !workspaceId) {
		return result
	}
	try {
		const people = await listUsers(
			{ ...ctx.workspaces, orgId: ctx.orgId, userId: ctx.userId },
			portal.tool,
			workspaceId,
		)
		const wanted = new Set(emails)
		for (const person of people) {
			const email = person.email?.toLowerCase()
			if (person.type === 'person' && email && wanted.has(email) && !result.has(email)) {
				result.set(email, person.id)
			}
		}
	} catch (error) {
		ctx.log.warn({ err: error, portalId: portal.id }, 'portal members: workspace people not read')
	}
	return result
}

// ---- reading ------------------------------------------------------------------------------

function toPortalMember(member: MemberRecord, companyName: string | null): PortalMember {
	return {
		id: member.id,
		email: member.email,
		name: member.name,
		companyRowId: member.companyRowId,
		companyName: member.companyRowId ? companyName : null,
		status: member.status,
		hasPassword: member.passwordHash !== null,
		invitedAt: member.invitedAt.toISOString(),
		lastSeenAt: member.lastSeenAt?.toISOString() ?? null,
	}
}

/** Members with their company's title from the mirror: newest invitations first, then by e-mail. */
async function readMembers(ctx: PortalMembersCtx, portal: PortalRecord, where: SQL | undefined) {
	const databaseId = portal.access.companiesDatabaseId
	const rows = await ctx.db
		.select({ member: portalMembers, companyName: workspaceRows.title })
		.from(portalMembers)
		.leftJoin(
			workspaceRows,
			databaseId
				? and(
						eq(workspaceRows.organizationId, portal.organizationId),
						eq(workspaceRows.databaseId, databaseId),
						eq(workspaceRows.externalId, portalMembers.companyRowId),
					)
				: sql`false`,
		)
		.where(and(eq(portalMembers.portalId, portal.id), where))
		.orderBy(desc(portalMembers.invitedAt), asc(portalMembers.email))
	return rows.map((row) => toPortalMember(row.member, row.companyName))
}

export async function listPortalMembers(
	ctx: PortalMembersCtx,
	tool: WorkspaceTool,
	portalId: string,
): Promise<PortalMember[]> {
	return readMembers(ctx, await findPortal(ctx, tool, portalId), undefined)
}

async function readMember(ctx: PortalMembersCtx, portal: PortalRecord, id: string): Promise<PortalMember> {
	const [member] = await readMembers(ctx, portal, eq(portalMembers.id, id))
	if (!member) {
		throw new AppError('NOT_FOUND', { detail: 'No such portal member.' })
	}
	return member
}

// ---- invitations --------------------------------------------------------------------------

/** Mails each member a fresh 7-day link; their older unused links stop working. */
async function sendInvitations(ctx: PortalMembersCtx, portal: PortalRecord, members: MemberRecord[]): Promise<void> {
	if (members.length === 0) {
		return
	}
	const tokens = await issueMagicLinks(ctx, members, { lifetimeMs: invitationLinkMs, replaceOlder: true })
	const [inviter] = await ctx.db.select({ name: users.name }).from(users).where(eq(users.id, ctx.userId))
	for (const [index, member] of members.entries()) {
		const url = portalSignInUrl(ctx, portal, tokens[index] as string)
		await ctx.mailer.send(
			portalInvitationMail(member.email, { portalName: portal.name, inviterName: inviter?.name ?? null, url }),
		)
	}
}

/**
 * How many of `adding` members the plan has room for. None at all is the plan's 402 for the
 * whole batch (nothing would be invited); some room invites the first lines and refuses the rest.
 */
async function roomFor(ctx: PortalMembersCtx, adding: number): Promise<{ room: number; detail: string }> {
	try {
		await ctx.subscriptions.assertCanAdd(ctx.db, ctx.orgId, 'portalMembers', adding)
		return { room: adding, detail: '' }
	} catch (error) {
		if (!(error instanceof AppError) || error.code !== 'PLAN_LIMIT_REACHED' || !error.limit) {
			throw error
		}
		const room = Math.max(0, (error.limit.allowed ?? 0) - error.limit.used)
		if (room === 0) {
			throw error
		}
		return { room, detail: error.detail }
	}
}

type Line = { index: number; email: string; name: string | null; company: string | null }

export async function bulkInvite(
	ctx: PortalMembersCtx,
	tool: WorkspaceTool,
	input: BulkInviteInput,
): Promise<BulkInviteResult> {
	const portal = await findPortal(ctx, tool, input.portalId)
	assertCanManage(ctx)

	// One line per e-mail: a repeated line fills in what the first left empty.
	const lines = new Map<string, Line>()
	for (const [index, invitee] of input.members.entries()) {
		const seen = lines.get(invitee.email)
		if (seen) {
			seen.name ??= invitee.name || null
			seen.company ??= invitee.company || null
		} else {
			lines.set(invitee.email, {
				index,
				email: invitee.email,
				name: invitee.name || null,
				company: invitee.company || null,
			})
		}
	}
	const existing = await ctx.db
		.select()
		.from(portalMembers)
		.where(and(eq(portalMembers.portalId, portal.id), inArray(portalMembers.email, [...lines.keys()])))
	const existingEmails = new Set(existing.map((member) => member.email))
	const fresh = [...lines.values()].filter((line) => !existingEmails.has(line.email))

	const companies = await matchCompanies(
		ctx,
		portal,
		fresh.flatMap((line) => (line.company ? [line.company] : [])),
	)
	const refused: BulkInviteResult['refused'] = []
	const accepted: (Line & { companyRowId: string | null; companyName: string | null })[] = []
	for (const line of fresh) {
		const match = line.company ? companies.get(line.company) : undefined
		if (match && 'reason' in match) {
			refused.push({ index: line.index, email: line.email, reason: match.reason })
		} else {
			accepted.push({ ...line, companyRowId: match?.rowId ?? null, companyName: match?.title ?? null })
		}
	}
	if (accepted.length > 0) {
		const { room, detail } = await roomFor(ctx, accepted.length)
		for (const line of accepted.splice(room)) {
			refused.push({ index: line.index, email: line.email, reason: detail })
		}
	}

	const emails = accepted.map((line) => line.email)
	const [memberRows, people] = await Promise.all([
		memberRowIdsByEmail(ctx.db, portal, emails),
		personRefsByEmail(ctx, portal, emails),
	])
	const now = ctx.now()
	const inserted =
		accepted.length === 0
			? []
			: await ctx.db
					.insert(portalMembers)
					.values(
						accepted.map((line) => ({
							id: randomUUID(),
							organizationId: ctx.orgId,
							portalId: portal.id,
							email: line.email,
							name: line.name,
							companyRowId: line.companyRowId,
							memberRowId: memberRows.get(line.email) ?? null,
							personRef: people.get(line.email) ?? null,
							invitedAt: now,
						})),
					)
					// Invited at the same moment by another request: reported as existing.
					.onConflictDoNothing({ target: [portalMembers.portalId, portalMembers.email] })
					.returning()
	const insertedEmails = new Set(inserted.map((member) => member.email))
	if (input.sendEmails) {
		await sendInvitations(ctx, portal, [...inserted, ...existing])
	}
	const byEmail = new Map(inserted.map((member) => [member.email, member]))
	return {
		invited: accepted.flatMap((line) => {
			const member = byEmail.get(line.email)
			return member ? [toPortalMember(member, line.companyName)] : []
		}),
		existing: [...lines.values()]
			.filter(
				(line) => existingEmails.has(line.email) || (emails.includes(line.email) && !insertedEmails.has(line.email)),
			)
			.map((line) => line.email),
		refused: refused.sort((a, b) => a.index - b.index),
	}
}

/** A fresh invitation: a new 7-day link (the older unused ones stop working), and their person and own row read again. */
export async function resendInvitation(ctx: PortalMembersCtx, tool: WorkspaceTool, id: string): Promise<PortalMember> {
	const { member, portal } = await findMember(ctx, tool, id)
	assertCanManage(ctx)
	const [memberRows, people] = await Promise.all([
		memberRowIdsByEmail(ctx.db, portal, [member.email]),
		personRefsByEmail(ctx, portal, [member.email]),
	])
	const [updated] = await ctx.db
		.update(portalMembers)
		.set({
			memberRowId: memberRows.get(member.email) ?? member.memberRowId,
			personRef: people.get(member.email) ?? member.personRef,
		})
		.where(eq(portalMembers.id, member.id))
		.returning()
	await sendInvitations(ctx, portal, [updated ?? member])
	return readMember(ctx, portal, member.id)
}

export async function updatePortalMember(
	ctx: PortalMembersCtx,
	tool: WorkspaceTool,
	id: string,
	input: UpdatePortalMember,
): Promise<PortalMember> {
	const { member, portal } = await findMember(ctx, tool, id)
	assertCanManage(ctx)
	const changes: Partial<MemberRecord> = {}
	if (input.name !== undefined) {
		changes.name = input.name || null
	}
	if (input.company !== undefined) {
		if (input.company) {
			const match = (await matchCompanies(ctx, portal, [input.company])).get(input.company)
			if (!match || 'reason' in match) {
				throw new AppError('VALIDATION_FAILED', {
					errors: [{ field: 'company', message: match && 'reason' in match ? match.reason : 'Unknown company.' }],
				})
			}
			changes.companyRowId = match.rowId
		} else {
			changes.companyRowId = null
		}
	}
	if (Object.keys(changes).length > 0) {
		await ctx.db.update(portalMembers).set(changes).where(eq(portalMembers.id, member.id))
	}
	return readMember(ctx, portal, member.id)
}

/** Their sessions and links go with them (foreign keys), so both stop working at once. */
export async function removePortalMember(ctx: PortalMembersCtx, tool: WorkspaceTool, id: string): Promise<void> {
	const { member } = await findMember(ctx, tool, id)
	assertCanManage(ctx)
	await ctx.db.delete(portalMembers).where(eq(portalMembers.id, member.id))
}
