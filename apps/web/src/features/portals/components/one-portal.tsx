import type { Portal } from '@blocksmith/contracts/portals.ts'
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Link, useParams } from 'react-router'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import { errorMessage } from '#src/lib/api-client.ts'
import { type PortalsState, portalsQuery } from '../api/portals.ts'
import { portalPaths } from '../lib/portal-paths.ts'
import { PortalsLayout } from './portals-layout.tsx'

/**
 * A page of one portal (`/portals/:id/…`): the portal read with the caller's role, and while it
 * is not there the same loading, error and "no such portal" states on every such page.
 */
export function OnePortal({
	title,
	loadingLabel,
	children,
}: {
	/** The page's title until the portal's name is known. */
	title: string
	loadingLabel: string
	children: (loaded: { portal: Portal; state: PortalsState; canEdit: boolean }) => ReactNode
}) {
	const { id = '' } = useParams()
	const portals = useQuery(portalsQuery)
	const canEdit = useIsOwnerOrAdmin()

	if (portals.isPending || canEdit === undefined) {
		return (
			<PortalsLayout title={title}>
				<SkeletonGroup label={loadingLabel} className="grid gap-3">
					<Skeleton className="h-10 w-64" />
					<Skeleton className="h-64 w-full" />
				</SkeletonGroup>
			</PortalsLayout>
		)
	}
	if (portals.isError) {
		return (
			<PortalsLayout title={title}>
				<Alert variant="error" title="The portal could not be read">
					{errorMessage(portals.error)}
				</Alert>
			</PortalsLayout>
		)
	}
	const portal = portals.data.portals.find((one) => one.id === id)
	if (!portal) {
		return (
			<PortalsLayout title={title}>
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
	return children({ portal, state: portals.data, canEdit })
}
