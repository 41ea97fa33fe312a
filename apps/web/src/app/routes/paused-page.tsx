import type { OrgDetails } from '@blocksmith/contracts/teams.ts'
import { useQuery } from '@tanstack/react-query'
import { CircleCheck, PauseCircle } from 'lucide-react'
import { lazy, type ReactNode, Suspense, useState } from 'react'
import { Link } from 'react-router'
import { Brand } from '#src/app/brand.tsx'
import { paths } from '#src/app/paths.ts'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { PausedExplanation } from '#src/core/billing/components/paused-explanation.tsx'
import { isInactive } from '#src/core/billing/lib/billing-state.ts'
import { orgDetailsQuery } from '#src/core/teams/api/teams.ts'
import { useSession } from '#src/lib/session-context.tsx'

/**
 * Where the dashboard sends an organization whose subscription is paused, past due or canceled:
 * what happened, and the way back. Under the data layout, so an action here (Resume) and the
 * dashboard's gate read the same organization details, and the way back opens at once.
 */
export function PausedPage() {
	const { status } = useSession()
	if (status !== 'authenticated') {
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
	return <SignedInPausedPage />
}

function SignedInPausedPage() {
	const org = useQuery({ ...orgDetailsQuery, meta: { isErrorShownInPage: true } })
	if (org.isPending) {
		return (
			<PausedFrame>
				<Skeleton className="mx-auto h-7 w-2/3" />
				<Skeleton className="h-16" />
			</PausedFrame>
		)
	}
	if (org.data && isInactive(org.data.subscriptionState)) {
		return (
			<PausedFrame icon={<PauseCircle aria-hidden className="mx-auto size-10 text-muted-foreground" />}>
				<PausedExplanation org={org.data} />
				<YourData />
			</PausedFrame>
		)
	}
	return (
		<PausedFrame icon={<CircleCheck aria-hidden className="mx-auto size-10 text-success" />}>
			<h1 className="font-semibold text-xl tracking-tight">Nothing to resume</h1>
			<p className="text-muted-foreground text-sm">
				{org.data
					? `${org.data.name}'s subscription ${stateInWords[org.data.subscriptionState]}.`
					: 'We could not read your subscription just now. If it were paused, the app would tell you.'}
			</p>
			<Button asChild>
				<Link to={paths.home}>Go to the dashboard</Link>
			</Button>
		</PausedFrame>
	)
}

const PausedExports = lazy(() => import('./paused-exports.tsx'))

/** The team's data, downloadable while the dashboard is closed: opened on demand. */
function YourData() {
	const [isOpen, setIsOpen] = useState(false)
	return (
		<details
			className="rounded-lg border px-4 py-3 text-left"
			onToggle={(event) => setIsOpen((event.target as HTMLDetailsElement).open)}
		>
			<summary className="cursor-pointer font-medium text-sm">Download your data</summary>
			<p className="mt-2 text-muted-foreground text-sm">Every database and every form's answers, as CSV files.</p>
			{isOpen ? (
				<div className="mt-3">
					<Suspense fallback={<Skeleton className="h-8" />}>
						<PausedExports />
					</Suspense>
				</div>
			) : null}
		</details>
	)
}

const stateInWords: Record<OrgDetails['subscriptionState'], string> = {
	trialing: 'is on its free trial and everything works',
	active: 'is active and everything works',
	paused: 'is paused',
	past_due: 'has a payment overdue',
	canceled: 'was canceled',
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
