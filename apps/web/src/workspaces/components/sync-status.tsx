import type { Database } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { RefreshCw } from 'lucide-react'
import { useEffect, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { isSyncing, syncDatabase, workspaceKeys } from '../api/workspaces.ts'
import { syncLabel } from '../lib/values.ts'

/** Re-renders every 30 s, so "3 min ago" stays true while the page is open. */
function useNow(): number {
	const [now, setNow] = useState(() => Date.now())
	useEffect(() => {
		const timer = setInterval(() => setNow(Date.now()), 30_000)
		return () => clearInterval(timer)
	}, [])
	return now
}

/** "Synced 3 min ago · next in 2 min", "Running…", and the last error in red. */
export function SyncStatus({ database, className }: { database: Database; className?: string }) {
	const now = useNow()
	const { sync } = database
	return (
		<div className={cn('grid gap-0.5 text-xs', className)}>
			<span
				className={cn('inline-flex items-center gap-1.5 text-muted-foreground', isSyncing(database) && 'text-info')}
				aria-live="polite"
			>
				{isSyncing(database) ? <RefreshCw aria-hidden className="size-3 animate-spin" /> : null}
				{syncLabel(sync, now)}
			</span>
			{sync.lastError ? <span className="text-error">{sync.lastError}</span> : null}
		</div>
	)
}

/** Asks for a sync now; the database lists poll while it is queued or running. */
export function SyncButton({ database, size = 'sm' }: { database: Database; size?: 'sm' | 'md' }) {
	const queryClient = useQueryClient()
	const sync = useMutation({
		mutationFn: syncDatabase,
		onSuccess: async (updated) => {
			queryClient.setQueryData(workspaceKeys.database(updated.tool, updated.id), updated)
			await queryClient.invalidateQueries({ queryKey: workspaceKeys.databases(updated.tool, updated.workspaceId) })
			toast.success(`Syncing ${updated.name}…`)
		},
	})
	return (
		<Button
			variant="outline"
			size={size}
			isLoading={sync.isPending}
			disabled={isSyncing(database)}
			onClick={() => sync.mutate({ tool: database.tool, id: database.id })}
		>
			{sync.isPending ? null : <RefreshCw aria-hidden />}
			Sync now
		</Button>
	)
}
