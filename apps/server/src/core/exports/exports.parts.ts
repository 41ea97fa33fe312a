// The core's own part of the export, run first: the organization with its members and pending
// invitations. Secrets stay out: no password hash, no session.

import { and, asc, eq } from 'drizzle-orm'
import Papa from 'papaparse'
import { invitations, members, organizations, users } from '#src/core/auth/auth.schema.ts'
import { found } from '#src/lib/errors.ts'
import type { ExportContributor } from './exports.contributor.ts'

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
