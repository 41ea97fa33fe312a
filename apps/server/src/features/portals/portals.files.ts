import type { FileValue } from '@blocksmith/contracts/workspaces.ts'
import { and, eq } from 'drizzle-orm'
import { signedDownloadUrl } from '#src/core/uploads/uploads.service.ts'
import { AppError } from '#src/lib/errors.ts'
import { deriveKey, isValidSignature, sign } from '#src/lib/signing.ts'
import { contentFileUrl } from '#src/workspaces/workspaces.content.ts'
import { openRowFile } from '#src/workspaces/workspaces.files.ts'
import type { PortalMemberContext, PortalRecord, PortalsDeps } from './portals.deps.ts'
import { type PortalReader, readGrantedRow } from './portals.reader.ts'
import { portalMembers } from './portals.schema.ts'

// Files of a portal's rows go out as portal links, never as the file's own URL: a link names the
// page, the row and the file, and opening it checks again that the member's rule grants the row
// before it redirects to a short-lived URL (our signed upload link, or Notion's).
//
// An <img> or a download cannot send the member's bearer token, so a link also carries a
// signature of the member's id and an expiry: the signature stands for the token, and the
// member must still exist and the row still be granted to them when it is opened.

/** How long a file link lasts; rounded to the hour so an image's URL stays the same (and cached) a while. */
const linkHours = 12

export type FileLinkTarget = { pageId: string; rowId: string; propertyId: string; index: number }

function linkKey(deps: Pick<PortalsDeps, 'authSecret'>) {
	return deriveKey(deps.authSecret, 'portal-file-link')
}

/** What a link's signature covers: the portal, the member, the path after `/api/portal/{slug}/` as sent, the expiry. */
function linkMessage(portalId: string, memberId: string, path: string, expires: number): string {
	return [portalId, memberId, path, expires].join('\u0000')
}

/** `/api/portal/{slug}/{path}?m=…&exp=…&sig=…`: opens with the member's rights without their token. */
function signedPortalLink(
	deps: Pick<PortalsDeps, 'authSecret' | 'now'>,
	portal: Pick<PortalRecord, 'id' | 'slug'>,
	memberId: string,
	path: string,
): string {
	const hour = 3_600_000
	const expires = Math.ceil((deps.now().getTime() + linkHours * hour) / hour) * (hour / 1000)
	const signature = sign(linkKey(deps), linkMessage(portal.id, memberId, path, expires))
	return `/api/portal/${portal.slug}/${path}?m=${encodeURIComponent(memberId)}&exp=${expires}&sig=${signature}`
}

/** `/api/portal/{slug}/files/{pageId}/{rowId}/{propertyId}/{index}`, signed. */
export function fileLink(
	deps: Pick<PortalsDeps, 'authSecret' | 'now'>,
	portal: Pick<PortalRecord, 'id' | 'slug'>,
	memberId: string,
	target: FileLinkTarget,
): string {
	const path = [target.pageId, target.rowId, target.propertyId, String(target.index)].map(encodeURIComponent).join('/')
	return signedPortalLink(deps, portal, memberId, `files/${path}`)
}

/** `/api/portal/{slug}/pages/{pageId}/rows/{rowId}/content/{blockId}`, signed: a file Notion hosts in a row's page. */
export function contentFileLink(
	deps: Pick<PortalsDeps, 'authSecret' | 'now'>,
	portal: Pick<PortalRecord, 'id' | 'slug'>,
	memberId: string,
	target: { pageId: string; rowId: string; blockId: string },
): string {
	const path = [target.pageId, target.rowId, target.blockId].map(encodeURIComponent)
	return signedPortalLink(deps, portal, memberId, `pages/${path[0]}/rows/${path[1]}/content/${path[2]}`)
}

/**
 * The member a signed link stands for, when its signature is right for this path, it has not
 * expired, and the member is still one of the portal's. Anything else is a 401, like a missing token.
 */
export async function memberOfSignedLink(
	deps: Pick<PortalsDeps, 'authSecret' | 'now' | 'db'>,
	portal: PortalRecord,
	path: string,
	query: { m?: string | undefined; exp?: string | undefined; sig?: string | undefined },
): Promise<PortalMemberContext> {
	const expires = Number(query.exp)
	const isValid =
		query.m &&
		query.sig &&
		Number.isSafeInteger(expires) &&
		expires * 1000 > deps.now().getTime() &&
		isValidSignature(linkKey(deps), linkMessage(portal.id, query.m, path, expires), query.sig)
	if (!isValid) {
		throw new AppError('UNAUTHENTICATED', { detail: 'This file link has expired. Open the page again.' })
	}
	const [member] = await deps.db
		.select()
		.from(portalMembers)
		.where(and(eq(portalMembers.id, query.m as string), eq(portalMembers.portalId, portal.id)))
	if (!member) {
		throw new AppError('UNAUTHENTICATED')
	}
	return {
		memberId: member.id,
		sessionId: '',
		portalId: portal.id,
		orgId: portal.organizationId,
		email: member.email,
		name: member.name,
		companyRowId: member.companyRowId,
		memberRowId: member.memberRowId,
		personRef: member.personRef,
		hasPassword: member.passwordHash !== null,
	}
}

const imageExtensions = /\.(png|jpe?g|gif|webp|avif|svg|bmp|ico)(?:$|\?)/i

export function isImageName(name: string): boolean {
	return imageExtensions.test(name)
}

/**
 * Where a portal file link goes: the row is read through the page's rule (a row outside it is
 * 404, like one that does not exist), the property must be a shown files property, then the file's
 * own short-lived URL.
 */
export async function openPortalFile(reader: PortalReader, target: FileLinkTarget): Promise<string> {
	const { page, row } = await readGrantedRow(reader, target.pageId, target.rowId)
	const property = page.shown.find((candidate) => candidate.id === target.propertyId)
	const files = property?.type === 'files' ? row.values[target.propertyId] : undefined
	const file = Array.isArray(files) ? (files[target.index] as FileValue | undefined) : undefined
	if (!file || typeof file !== 'object' || !('name' in file)) {
		throw new AppError('NOT_FOUND', { detail: 'No such file on this row.' })
	}
	if (file.blobId) {
		return signedDownloadUrl(reader.deps, file.blobId, 10 * 60)
	}
	const opened = await openRowFile(
		{ ...reader.deps.workspaces, orgId: reader.portal.organizationId, userId: '' },
		{
			tool: page.tool,
			databaseId: page.page.databaseId,
			rowId: row.id,
			propertyId: target.propertyId,
			index: target.index,
		},
	)
	// A row's URL is whatever the team typed: only the web's schemes are followed.
	if (!/^https?:\/\//i.test(opened.url)) {
		throw new AppError('NOT_FOUND', { detail: 'This file cannot be opened from the portal.' })
	}
	return opened.url
}

/** A file Notion hosts in a granted row's page content: its fresh URL (the mirror's, or read again). */
export async function openContentFile(
	reader: PortalReader,
	target: { pageId: string; rowId: string; blockId: string },
): Promise<string> {
	const { page, row } = await readGrantedRow(reader, target.pageId, target.rowId)
	if (page.tool !== 'notion' || !page.page.showContent) {
		throw new AppError('NOT_FOUND', { detail: 'This page shows no content.' })
	}
	const file = await contentFileUrl(reader.deps.workspaces, reader.portal.organizationId, row.id, target.blockId)
	return file.url
}
