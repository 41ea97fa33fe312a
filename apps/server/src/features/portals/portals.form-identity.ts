import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { and, eq } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { deriveKey, isValidSignature, sign } from '#src/lib/signing.ts'
import type { PortalRecord } from './portals.deps.ts'
import { portalMembers, portals } from './portals.schema.ts'

// The signed identity a member carries onto a form's public page from the portal (decision 038):
// made by portals.forms.ts, checked here for the forms module (through portals.public.ts) when
// the answer arrives. It imports nothing of the forms module, so the two never import in a circle.

/**
 * What the token says, readable by the form page without a key (it only shows it): the portal,
 * member and form, the member's e-mail and name to prefill, the property the server will set
 * (null when the member has no row to link), and when it ends (seconds).
 */
export type FormTokenPayload = {
	p: string
	m: string
	f: string
	e: string
	n: string | null
	l: string | null
	x: number
}

function tokenKey(authSecret: string) {
	return deriveKey(authSecret, 'portal-form-identity')
}

export function signFormToken(authSecret: string, payload: FormTokenPayload): string {
	const body = Buffer.from(JSON.stringify(payload)).toString('base64url')
	return `${body}.${sign(tokenKey(authSecret), body)}`
}

function readToken(authSecret: string, token: string, now: Date): FormTokenPayload | null {
	const [body, signature, extra] = token.split('.')
	if (!body || !signature || extra !== undefined || !isValidSignature(tokenKey(authSecret), body, signature)) {
		return null
	}
	try {
		const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as FormTokenPayload
		return typeof payload.x === 'number' && payload.x * 1000 > now.getTime() ? payload : null
	} catch {
		return null
	}
}

/** The relation value that links a row to the member through `property`, when they have that row. */
export function formLinkOf(
	portal: Pick<PortalRecord, 'access'>,
	member: { companyRowId: string | null; memberRowId: string | null },
	property: Property | undefined,
): string | null {
	if (property?.type !== 'relation' || !property.relationDatabaseId) {
		return null
	}
	if (property.relationDatabaseId === portal.access.companiesDatabaseId) {
		return member.companyRowId
	}
	if (property.relationDatabaseId === portal.access.membersDatabaseId) {
		return member.memberRowId
	}
	return null
}

/**
 * Who sent an answer with a portal token, and the values that link its row to them: null when
 * the token is forged, ended, for another form, or its member, portal or form entry is gone.
 */
export async function readPortalFormIdentity(
	db: Db,
	authSecret: string,
	input: { token: string; formId: string; properties: Property[]; now: Date },
): Promise<{ memberId: string; email: string; values: Record<string, string[]> } | null> {
	const payload = readToken(authSecret, input.token, input.now)
	if (!payload || payload.f !== input.formId) {
		return null
	}
	const [found] = await db
		.select({ member: portalMembers, portal: portals })
		.from(portalMembers)
		.innerJoin(portals, eq(portals.id, portalMembers.portalId))
		.where(and(eq(portalMembers.id, payload.m), eq(portals.id, payload.p)))
		.limit(1)
	const entry = found?.portal.forms.find((candidate) => candidate.formId === input.formId)
	if (!found?.portal.isEnabled || !entry) {
		return null
	}
	const property = input.properties.find((candidate) => candidate.id === entry.linkProperty)
	const link = formLinkOf(found.portal, found.member, property)
	return {
		memberId: found.member.id,
		email: found.member.email,
		values: link && property ? { [property.id]: [link] } : {},
	}
}
