import type { OrganizationDeletion } from '@blocksmith/contracts/data.ts'
import type { OrgDetails } from '@blocksmith/contracts/teams.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { LogOut, Trash2 } from 'lucide-react'
import { toast } from 'sonner'
import { Brand } from '#src/app/brand.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { signOut } from '#src/core/auth/api/account.ts'
import { OrganizationSwitcher } from '#src/core/teams/components/organization-switcher.tsx'
import { useSessionStore } from '#src/lib/session-context.tsx'
import { restoreOrganization } from '../api/data.ts'
import { ExportCard, formatDate } from './export-card.tsx'

/**
 * What the dashboard shows instead of its modules while the organization is scheduled for
 * deletion (its own chunk): when it goes, and the ways on — restoring it (owners), taking its
 * data (owners and admins), another organization or signing out (everyone).
 */
export default function DeletionPage({ org, deletion }: { org: OrgDetails; deletion: OrganizationDeletion }) {
	const queryClient = useQueryClient()
	const session = useSessionStore()
	const restore = useMutation({
		mutationFn: restoreOrganization,
		onSuccess: async () => {
			toast.success(`${org.name} was restored.`)
			// Everything read while it was being deleted was refused: read it all again.
			await queryClient.invalidateQueries()
		},
	})
	const isOwner = org.role === 'owner'
	const when = formatDate(deletion.purgeAfter)

	return (
		<div className="flex min-h-dvh flex-col items-center bg-muted/40 px-4 py-10">
			<div className="mb-8">
				<Brand />
			</div>
			<main id="main" className="grid w-full max-w-2xl gap-6">
				<div className="grid gap-4 rounded-xl border bg-card p-6 text-center shadow-sm sm:p-8">
					<Trash2 aria-hidden className="mx-auto size-10 text-error" />
					<h1 className="font-semibold text-xl tracking-tight">
						{org.name} is scheduled for deletion on {when}
					</h1>
					<p className="text-muted-foreground text-sm">
						{isOwner
							? `Its public forms, charts and portals are off. On ${when} everything in it is purged for good; until then you can restore it.`
							: `It is being deleted: its data is purged for good on ${when}. Switch to another organization, or sign out.`}
					</p>
					{isOwner ? (
						<div>
							<Button isLoading={restore.isPending} onClick={() => restore.mutate()}>
								Restore organization
							</Button>
						</div>
					) : null}
					<div className="mx-auto grid w-full max-w-xs gap-2">
						<OrganizationSwitcher />
						<Button
							variant="ghost"
							onClick={async () => {
								await signOut()
								session.clear()
							}}
						>
							<LogOut aria-hidden /> Sign out
						</Button>
					</div>
				</div>
				{org.role === 'member' ? null : <ExportCard />}
			</main>
		</div>
	)
}
