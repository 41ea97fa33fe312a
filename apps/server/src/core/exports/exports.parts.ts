// The core's own parts of the export, run before the features': the organization with its
// members and pending invitations, and every workspace database (local and mirrored from Notion)
// as CSV with its schema. Secrets stay out: no password hash, no session, no Notion token.

import { Readable } from 'node:stream'
import { and, asc, eq, gt } from 'drizzle-orm'
import Papa from 'papaparse'
import { invitations, members, organizations, users } from '#src/core/auth/auth.schema.ts'
import { found } from '#src/lib/errors.ts'
import type { WorkspaceDeps } from '#src/workspaces/workspaces.deps.ts'
import { workspaceDatabases, workspaceRows, workspaces } from '#src/workspaces/workspaces.schema.ts'
import { exportCsv, toDatabase } from '#src/workspaces/workspaces.service.ts'
import type { ExportContributor } from './exports.contributor.ts'

/**
 * A name as part of a file name: letters, digits, spaces, `-` and `_` only, at most 60
 * characters. Paths keep the object's id beside it, so two objects of one name never collide.
 */
function fileNamePart(name: string, fallback: string): string {
	const cleaned = name
		.normalize('NFC')
		.replace(/[^\p{L}\p{N} _-]+/gu, ' ')
		.replace(/\s+/g, ' ')
		.trim()
		.slice(0, 60)
		.trim()
	return cleaned || fallback
}

/** An id as part of a path: ours are UUIDs and base64url, but a path never trusts that. */
const idPart = (id: string) => id.replace(/[^\w-]+/g, '_')

/** CSV as the workspaces' export writes it: a byte-order mark for spreadsheets, CRLF, formulas neutralised. */
function toCsv(fields: string[], data: string[][]): string {
	return `\uFEFF${Papa.unparse({ fields, data }, { newline: '\r\n', escapeFormulae: true })}\r\n`
}

export const organizationPart: ExportContributor = {
	label: 'Organization and members',
	run: async ({ db, organizationId, archive }) => {
		const [organization] = await db
			.select({
				id: organizations.id,
				name: organizations.name,
				slug: organizations.slug,
				createdAt: organizations.createdAt,
			})
			.from(organizations)
			.where(eq(organizations.id, organizationId))
		const { createdAt, ...rest } = found(organization)
		await archive.addJson('organization.json', { ...rest, createdAt: createdAt.toISOString() })
		archive.record('organization', [organizationId])

		// In one read: an organization's members are its seats, a few hundred at the very most.
		const people = await db
			.select({
				id: members.id,
				userId: members.userId,
				name: users.name,
				email: users.email,
				role: members.role,
				joined: members.createdAt,
			})
			.from(members)
			.innerJoin(users, eq(users.id, members.userId))
			.where(eq(members.organizationId, organizationId))
			.orderBy(asc(members.createdAt), asc(members.id))
		await archive.addJson(
			'members.json',
			people.map((person) => ({ ...person, joined: person.joined.toISOString() })),
		)
		await archive.addFile(
			'members.csv',
			toCsv(
				['Name', 'E-mail', 'Role', 'Joined'],
				people.map((person) => [person.name, person.email, person.role, person.joined.toISOString()]),
			),
		)
		archive.record(
			'members',
			people.map((person) => person.id),
		)

		const pending = await db
			.select({
				id: invitations.id,
				email: invitations.email,
				role: invitations.role,
				invitedBy: users.name,
				createdAt: invitations.createdAt,
				expiresAt: invitations.expiresAt,
			})
			.from(invitations)
			.leftJoin(users, eq(users.id, invitations.inviterId))
			.where(and(eq(invitations.organizationId, organizationId), eq(invitations.status, 'pending')))
			.orderBy(asc(invitations.createdAt), asc(invitations.id))
		await archive.addJson(
			'invitations.json',
			pending.map((invitation) => ({
				...invitation,
				createdAt: invitation.createdAt.toISOString(),
				expiresAt: invitation.expiresAt.toISOString(),
			})),
		)
		archive.record(
			'invitations',
			pending.map((invitation) => invitation.id),
		)
	},
}

const databasesPerPage = 100
const rowIdsPerPage = 5000

/**
 * Every database of the organization: `databases/<name>-<id>.csv` (the workspaces' own CSV
 * export, read from the mirror in pages) and `.json` (the schema: its properties), and
 * `workspaces.json` listing the workspaces without their credentials.
 */
export function createDatabasesPart(workspaceDeps: WorkspaceDeps): ExportContributor {
	return {
		label: 'Workspace databases',
		run: async ({ db, organizationId, archive }) => {
			// The CSV export is a member's; nothing in it depends on who (people are named for everyone).
			const ctx = { ...workspaceDeps, db, orgId: organizationId, userId: '' }
			const connected = await db
				.select({
					id: workspaces.id,
					tool: workspaces.tool,
					name: workspaces.name,
					icon: workspaces.icon,
					status: workspaces.status,
					createdAt: workspaces.createdAt,
				})
				.from(workspaces)
				.where(eq(workspaces.organizationId, organizationId))
				.orderBy(asc(workspaces.createdAt), asc(workspaces.id))
			await archive.addJson(
				'workspaces.json',
				connected.map((workspace) => ({ ...workspace, createdAt: workspace.createdAt.toISOString() })),
			)
			archive.record(
				'workspaces',
				connected.map((workspace) => workspace.id),
			)
			const toolOf = new Map(connected.map((workspace) => [workspace.id, workspace.tool]))

			let lastId = ''
			for (;;) {
				const page = await db
					.select()
					.from(workspaceDatabases)
					.where(and(eq(workspaceDatabases.organizationId, organizationId), gt(workspaceDatabases.id, lastId)))
					.orderBy(asc(workspaceDatabases.id))
					.limit(databasesPerPage)
				for (const database of page) {
					const tool = toolOf.get(database.workspaceId) ?? 'local'
					const base = `databases/${fileNamePart(database.name, 'Database')}-${idPart(database.id)}`
					await archive.addJson(`${base}.json`, toDatabase(database, tool))
					const csv = await exportCsv(ctx, tool, database.id)
					await archive.addFile(`${base}.csv`, Readable.fromWeb(csv.body as import('node:stream/web').ReadableStream))
					archive.record('databases', [database.id])
					await recordRowIds(db, organizationId, database.id, (ids) => archive.record('rows', ids))
				}
				const last = page.at(-1)
				if (!last || page.length < databasesPerPage) {
					break
				}
				lastId = last.id
			}
		},
	}
}

async function recordRowIds(
	db: WorkspaceDeps['db'],
	organizationId: string,
	databaseId: string,
	record: (ids: string[]) => void,
): Promise<void> {
	let lastId = ''
	for (;;) {
		const page = await db
			.select({ id: workspaceRows.id })
			.from(workspaceRows)
			.where(
				and(
					eq(workspaceRows.databaseId, databaseId),
					eq(workspaceRows.organizationId, organizationId),
					gt(workspaceRows.id, lastId),
				),
			)
			.orderBy(asc(workspaceRows.id))
			.limit(rowIdsPerPage)
		record(page.map((row) => row.id))
		const last = page.at(-1)
		if (!last || page.length < rowIdsPerPage) {
			return
		}
		lastId = last.id
	}
}
