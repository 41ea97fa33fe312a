import type { InvoiceProfile } from '@blocksmith/contracts/invoices.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Building2, Plus, Star, Trash2 } from 'lucide-react'
import { useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import { errorMessage } from '#src/lib/api-client.ts'
import { deleteProfile, invoiceKeys, profilesQuery, updateProfile } from '../api/invoices.ts'
import { InvoicesLayout } from '../components/invoices-nav.tsx'
import { ProfileEditor } from '../components/profile-editor.tsx'
import { StripeAccountSection } from '../components/stripe-account.tsx'

/**
 * /invoices/settings: the companies the organization bills from (`?profile=` picks one, `new`
 * starts one), each with its form and its designs' preview. The default profile is chosen first.
 */
export function InvoiceSettingsPage() {
	const profiles = useQuery(profilesQuery)
	const canEdit = useIsOwnerOrAdmin()
	const [search, setSearch] = useSearchParams()
	const chosen = search.get('profile')
	const choose = (id: string) => setSearch({ profile: id }, { replace: true })

	if (profiles.isPending || canEdit === undefined) {
		return (
			<InvoicesLayout title="Invoice settings">
				<SkeletonGroup label="Loading the invoice settings…" className="grid gap-3">
					<Skeleton className="h-10 w-64" />
					<Skeleton className="h-64 w-full" />
				</SkeletonGroup>
			</InvoicesLayout>
		)
	}
	if (profiles.isError) {
		return (
			<InvoicesLayout title="Invoice settings">
				<Alert variant="error" title="The settings could not be read">
					{errorMessage(profiles.error)}
				</Alert>
			</InvoicesLayout>
		)
	}
	const list = profiles.data
	const isNew = canEdit && (chosen === 'new' || list.length === 0)
	const profile = isNew ? null : (list.find((one) => one.id === chosen) ?? list.find((one) => one.isDefault) ?? list[0])

	return (
		<InvoicesLayout
			title="Invoice settings"
			description="The company you bill from: details, logo, money, tax rates, numbering and design."
		>
			<div className="grid gap-6 lg:grid-cols-[15rem_minmax(0,1fr)]">
				<aside className="grid content-start gap-2">
					<h2 className="font-medium text-muted-foreground text-sm">Profiles</h2>
					<ul aria-label="Profiles" className="grid gap-1">
						{list.map((one) => (
							<li key={one.id}>
								<button
									type="button"
									aria-current={one.id === profile?.id ? 'true' : undefined}
									onClick={() => choose(one.id)}
									className={cn(
										'grid w-full gap-0.5 rounded-md px-3 py-2 text-left text-sm hover:bg-muted',
										one.id === profile?.id && 'bg-muted font-medium',
									)}
								>
									<span className="flex items-center gap-2">
										<span className="truncate">{one.name}</span>
										{one.isDefault ? <Badge variant="primary">Default</Badge> : null}
									</span>
									<span className="truncate text-muted-foreground text-xs">
										{one.currency} · next {one.nextNumbers.invoice}
									</span>
								</button>
							</li>
						))}
					</ul>
					{canEdit ? (
						<Button variant="outline" size="sm" className="w-fit" onClick={() => choose('new')}>
							<Plus aria-hidden /> New profile
						</Button>
					) : null}
				</aside>
				<div className="grid min-w-0 content-start gap-4">
					{profile ? (
						<ProfileHeader profile={profile} canEdit={canEdit} onDeleted={() => setSearch({}, { replace: true })} />
					) : isNew ? (
						<div className="flex items-center gap-2">
							<Building2 aria-hidden className="size-5 text-muted-foreground" />
							<h2 className="font-semibold text-lg">{list.length === 0 ? 'Set up your company' : 'New profile'}</h2>
						</div>
					) : (
						<Alert title="No profile yet">
							An owner or admin of your organization sets up the company you bill from.
						</Alert>
					)}
					{profile || isNew ? (
						<ProfileEditor
							key={profile?.id ?? 'new'}
							profile={profile ?? null}
							isReadOnly={!canEdit}
							onCreated={(created) => choose(created.id)}
						/>
					) : null}
					{profile ? (
						<StripeAccountSection key={`stripe-${profile.id}`} profileId={profile.id} canEdit={canEdit} />
					) : null}
				</div>
			</div>
		</InvoicesLayout>
	)
}

function ProfileHeader({
	profile,
	canEdit,
	onDeleted,
}: {
	profile: InvoiceProfile
	canEdit: boolean
	onDeleted: () => void
}) {
	const queryClient = useQueryClient()
	const refresh = () => queryClient.invalidateQueries({ queryKey: invoiceKeys.profiles })
	const makeDefault = useMutation({
		mutationFn: () => updateProfile(profile.id, { isDefault: true }),
		onSuccess: async () => {
			await refresh()
			toast.success(`${profile.name} is now the default`)
		},
	})
	const remove = useMutation({
		mutationFn: () => deleteProfile(profile.id),
		onSuccess: async () => {
			onDeleted()
			await refresh()
			toast.success(`${profile.name} deleted`)
		},
	})
	return (
		<div className="flex flex-wrap items-center justify-between gap-3">
			<div className="flex items-center gap-2">
				<h2 className="font-semibold text-lg">{profile.name}</h2>
				{profile.isDefault ? <Badge variant="primary">Default</Badge> : null}
			</div>
			{canEdit ? (
				<div className="flex gap-2">
					{profile.isDefault ? null : (
						<Button variant="outline" size="sm" isLoading={makeDefault.isPending} onClick={() => makeDefault.mutate()}>
							<Star aria-hidden /> Make default
						</Button>
					)}
					<ConfirmDialog
						title={`Delete ${profile.name}?`}
						description="Its details, logo, tax rates and numbering go. A profile that already numbered invoices cannot be deleted."
						confirmLabel="Delete profile"
						isDestructive
						onConfirm={() => remove.mutateAsync()}
						trigger={
							<Button variant="ghost" size="sm">
								<Trash2 aria-hidden /> Delete
							</Button>
						}
					/>
				</div>
			) : null}
		</div>
	)
}
