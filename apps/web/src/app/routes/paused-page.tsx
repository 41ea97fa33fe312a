import type { OrgDetails } from '@blocksmith/contracts/teams.ts'
import { CircleCheck, PauseCircle } from 'lucide-react'
import { type ReactNode, useEffect, useState } from 'react'
import { Link } from 'react-router'
import { Brand } from '#src/app/brand.tsx'
import { paths } from '#src/app/paths.ts'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { api } from '#src/lib/api-client.ts'
import { useSession } from '#src/lib/session-context.tsx'

type Subscription = Pick<OrgDetails, 'name' | 'subscriptionState'>

/**
 * Where a paused subscription leads: what it means, and the way back. It says "paused" only when
 * the organization's subscription is; otherwise there is nothing to resume, and it links home.
 */
export function PausedPage() {
	const { status } = useSession()
	const isSignedIn = status === 'authenticated'
	const [subscription, setSubscription] = useState<Subscription | 'unknown' | null>(null)
	useEffect(() => {
		if (!isSignedIn) {
			return
		}
		const controller = new AbortController()
		// Outside the dashboard's data layer (this page loads without React Query): one plain read.
		api<OrgDetails>('/dashboard/users/get_org_details', { signal: controller.signal }).then(
			(details) => setSubscription(details),
			() => setSubscription((current) => (controller.signal.aborted ? current : 'unknown')),
		)
		return () => controller.abort()
	}, [isSignedIn])

	if (!isSignedIn) {
		return (
			<PausedFrame icon={<PauseCircle aria-hidden className="mx-auto size-10 text-muted-foreground" />}>
				<h1 className="font-semibold text-xl tracking-tight">Subscription</h1>
				<p className="text-muted-foreground text-sm">Sign in to see whether your subscription is paused.</p>
				<Button asChild>
					<Link to={`${paths.login}?next=${encodeURIComponent(paths.paused)}`}>Sign in</Link>
				</Button>
			</PausedFrame>
		)
	}
	if (subscription === null) {
		return (
			<PausedFrame>
				<Skeleton className="mx-auto h-7 w-2/3" />
				<Skeleton className="h-16" />
			</PausedFrame>
		)
	}
	if (subscription !== 'unknown' && subscription.subscriptionState === 'paused') {
		return (
			<PausedFrame icon={<PauseCircle aria-hidden className="mx-auto size-10 text-muted-foreground" />}>
				<h1 className="font-semibold text-xl tracking-tight">Your subscription is paused</h1>
				<p className="text-muted-foreground text-sm">
					While it is paused, your forms stop accepting answers and your portals and chart embeds are hidden. Your data
					is kept safe, and everything comes back the moment you resume.
				</p>
				<p className="text-muted-foreground text-sm">An owner of {subscription.name} can resume it in the settings.</p>
				<Button asChild>
					<Link to={paths.settings}>Go to settings</Link>
				</Button>
			</PausedFrame>
		)
	}
	return (
		<PausedFrame icon={<CircleCheck aria-hidden className="mx-auto size-10 text-success" />}>
			<h1 className="font-semibold text-xl tracking-tight">Nothing to resume</h1>
			<p className="text-muted-foreground text-sm">
				{subscription === 'unknown'
					? 'We could not read your subscription just now. If it were paused, the app would tell you.'
					: `${subscription.name}'s subscription is not paused: ${stateInWords[subscription.subscriptionState]}.`}
			</p>
			<Button asChild>
				<Link to={paths.home}>Go to Blocksmith</Link>
			</Button>
		</PausedFrame>
	)
}

const stateInWords: Record<OrgDetails['subscriptionState'], string> = {
	trialing: 'it is on its free trial and everything works',
	active: 'it is active and everything works',
	paused: 'it is paused',
	past_due: 'a payment is overdue, so check the billing details in the settings',
	canceled: 'it was canceled',
}

function PausedFrame({ icon, children }: { icon?: ReactNode; children: ReactNode }) {
	return (
		<div className="flex min-h-dvh flex-col items-center justify-center bg-muted/40 px-4 py-10">
			<Link to={paths.home} className="mb-8">
				<Brand />
			</Link>
			<main className="grid w-full max-w-md gap-5 rounded-xl border bg-card p-8 text-center shadow-sm">
				{icon}
				{children}
			</main>
		</div>
	)
}
