import { eq } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { portals } from './portals.schema.ts'

// What other parts of the server read of portals: the web layer serves a portal's pages at `/`
// for a request whose Host is its custom domain (decision 038).

/** A Host header as a portal's custom domain is stored: lowercase, without the port. */
export function hostNameOf(host: string | undefined): string | null {
	const name = host?.trim().toLowerCase().replace(/:\d+$/, '')
	return name ? name : null
}

/** The enabled portal whose custom domain is `host` (port ignored), or null. */
export async function findPortalByHost(db: Db, host: string | undefined): Promise<{ slug: string } | null> {
	const name = hostNameOf(host)
	if (!name) {
		return null
	}
	const [found] = await db
		.select({ slug: portals.slug, isEnabled: portals.isEnabled })
		.from(portals)
		.where(eq(portals.customDomain, name))
		.limit(1)
	return found?.isEnabled ? { slug: found.slug } : null
}

export { createPortalsExport } from './portals.export.ts'
export { readPortalFormIdentity as portalFormIdentity } from './portals.form-identity.ts'
