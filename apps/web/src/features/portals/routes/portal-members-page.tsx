import { useQuery } from '@tanstack/react-query'
import { Link, useParams } from 'react-router'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import { errorMessage } from '#src/lib/api-client.ts'
import { portalsQuery } from '../api/portals.ts'
import { BulkInvite } from '../components/bulk-invite.tsx'
import { MembersList } from '../components/members-list.tsx'
import { PortalsLayout } from '../components/portals-layout.tsx'
import { portalPaths } from '../lib/portal-paths.ts'

/** /portals/:id/members: invite in bulk, and the members with their company, status and last visit. */
export function PortalMembersPage() {
	const { id = '' } = useParams()
	const portals = useQuery(portalsQuery)
	const canEdit = useIsOwnerOrAdmin()

	if (portals.isPending || canEdit === undefined) {
		return (
			<PortalsLayout title="Members">
				<SkeletonGroup label="Loading the members…" className="grid gap-3">
					<Skeleton className="h-10 w-64" />
					<Skeleton className="h-64 w-full" />
				</SkeletonGroup>
			</PortalsLayout>
		)
	}
	if (portals.isError) {
		return (
			<PortalsLayout title="Members">
				<Alert variant="error" title="The portal could not be read">
					{errorMessage(portals.error)}
				</Alert>
			</PortalsLayout>
		)
	}
	const portal = portals.data.portals.find((one) => one.id === id)
	if (!portal) {
		return (
			<PortalsLayout title="Members">
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
		<PortalsLayout title={portal.name} portal={portal} hasOthers={portals.data.portals.length > 1}>
			{canEdit ? (
				<div className="grid gap-6">
					{portal.access.companiesDatabaseId ? null : (
						<Alert variant="warning" title="No companies database yet">
							Members can be invited, but pages shared by company show them nothing until you choose the companies
							database under{' '}
							<Link to={portalPaths.setup(portal.id)} className="text-link underline-offset-4 hover:underline">
								Setup → Access
							</Link>
							.
						</Alert>
					)}
					<BulkInvite portal={portal} />
					<MembersList portal={portal} />
				</div>
			) : (
				<Alert title="Read only">Only owners and admins invite and remove portal members.</Alert>
			)}
		</PortalsLayout>
	)
}
