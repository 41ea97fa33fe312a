import { type PortalPublicInfo, portalAccessSchema, portalBrandingSchema } from '@blocksmith/contracts/portals.ts'
import { and, eq } from 'drizzle-orm'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import { AppError } from '#src/lib/errors.ts'
import type { PortalRecord, PortalsDeps } from './portals.deps.ts'
import { hostNameOf } from './portals.public.ts'
import { portalLogoUrl } from './portals.setup.ts'
import { portalLogoTypes } from './portals.validate.ts'

// What anyone may read of a portal before signing in: its name and look, enough to draw the
// sign-in page, and its logo. Nothing of its pages, members or databases.

/** The portal's public face; on its custom domain its pages live at `/`, elsewhere at `/p/{slug}`. */
export function portalPublicInfo(
	deps: Pick<PortalsDeps, 'publicUrl'>,
	portal: PortalRecord,
	host: string | undefined,
): PortalPublicInfo {
	const branding = portalBrandingSchema.parse(portal.branding)
	const isOwnDomain = portal.customDomain !== null && hostNameOf(host) === portal.customDomain
	return {
		slug: portal.slug,
		name: portal.name,
		logoUrl: portalLogoUrl(deps, { slug: portal.slug, branding }),
		accentColor: branding.accentColor,
		backgroundColor: branding.backgroundColor,
		theme: branding.theme,
		welcome: branding.welcome,
		allowPasswords: portalAccessSchema.parse(portal.access).allowPasswords,
		basePath: isOwnDomain ? '' : `/p/${portal.slug}`,
	}
}

/** The logo's bytes, when the portal has one of its organization's raster uploads. */
export async function openPortalLogo(deps: Pick<PortalsDeps, 'db' | 'storage'>, portal: PortalRecord) {
	const blobId = portal.branding.logoBlobId
	const [blob] = blobId
		? await deps.db
				.select()
				.from(blobs)
				.where(and(eq(blobs.id, blobId), eq(blobs.organizationId, portal.organizationId)))
		: []
	// Checked when saved; checked again, as what is served here is served on the portal's origin.
	if (blob?.status !== 'uploaded' || !portalLogoTypes.includes(blob.contentType)) {
		throw new AppError('NOT_FOUND', { detail: 'This portal has no logo.' })
	}
	const file = await deps.storage.get(blob.key)
	if (!file) {
		throw new AppError('NOT_FOUND', { detail: 'This portal has no logo.' })
	}
	return { contentType: blob.contentType, byteSize: file.byteSize, body: file.body }
}
