import { useQuery } from '@tanstack/react-query'
import { Link, useNavigate, useParams } from 'react-router'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import { errorMessage } from '#src/lib/api-client.ts'
import { portalsQuery } from '../api/portals.ts'
import { PortalEditor } from '../components/portal-editor.tsx'
import { PortalsLayout } from '../components/portals-layout.tsx'
import { portalPaths } from '../lib/portal-paths.ts'

/** /portals/:id: the portal's branding, pages and access, its freshness and the danger zone. */
export function PortalSetupPage() {
	const { id = '' } = useParams()
	const portals = useQuery(portalsQuery)
	const canEdit = useIsOwnerOrAdmin()
	const navigate = useNavigate()

	if (portals.isPending || canEdit === undefined) {
		return (
			<PortalsLayout title="Portal">
				<SkeletonGroup label="Loading the portal…" className="grid gap-3">
					<Skeleton className="h-10 w-64" />
					<Skeleton className="h-64 w-full" />
				</SkeletonGroup>
			</PortalsLayout>
		)
	}
	if (portals.isError) {
		return (
			<PortalsLayout title="Portal">
				<Alert variant="error" title="The portal could not be read">
					{errorMessage(portals.error)}
				</Alert>
			</PortalsLayout>
		)
	}
	const portal = portals.data.portals.find((one) => one.id === id)
	if (!portal) {
		return (
			<PortalsLayout title="Portal">
				<Alert
					variant="warning"
					title="No such portal"
					action={
						<Button asChild variant="outline" size="sm">
							<Link to={portalPaths.list}>All portals</Link>
						</Button>
					}
				>
					It was deleted, or belongs to another organization.
				</Alert>
			</PortalsLayout>
		)
	}
	return (
		<PortalsLayout
			title={portal.name}
			portal={portal}
			hasOthers={portals.data.portals.length > 1}
			canAddPortal={canEdit && (portals.data.limit === null || portals.data.portals.length < portals.data.limit)}
		>
			{canEdit ? (
				<PortalEditor key={portal.id} portal={portal} onDeleted={() => navigate(portalPaths.list, { replace: true })} />
			) : (
				<Alert title="Read only">Only owners and admins change the portal’s setup.</Alert>
			)}
		</PortalsLayout>
	)
}
