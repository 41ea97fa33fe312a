import type { AppEnv } from '#src/lib/context.ts'
import { createRouter } from '#src/lib/openapi.ts'
import type { PortalsDeps } from './portals.deps.ts'

// Placeholder, filled in by the portal work in progress (decision 038).
export function createPortalBrandRoutes(_options: { portals: PortalsDeps }) {
	return createRouter<AppEnv>()
}
