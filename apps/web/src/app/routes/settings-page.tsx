import { lazy, Suspense } from 'react'
import { useSearchParams } from 'react-router'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { Tabs, TabsContent, TabsList, TabsTrigger } from '#src/components/ui/tabs.tsx'
import { ProfileSettings } from '#src/core/auth/components/profile-settings.tsx'
import { InvitationsPanel, MembersPanel, OrganizationSettings } from '#src/core/teams/components/team-settings.tsx'

// Its own chunk: most visits to Settings never open Billing.
const BillingSettings = lazy(() =>
	import('#src/core/billing/components/billing-settings.tsx').then((module) => ({ default: module.BillingSettings })),
)

// Password & sessions too: loaded with its tab, it made room in /settings' budget for issue 20's Data tab.
const PasswordSettings = lazy(() =>
	import('#src/core/auth/components/security-settings.tsx').then((module) => ({ default: module.PasswordSettings })),
)
const SessionSettings = lazy(() =>
	import('#src/core/auth/components/security-settings.tsx').then((module) => ({ default: module.SessionSettings })),
)
// Your data (issue 20): their own chunks too, loaded with their tab.
const DataSettings = lazy(() => import('#src/core/your-data/components/data-settings.tsx'))
const DeleteAccountCard = lazy(() => import('#src/core/your-data/components/delete-account.tsx'))

const tabs = [
	{ value: 'profile', label: 'Profile' },
	{ value: 'security', label: 'Password & sessions' },
	{ value: 'organization', label: 'Organization' },
	{ value: 'members', label: 'Members' },
	{ value: 'billing', label: 'Billing' },
	{ value: 'data', label: 'Data' },
] as const
type Tab = (typeof tabs)[number]['value']

export function SettingsPage() {
	const [params, setParams] = useSearchParams()
	const requested = params.get('tab')
	const tab: Tab = tabs.some((candidate) => candidate.value === requested) ? (requested as Tab) : 'profile'

	return (
		// One column that may shrink below its content (grid-cols-1 is minmax(0, 1fr)): the tab list
		// scrolls sideways on a phone instead of widening the whole page.
		<div className="grid grid-cols-1 gap-6">
			<h1 className="font-semibold text-2xl tracking-tight">Settings</h1>
			<Tabs value={tab} onValueChange={(value) => setParams({ tab: value }, { replace: true })}>
				<TabsList className="max-w-full overflow-x-auto">
					{tabs.map(({ value, label }) => (
						<TabsTrigger key={value} value={value}>
							{label}
						</TabsTrigger>
					))}
				</TabsList>
				<TabsContent value="profile" className="grid gap-6 pt-6">
					<ProfileSettings />
					<Suspense fallback={<Skeleton className="h-32" />}>
						<DeleteAccountCard />
					</Suspense>
				</TabsContent>
				<TabsContent value="security" className="pt-6">
					<Suspense fallback={<Skeleton className="h-56" />}>
						<div className="grid gap-6">
							<PasswordSettings />
							<SessionSettings />
						</div>
					</Suspense>
				</TabsContent>
				<TabsContent value="organization" className="pt-6">
					<OrganizationSettings />
				</TabsContent>
				<TabsContent value="members" className="grid gap-6 pt-6">
					<MembersPanel />
					<InvitationsPanel />
				</TabsContent>
				<TabsContent value="billing" className="pt-6">
					<Suspense fallback={<Skeleton className="h-56" />}>
						<BillingSettings />
					</Suspense>
				</TabsContent>
				<TabsContent value="data" className="pt-6">
					<Suspense fallback={<Skeleton className="h-56" />}>
						<DataSettings />
					</Suspense>
				</TabsContent>
			</Tabs>
		</div>
	)
}
