import { useQuery } from '@tanstack/react-query'
import { DoorOpen, Plus, Users } from 'lucide-react'
import { Link, Navigate, useNavigate } from 'react-router'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import { errorMessage } from '#src/lib/api-client.ts'
import { portalsQuery } from '../api/portals.ts'
import { FirstPortal } from '../components/first-portal.tsx'
import { PortalsLayout } from '../components/portals-layout.tsx'
import { portalPaths } from '../lib/portal-paths.ts'

const title = 'Portals'
const description = 'A branded site where each client signs in and sees only their own rows.'

/**
 * /portals: before any portal, the first one suggested from the workspace; with one, its setup;
 * with several, the list.
 */
export function PortalsPage() {
	const portals = useQuery(portalsQuery)
	const canEdit = useIsOwnerOrAdmin()
	const navigate = useNavigate()

	if (portals.isPending || canEdit === undefined) {
		return (
			<PortalsLayout title={title} description={description}>
				<SkeletonGroup label="Loading the portals…" className="grid gap-3">
					<Skeleton className="h-10 w-64" />
					<Skeleton className="h-48 w-full" />
				</SkeletonGroup>
			</PortalsLayout>
		)
	}
	if (portals.isError) {
		return (
			<PortalsLayout title={title} description={description}>
				<Alert variant="error" title="The portals could not be read">
					{errorMessage(portals.error)}
				</Alert>
			</PortalsLayout>
		)
	}
	const list = portals.data.portals
	if (list.length === 0) {
		return (
			<PortalsLayout title={title} description={description}>
				{canEdit ? (
					<FirstPortal isFirst onCreated={(portal) => navigate(portalPaths.setup(portal.id))} />
				) : (
					<Alert title="No portal yet">An owner or admin of your organization opens the portal.</Alert>
				)}
			</PortalsLayout>
		)
	}
	if (list.length === 1 && list[0]) {
		return <Navigate to={portalPaths.setup(list[0].id)} replace />
	}
	const limit = portals.data.limit
	const canAdd = canEdit && (limit === null || list.length < limit)
	return (
		<PortalsLayout title={title} description={description}>
			<div className="flex flex-wrap items-center justify-between gap-3">
				<p className="text-muted-foreground text-sm">
					{list.length} portals{limit === null ? '' : ` of ${limit} on your plan`}
				</p>
				{canAdd ? (
					<Button asChild size="sm">
						<Link to={portalPaths.new}>
							<Plus aria-hidden /> New portal
						</Link>
					</Button>
				) : null}
			</div>
			<ul aria-label="Portals" className="grid gap-3 sm:grid-cols-2">
				{list.map((portal) => (
					<li key={portal.id}>
						<Link
							to={portalPaths.setup(portal.id)}
							className="grid gap-2 rounded-xl border p-4 transition-colors hover:bg-muted/50"
						>
							<span className="flex items-center gap-2">
								<DoorOpen aria-hidden className="size-4 text-muted-foreground" />
								<span className="truncate font-medium">{portal.name}</span>
								{portal.isEnabled ? null : <Badge variant="warning">Off</Badge>}
							</span>
							<span className="truncate text-muted-foreground text-sm">{portal.url}</span>
							<span className="flex items-center gap-1.5 text-muted-foreground text-sm">
								<Users aria-hidden className="size-3.5" /> {portal.membersCount} members · {portal.pages.length} pages
							</span>
						</Link>
					</li>
				))}
			</ul>
		</PortalsLayout>
	)
}

/** /portals/new: another portal, when the plan allows one (the server says so with a 402 otherwise). */
export function NewPortalPage() {
	const portals = useQuery(portalsQuery)
	const navigate = useNavigate()
	const count = portals.data?.portals.length ?? 0
	return (
		<PortalsLayout title="New portal" hasOthers={count > 0}>
			{portals.isPending ? (
				<Skeleton className="h-48 w-full" />
			) : (
				<FirstPortal isFirst={count === 0} onCreated={(portal) => navigate(portalPaths.setup(portal.id))} />
			)}
		</PortalsLayout>
	)
}
