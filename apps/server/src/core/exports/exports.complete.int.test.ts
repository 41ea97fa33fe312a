import { and, eq, isNotNull, isNull, like, notLike, or } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { invitations, members } from '#src/core/auth/auth.schema.ts'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import type { Db } from '#src/db/client.ts'
import { chartDashboards, charts } from '#src/features/charts/charts.schema.ts'
import { formSubmissions, forms } from '#src/features/forms/forms.schema.ts'
import { invoiceDocuments, invoicePayments } from '#src/features/invoices/invoices.documents.schema.ts'
import { invoiceProfiles } from '#src/features/invoices/invoices.schema.ts'
import { portalMembers, portals } from '#src/features/portals/portals.schema.ts'
import { timeDatabases, timeEntries, timeViews } from '#src/features/time/time.schema.ts'
import { finishedExport, openLink, readArchive } from '#src/test/exports.ts'
import { fieldOf, pngOf, publishedEnquiryForm, submitAnswers, uploadFile, uploadMemberImage } from '#src/test/forms.ts'
import { invoiceProfile } from '#src/test/invoices-workspace.ts'
import { insertSamplePortal, memberWithSession } from '#src/test/portals.ts'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { trackedWeek } from '#src/test/time-reports.ts'
import { workspaceDatabases, workspaceRows, workspaces } from '#src/workspaces/workspaces.schema.ts'

// Issue 20's check of the export: an organization with at least one of every object, exported
// for real (the job, the ZIP, the download link). For every kind the manifest lists exactly the
// ids the database holds for the organization, every file it lists is in the archive (and no
// other), and no id of a second organization, made the same way, is anywhere in the archive.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp({ FORM_MIN_FILL_SECONDS: '0' })
})
afterAll(async () => {
	await t.close()
})

const brief = { name: 'brief.pdf', type: 'application/pdf', bytes: new TextEncoder().encode('%PDF-1.7 a brief') }
const logo = pngOf(3, 2)
const client = { name: 'Northwind Ltd', address: { lines: [], postcode: 'BS1', city: 'Bristol', country: 'GB' } }

/** An organization with one of everything: members and an invitation, databases with rows, a form with answers and a file, a member's upload, a chart and a dashboard, time, invoices, a portal. */
async function organizationWithEverything() {
	const team = await teamWithEveryRole(t)
	const { owner } = team
	const token = owner.token
	const invited = await t.request('POST', '/dashboard/team_invites', {
		token,
		json: { email: `pending-${team.orgId.slice(0, 8)}@example.com`, role: 'member' },
	})
	expect(invited.status).toBe(201)

	const { form, databases } = await publishedEnquiryForm(t, token)
	const file = await uploadFile(t, form.id, fieldOf(form, 'Attachments').id, brief)
	const answered = await submitAnswers(t, form, {
		[fieldOf(form, 'Name').id]: 'With a file',
		[fieldOf(form, 'Attachments').id]: [file],
	})
	expect(answered.status, JSON.stringify(answered.body)).toBe(201)
	expect((await submitAnswers(t, form, { [fieldOf(form, 'Name').id]: 'Plain' })).status).toBe(201)
	const uploadId = await uploadMemberImage(t, token, 'Logo: final/v2.png', 'image/png', logo)

	const chart = await t.request('POST', '/dashboard/local_charts/charts', {
		token,
		json: { name: 'Enquiries chart', databaseId: form.databaseId },
	})
	expect(chart.status).toBe(201)
	const dashboard = await t.request('POST', '/dashboard/charts/dashboards', {
		token,
		json: { name: 'Overview', chartIds: [chart.body.id] },
	})
	expect(dashboard.status).toBe(201)

	const { databaseId, viewId } = await trackedWeek(t, team)
	const entry = await t.request('POST', '/dashboard/local_time/entries', {
		token,
		json: { databaseId, startedAt: '2026-03-29T10:00:00.000Z', durationSeconds: 3600, description: 'Tracked' },
	})
	expect(entry.status, JSON.stringify(entry.body)).toBe(201)
	expect((await t.request('POST', `/dashboard/local_time/views/${viewId}/shares`, { token, json: {} })).status).toBe(
		201,
	)

	const { rateIds } = await invoiceProfile(t, token)
	const lines = [{ description: 'Design work', quantity: '2', unitPrice: '100.00', taxRateId: rateIds[0] }]
	const base = '/dashboard/local_invoice/invoices'
	const invoice = await t.request('POST', base, { token, json: { client, issueDate: '2026-03-01', lines } })
	expect(invoice.status).toBe(201)
	const finalized = await t.request('POST', `${base}/${invoice.body.id}/finalize`, { token })
	expect(finalized.status, JSON.stringify(finalized.body)).toBe(200)
	const paid = await t.request('POST', `${base}/${invoice.body.id}/payments`, {
		token,
		json: { date: '2026-03-10', amount: '50.00', method: 'bank_transfer' },
	})
	expect(paid.status).toBe(201)
	expect((await t.request('POST', base, { token, json: { client, lines } })).status).toBe(201)

	const portal = await insertSamplePortal(t, team.orgId, databases)
	await memberWithSession(t, portal, { email: `client-${team.orgId.slice(0, 8)}@example.com` })
	return {
		team,
		invoiceNumber: finalized.body.number as string,
		fileBlobId: file.blobId,
		formId: form.id,
		uploadId,
	}
}

/** The ids of every kind the export lists, as the database holds them for the organization. */
async function idsInDatabase(db: Db, orgId: string): Promise<Record<string, string[]>> {
	const ids = async (rows: Promise<{ id: string }[]>) => (await rows).map((row) => row.id).sort()
	return {
		organization: [orgId],
		members: await ids(db.select({ id: members.id }).from(members).where(eq(members.organizationId, orgId))),
		invitations: await ids(
			db
				.select({ id: invitations.id })
				.from(invitations)
				.where(and(eq(invitations.organizationId, orgId), eq(invitations.status, 'pending'))),
		),
		workspaces: await ids(
			db.select({ id: workspaces.id }).from(workspaces).where(eq(workspaces.organizationId, orgId)),
		),
		databases: await ids(
			db
				.select({ id: workspaceDatabases.id })
				.from(workspaceDatabases)
				.where(eq(workspaceDatabases.organizationId, orgId)),
		),
		rows: await ids(
			db.select({ id: workspaceRows.id }).from(workspaceRows).where(eq(workspaceRows.organizationId, orgId)),
		),
		forms: await ids(db.select({ id: forms.id }).from(forms).where(eq(forms.organizationId, orgId))),
		submissions: await ids(
			db.select({ id: formSubmissions.id }).from(formSubmissions).where(eq(formSubmissions.organizationId, orgId)),
		),
		files: await ids(
			db
				.select({ id: blobs.id })
				.from(blobs)
				.where(and(eq(blobs.organizationId, orgId), like(blobs.claimedBy, 'form-submission:%'))),
		),
		// The organization's other files: a member's uploads, not an answer's (those are under their form).
		uploads: await ids(
			db
				.select({ id: blobs.id })
				.from(blobs)
				.where(
					and(
						eq(blobs.organizationId, orgId),
						eq(blobs.status, 'uploaded'),
						or(isNull(blobs.scope), isNotNull(blobs.claimedBy)),
						or(isNull(blobs.claimedBy), notLike(blobs.claimedBy, 'form-submission:%')),
					),
				),
		),
		charts: await ids(db.select({ id: charts.id }).from(charts).where(eq(charts.organizationId, orgId))),
		dashboards: await ids(
			db.select({ id: chartDashboards.id }).from(chartDashboards).where(eq(chartDashboards.organizationId, orgId)),
		),
		timeDatabases: await ids(
			db.select({ id: timeDatabases.id }).from(timeDatabases).where(eq(timeDatabases.organizationId, orgId)),
		),
		timeEntries: await ids(
			db.select({ id: timeEntries.id }).from(timeEntries).where(eq(timeEntries.organizationId, orgId)),
		),
		timeViews: await ids(db.select({ id: timeViews.id }).from(timeViews).where(eq(timeViews.organizationId, orgId))),
		invoices: await ids(
			db.select({ id: invoiceDocuments.id }).from(invoiceDocuments).where(eq(invoiceDocuments.organizationId, orgId)),
		),
		invoicePayments: await ids(
			db.select({ id: invoicePayments.id }).from(invoicePayments).where(eq(invoicePayments.organizationId, orgId)),
		),
		invoiceProfiles: await ids(
			db.select({ id: invoiceProfiles.id }).from(invoiceProfiles).where(eq(invoiceProfiles.organizationId, orgId)),
		),
		portals: await ids(db.select({ id: portals.id }).from(portals).where(eq(portals.organizationId, orgId))),
		portalMembers: await ids(
			db.select({ id: portalMembers.id }).from(portalMembers).where(eq(portalMembers.organizationId, orgId)),
		),
	}
}

describe('an organization export holds everything it has', () => {
	test("every kind's ids match the database, every listed file is there, nothing of another organization", async () => {
		const world = await organizationWithEverything()
		const other = await organizationWithEverything()
		const orgId = world.team.orgId

		const started = await t.request('POST', '/dashboard/exports', { token: world.team.owner.token })
		expect(started.status).toBe(202)
		const ready = await finishedExport(t, world.team.owner.token, started.body.id)
		expect(ready, JSON.stringify(ready)).toMatchObject({ status: 'ready', error: null })
		const download = await openLink(t, ready.downloadUrl as string)
		expect(download.status).toBe(200)
		const { files, manifest } = await readArchive(download.bytes)

		// Every kind, each exactly as the database has it; at least one of each.
		const expected = await idsInDatabase(t.db, orgId)
		expect(Object.keys(manifest.objects).sort()).toEqual(Object.keys(expected).sort())
		for (const [kind, ids] of Object.entries(expected)) {
			expect(ids.length, `${kind} in the database`).toBeGreaterThan(0)
			expect([...(manifest.objects[kind] ?? [])].sort(), kind).toEqual(ids)
		}
		expect(expected.files).toEqual([world.fileBlobId])
		expect(expected.submissions).toHaveLength(2)
		expect(expected.uploads).toContain(world.uploadId)
		expect(expected.uploads).not.toContain(world.fileBlobId)

		// The files it lists are the files it has.
		expect([...files.keys()].filter((name) => name !== 'manifest.json').sort()).toEqual([...manifest.files].sort())
		const stored = [...files.entries()].find(([name]) => name.startsWith(`forms/${world.formId}/files/`))
		expect(Buffer.from(stored?.[1] ?? [])).toEqual(Buffer.from(brief.bytes))
		expect(files.get(`invoices/${world.invoiceNumber}.pdf`)?.subarray(0, 5).toString()).toBe('%PDF-')
		const uploadPath = `uploads/${world.uploadId}-Logo_ final_v2.png`
		expect(Buffer.from(files.get(uploadPath) ?? [])).toEqual(Buffer.from(logo))
		const listed = JSON.parse(String(files.get('uploads/uploads.json')))
		expect(listed.map((upload: { id: string }) => upload.id).sort()).toEqual(expected.uploads)
		expect(listed.find((upload: { id: string }) => upload.id === world.uploadId)).toEqual({
			id: world.uploadId,
			filename: 'Logo: final/v2.png',
			contentType: 'image/png',
			byteSize: logo.byteLength,
			scope: null,
			createdAt: expect.any(String),
			path: uploadPath,
		})

		// Nothing of the other organization: none of its ids in any file.
		const everything = [...files.values()].map((bytes) => bytes.toString('latin1')).join('\n')
		const theirs = Object.values(await idsInDatabase(t.db, other.team.orgId)).flat()
		expect(theirs.length).toBeGreaterThan(50)
		expect(theirs.filter((id) => everything.includes(id))).toEqual([])
	})
})
