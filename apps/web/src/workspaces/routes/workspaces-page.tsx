import type { Workspace } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Database, HardDrive, Sparkles } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { modules } from '#src/app/modules.ts'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#src/components/ui/card.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { createSampleWorkspace, workspaceKeys, workspacesQuery } from '../api/workspaces.ts'
import { ConnectNotionDialog, NewLocalWorkspaceDialog } from '../components/connect-dialogs.tsx'
import { ToolBadge, WorkspacePanel } from '../components/workspace-panel.tsx'

/** /workspaces: connected workspaces, and the selected one's databases and deliveries. */
export function WorkspacesPage() {
	const [params, setParams] = useSearchParams()
	const workspaces = useQuery(workspacesQuery)
	const queryClient = useQueryClient()
	const requested = params.get('workspace')
	const selected = workspaces.data?.find((workspace) => workspace.id === requested) ?? workspaces.data?.[0]

	function select(workspace: Workspace | undefined): void {
		setParams(workspace ? { workspace: workspace.id } : {}, { replace: true })
	}

	// Back from Notion's OAuth page: ?connected=<id> or ?error=<message>, said once, then tidied away.
	const handledReturn = useRef(false)
	useEffect(() => {
		const connected = params.get('connected')
		const error = params.get('error')
		if (handledReturn.current || (!connected && !error)) {
			return
		}
		handledReturn.current = true
		if (connected) {
			toast.success('Notion is connected. Its databases are syncing.')
			void queryClient.invalidateQueries({ queryKey: workspaceKeys.list })
			setParams({ workspace: connected }, { replace: true })
		} else if (error) {
			toast.error(`Notion was not connected: ${error}`)
			setParams({}, { replace: true })
		}
	}, [params, setParams, queryClient])

	const sample = useMutation({
		mutationFn: createSampleWorkspace,
		onSuccess: async (workspace) => {
			await queryClient.invalidateQueries({ queryKey: workspaceKeys.list })
			toast.success('Your sample workspace is ready: clients, projects, time entries, invoices and enquiries.')
			select(workspace)
		},
	})
	const sampleButton = (variant: 'primary' | 'outline') => (
		<Button variant={variant} isLoading={sample.isPending} onClick={() => sample.mutate()}>
			{sample.isPending ? null : <Sparkles aria-hidden />} Create a sample workspace
		</Button>
	)

	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="flex flex-wrap items-end justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="font-semibold text-2xl tracking-tight">Workspaces</h1>
					<p className="text-muted-foreground">The databases every module reads from and writes to.</p>
				</div>
				{workspaces.data?.length ? (
					<div className="flex flex-wrap gap-2">
						<NewLocalWorkspaceDialog onCreated={select} />
						<ConnectNotionDialog onConnected={select} />
					</div>
				) : null}
			</div>

			{workspaces.isPending ? (
				<SkeletonGroup label="Loading workspaces…" className="grid gap-4 lg:grid-cols-[16rem_1fr]">
					<Skeleton className="h-40" />
					<Skeleton className="h-64" />
				</SkeletonGroup>
			) : workspaces.data?.length ? (
				<div className="grid grid-cols-1 gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
					<div className="grid content-start gap-4">
						<nav aria-label="Workspaces">
							<ul className="grid gap-1.5">
								{workspaces.data.map((workspace) => {
									const isSelected = workspace.id === selected?.id
									return (
										<li key={workspace.id}>
											<button
												type="button"
												aria-current={isSelected ? 'true' : undefined}
												onClick={() => select(workspace)}
												className={cn(
													'grid w-full gap-1 rounded-lg border px-3 py-2.5 text-left transition-colors',
													'focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2',
													isSelected ? 'border-primary/40 bg-accent' : 'bg-card hover:bg-accent/50',
												)}
											>
												<span className="flex items-center gap-2 font-medium text-sm">
													{workspace.icon ? (
														<span aria-hidden>{workspace.icon}</span>
													) : workspace.tool === 'local' ? (
														<HardDrive aria-hidden className="size-4 text-muted-foreground" />
													) : (
														<Database aria-hidden className="size-4 text-muted-foreground" />
													)}
													<span className="truncate">{workspace.name}</span>
												</span>
												<span className="flex flex-wrap items-center gap-1.5 text-muted-foreground text-xs">
													<ToolBadge workspace={workspace} />
													{workspace.status === 'needs_reauth' ? <Badge variant="warning">Reconnect</Badge> : null}
													{workspace.databasesCount} {workspace.databasesCount === 1 ? 'database' : 'databases'}
												</span>
											</button>
										</li>
									)
								})}
							</ul>
						</nav>
						{workspaces.data.some((workspace) => workspace.name === 'Sample workspace') ? null : (
							<div className="grid gap-2 rounded-lg border border-dashed p-3 text-sm">
								<p className="text-muted-foreground">Want data to try the modules on?</p>
								{sampleButton('outline')}
							</div>
						)}
					</div>
					{selected ? (
						<WorkspacePanel key={selected.id} workspace={selected} onDisconnected={() => select(undefined)} />
					) : null}
				</div>
			) : (
				<Card className="border-dashed">
					<CardHeader>
						<div className="mb-2 flex size-11 items-center justify-center rounded-lg bg-primary/10 text-primary">
							<Sparkles aria-hidden className="size-5" />
						</div>
						<CardTitle asChild>
							<h2>Start with data</h2>
						</CardTitle>
						<CardDescription>
							Every module works on a workspace's databases. Try everything in one click with a sample workspace —
							clients, projects, time entries, invoices and enquiries, related to each other — or bring your own.
						</CardDescription>
					</CardHeader>
					<CardContent className="grid gap-5">
						<div className="flex flex-wrap gap-2">
							{sampleButton('primary')}
							<ConnectNotionDialog onConnected={select} />
							<NewLocalWorkspaceDialog onCreated={select} />
						</div>
						<ul className="flex flex-wrap gap-x-4 gap-y-1 text-muted-foreground text-xs">
							{modules.map(({ key, name, icon: Icon }) => (
								<li key={key} className="inline-flex items-center gap-1.5">
									<Icon aria-hidden className="size-3.5" /> {name}
								</li>
							))}
						</ul>
					</CardContent>
				</Card>
			)}
		</div>
	)
}
