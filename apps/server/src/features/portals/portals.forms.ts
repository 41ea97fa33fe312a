import { and, eq } from 'drizzle-orm'
import { formsOfOrganization } from '#src/features/forms/forms.public.ts'
import { AppError } from '#src/lib/errors.ts'
import { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'
import type { PortalMemberContext, PortalRecord, PortalsDeps } from './portals.deps.ts'
import { formLinkOf, signFormToken } from './portals.form-identity.ts'

// The team's forms inside a portal (issue 18 item 5, decision 038). A member opens one of the
// portal's forms on the form's own public page, with a signed identity in its address: the page
// prefills their e-mail and leaves out the field that links the row to them, and on submit the
// forms module asks `portalFormIdentity` (portals.public.ts) who sent it and sets that link
// itself, whatever the page sent. The identity is signed, short-lived and read again from the
// member's row, so a removed member's link stops working.

/** How long an opened form takes answers as the member: a long form, filled in slowly, still sends. */
const portalFormTokenMs = 12 * 3_600_000

/** The forms of the portal members may open: those still published, in the setup's order. */
export async function portalForms(deps: Pick<PortalsDeps, 'db'>, portal: PortalRecord) {
	const ids = portal.forms.map((entry) => entry.formId)
	const found = await formsOfOrganization(deps.db, portal.organizationId, ids)
	const byId = new Map(found.filter((form) => form.isPublished).map((form) => [form.id, form]))
	return ids.flatMap((id) => {
		const form = byId.get(id)
		return form ? [{ id: form.id, title: form.name }] : []
	})
}

/** Where the member fills in the form: its public page with their signed identity. */
export async function openPortalForm(
	deps: PortalsDeps,
	portal: PortalRecord,
	member: PortalMemberContext,
	formId: string,
): Promise<{ url: string; expiresAt: string }> {
	const entry = portal.forms.find((candidate) => candidate.formId === formId)
	const [form] = entry ? await formsOfOrganization(deps.db, portal.organizationId, [formId]) : []
	if (!entry || !form?.isPublished) {
		throw new AppError('NOT_FOUND', { detail: 'There is no such form in this portal.' })
	}
	// The field that links the row is left out of the page only when there is a row to link.
	const [database] = form.databaseId
		? await deps.db
				.select({ properties: workspaceDatabases.properties })
				.from(workspaceDatabases)
				.where(
					and(eq(workspaceDatabases.id, form.databaseId), eq(workspaceDatabases.organizationId, portal.organizationId)),
				)
		: []
	const property = database?.properties.find((candidate) => candidate.id === entry.linkProperty)
	const link = formLinkOf(portal, member, property)
	const expiresAt = new Date(deps.now().getTime() + portalFormTokenMs)
	const token = signFormToken(deps.authSecret, {
		p: portal.id,
		m: member.memberId,
		f: formId,
		e: member.email,
		n: member.name,
		l: link ? entry.linkProperty : null,
		x: Math.floor(expiresAt.getTime() / 1000),
	})
	const url = new URL(`/forms/${encodeURIComponent(formId)}`, deps.publicUrl)
	url.searchParams.set('portal', token)
	return { url: url.toString(), expiresAt: expiresAt.toISOString() }
}
