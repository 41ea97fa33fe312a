import { Readable } from 'node:stream'
import { asc, eq } from 'drizzle-orm'
import Papa from 'papaparse'
import type { ExportContext, ExportContributor } from '#src/core/exports/exports.contributor.ts'
import { portalMembers, portals } from './portals.schema.ts'

// The portals part of an organization's export (decision 040): portals/portals.json, every
// portal's setup as saved (address, branding, access rules, pages, forms, charts, invoices), and
// portals/members.csv, everyone invited to them with their status and the rows they are linked
// to (their company's and their own). Never written: password hashes, sessions, sign-in links.

const page = 1000

export function createPortalsExport(): ExportContributor {
	return { label: 'Client portals', run: exportPortals }
}

async function exportPortals(context: ExportContext): Promise<void> {
	const { db, organizationId, archive } = context
	// A plan allows a handful of portals: read at once.
	const setups = await db
		.select()
		.from(portals)
		.where(eq(portals.organizationId, organizationId))
		.orderBy(asc(portals.createdAt), asc(portals.id))
	await archive.addJson('portals/portals.json', setups)
	archive.record(
		'portals',
		setups.map((portal) => portal.id),
	)
	const memberIds: string[] = []
	await archive.addFile('portals/members.csv', Readable.from(membersCsv(context, memberIds)))
	archive.record('portalMembers', memberIds)
}

async function* membersCsv(context: ExportContext, ids: string[]) {
	const header = [
		'id',
		'portalId',
		'email',
		'name',
		'status',
		'companyRowId',
		'memberRowId',
		'personRef',
		'hasPassword',
		'invitedAt',
		'lastSeenAt',
		'createdAt',
	]
	yield `${Papa.unparse([header], { escapeFormulae: true })}\r\n`
	for (let offset = 0; ; offset += page) {
		const rows = await context.db
			.select()
			.from(portalMembers)
			.where(eq(portalMembers.organizationId, context.organizationId))
			.orderBy(asc(portalMembers.createdAt), asc(portalMembers.id))
			.limit(page)
			.offset(offset)
		if (rows.length > 0) {
			const records = rows.map((member) => [
				member.id,
				member.portalId,
				member.email,
				member.name ?? '',
				member.status,
				member.companyRowId ?? '',
				member.memberRowId ?? '',
				member.personRef ?? '',
				String(member.passwordHash !== null),
				member.invitedAt.toISOString(),
				member.lastSeenAt?.toISOString() ?? '',
				member.createdAt.toISOString(),
			])
			ids.push(...rows.map((member) => member.id))
			yield `${Papa.unparse(records, { header: false, escapeFormulae: true })}\r\n`
		}
		if (rows.length < page) {
			return
		}
	}
}
