import type { Portal } from '@blocksmith/contracts/portals.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { RefreshCw } from 'lucide-react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { isSyncing, jobTimerQuery, portalKeys, refreshPortal } from '../api/portals.ts'
import { formatNear, formatWhen } from '../lib/format.ts'
import { Section } from './branding-section.tsx'

/**
 * Pages read the mirror of the workspace, never Notion on a member's visit: when it was last
 * read, when next, whether a sync runs now (polled until it ends), and "Refresh now".
 */
export function FreshnessSection({ portal }: { portal: Portal }) {
	if (portal.tool === 'local') {
		// Built-in databases are the data itself: nothing to sync, nothing to refresh.
		return (
			<Section id="freshness" title="Freshness">
				<p className="text-muted-foreground text-sm">
					This portal’s databases are built in: members see each change as soon as it is saved, with no sync to wait
					for.
				</p>
			</Section>
		)
	}
	return <NotionFreshness portal={portal} />
}

function NotionFreshness({ portal }: { portal: Portal }) {
	const queryClient = useQueryClient()
	const timer = useQuery({ ...jobTimerQuery(portal.tool, portal.id), meta: { isErrorShownInPage: true } })
	const refresh = useMutation({
		mutationFn: () => refreshPortal(portal.tool, portal.id),
		onSuccess: (next) => queryClient.setQueryData(portalKeys.jobTimer(portal.tool, portal.id), next),
	})
	const data = timer.data
	const isRunning = isSyncing(data) || refresh.isPending
	const now = Date.now()
	return (
		<Section
			id="freshness"
			title="Freshness"
			description="Members see your data as of the last sync of these databases."
		>
			{timer.isPending ? (
				<Skeleton className="h-16 w-full" />
			) : timer.isError ? (
				<Alert variant="error" title="The sync state could not be read">
					{errorMessage(timer.error)}
				</Alert>
			) : (
				<>
					<dl className="grid gap-3 text-sm sm:grid-cols-3">
						<div className="grid gap-0.5">
							<dt className="text-muted-foreground">Last synced</dt>
							<dd title={formatWhen(data?.lastSyncedAt)}>{formatNear(data?.lastSyncedAt, now)}</dd>
						</div>
						<div className="grid gap-0.5">
							<dt className="text-muted-foreground">Next sync</dt>
							<dd title={formatWhen(data?.nextSyncAt, 'Not planned')}>
								{formatNear(data?.nextSyncAt, now, 'Not planned')}
							</dd>
						</div>
						<div className="grid gap-0.5">
							<dt className="text-muted-foreground">Now</dt>
							<dd aria-live="polite" className="flex items-center gap-1.5">
								{isRunning ? (
									<>
										<Spinner size="sm" /> Syncing…
									</>
								) : (
									'Idle'
								)}
							</dd>
						</div>
					</dl>
					{data && data.databases.length > 0 ? (
						<ul aria-label="Databases of the portal" className="grid gap-1.5">
							{data.databases.map((database) => (
								<li key={database.id} className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm">
									<span className="font-medium">{database.name}</span>
									<span className="text-muted-foreground">{formatNear(database.lastSyncedAt, now)}</span>
									{database.state === 'idle' ? null : (
										<Badge variant="primary">{database.state === 'running' ? 'Running' : 'Queued'}</Badge>
									)}
									{database.lastError ? (
										<span className="basis-full text-error text-xs">Last sync failed: {database.lastError}</span>
									) : null}
								</li>
							))}
						</ul>
					) : (
						<p className="text-muted-foreground text-sm">Add a page to have something to sync.</p>
					)}
				</>
			)}
			<Button
				variant="outline"
				size="sm"
				className="w-fit"
				isLoading={refresh.isPending}
				disabled={isRunning || !data || data.databases.length === 0}
				onClick={() => refresh.mutate()}
			>
				{refresh.isPending ? null : <RefreshCw aria-hidden />} Refresh now
			</Button>
		</Section>
	)
}
