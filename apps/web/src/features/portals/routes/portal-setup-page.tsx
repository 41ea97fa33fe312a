import { useNavigate } from 'react-router'
import { Alert } from '#src/components/ui/alert.tsx'
import { OnePortal } from '../components/one-portal.tsx'
import { PortalEditor } from '../components/portal-editor.tsx'
import { PortalsLayout } from '../components/portals-layout.tsx'
import { portalPaths } from '../lib/portal-paths.ts'

/** /portals/:id: the portal's branding, pages and access, its freshness and the danger zone. */
export function PortalSetupPage() {
	const navigate = useNavigate()
	return (
		<OnePortal title="Portal" loadingLabel="Loading the portal…">
			{({ portal, state, canEdit }) => (
				<PortalsLayout
					title={portal.name}
					portal={portal}
					hasOthers={state.portals.length > 1}
					canAddPortal={canEdit && (state.limit === null || state.portals.length < state.limit)}
				>
					{canEdit ? (
						<PortalEditor
							key={portal.id}
							portal={portal}
							onDeleted={() => navigate(portalPaths.list, { replace: true })}
						/>
					) : (
						<Alert title="Read only">Only owners and admins change the portal’s setup.</Alert>
					)}
				</PortalsLayout>
			)}
		</OnePortal>
	)
}
