import type { OrgDetails } from '@blocksmith/contracts/teams.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { lazy, type ReactNode, Suspense } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { api } from '#src/lib/api-client.ts'
import { useSessionStore } from '#src/lib/session-context.tsx'

// Loaded after the page: the shell pays for this page's own chunk only.
const ExportCard = lazy(() => import('./export-card.tsx').then((module) => ({ default: module.ExportCard })))

type DeletionPageProps = {
	org: OrgDetails
	/** The shell's organization switcher: handed over, so the shell does not split it out for this page. */
	switcher: ReactNode
}

/**
 * What the dashboard shows instead of its modules while the organization is scheduled for
 * deletion (its own chunk): when it goes, and the ways on — restoring it (owners), taking its
 * data (owners and admins), another organization or signing out (everyone).
 */
export default function DeletionPage({ org, switcher }: DeletionPageProps) {
	const queryClient = useQueryClient()
	const session = useSessionStore()
	const restore = useMutation({
		// Here, not in api/data.ts: that module would be one more chunk for the shell to name (the bundle's budget).
		mutationFn: () => api('/dashboard/organization/restore', { json: {} }),
		onSuccess: async () => {
			toast.success(`${org.name} was restored.`)
			// Everything read while it was being deleted was refused: read it all again.
			await queryClient.invalidateQueries()
		},
	})
	const isOwner = org.role === 'owner'
	const when = new Date(org.deletion?.purgeAfter ?? '').toLocaleDateString(undefined, { dateStyle: 'medium' })

	return (
		<div className="flex min-h-dvh flex-col items-center gap-8 bg-muted/40 px-4 py-10">
			<main id="main" className="grid w-full max-w-2xl gap-6">
				<div className="grid gap-4 rounded-xl border bg-card p-6 text-center shadow-sm sm:p-8">
					<h1 className="font-semibold text-xl tracking-tight">
						{org.name} is scheduled for deletion on {when}
					</h1>
					<p className="text-muted-foreground text-sm">
						{isOwner
							? `Its public forms, charts and portals are off. On ${when} everything in it is purged for good; until then you can restore it, and choose a plan to start its subscription again.`
							: `It is being deleted: its data is purged for good on ${when}. Switch to another organization, or sign out.`}
					</p>
					{isOwner ? (
						<Button className="justify-self-center" isLoading={restore.isPending} onClick={() => restore.mutate()}>
							Restore organization
						</Button>
					) : null}
					<div className="mx-auto grid w-full max-w-xs gap-2 border-t pt-4">
						<p className="text-muted-foreground text-xs">Work in another organization</p>
						{switcher}
						<Button
							variant="ghost"
							onClick={async () => {
								// auth/api/account.ts's signOut, spelled out: importing it costs the shell of every
								// dashboard page bytes it has no room for (bench/web-bundle.bench.ts).
								await api('/api/auth/sign-out', { json: {}, isCredentialCheck: true }).catch(() => {})
								session.clear()
							}}
						>
							Sign out
						</Button>
					</div>
				</div>
				{org.role === 'member' ? null : (
					// No skeleton: one more chunk the shell would name for this page.
					<Suspense fallback={null}>
						<ExportCard />
					</Suspense>
				)}
			</main>
		</div>
	)
}
