import type { BillingInterval, Plan } from '@blocksmith/contracts/subscriptions.ts'
import { useQuery } from '@tanstack/react-query'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { Brand } from '#src/app/brand.tsx'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { plansQuery } from '#src/core/billing/api/billing.ts'
import { IntervalSwitch } from '#src/core/billing/components/interval-switch.tsx'
import { PlanCards } from '#src/core/billing/components/plan-cards.tsx'
import { PlanComparison } from '#src/core/billing/components/plan-comparison.tsx'
import { StartSubscriptionDialog } from '#src/core/billing/components/start-subscription-dialog.tsx'
import { bestYearlySavingPercent } from '#src/core/billing/lib/billing-format.ts'
import { changePlanPath } from '#src/core/billing/lib/billing-paths.ts'
import { errorMessage } from '#src/lib/api-client.ts'
import { useSession } from '#src/lib/session-context.tsx'

/**
 * The plans, for anyone. Signed in, a plan's button opens Settings → Billing's change-plan dialog
 * with it preselected; signed out, a short form starts the subscription (and the account).
 */
export function PricingPage() {
	const { status } = useSession()
	const isSignedIn = status === 'authenticated'
	const catalogue = useQuery(plansQuery)
	const [interval, setBillingInterval] = useState<BillingInterval>('month')
	const [chosen, setChosen] = useState<Plan | null>(null)
	const navigate = useNavigate()

	const choose = (plan: Plan) => {
		if (isSignedIn) {
			void navigate(changePlanPath({ planId: plan.id, interval }))
		} else {
			setChosen(plan)
		}
	}

	return (
		<div className="min-h-dvh bg-muted/40">
			<header className="mx-auto flex max-w-6xl items-center justify-between gap-4 px-4 py-5 sm:px-6">
				<Link to={paths.home} className="rounded-md focus-visible:outline-2 focus-visible:outline-ring">
					<Brand />
				</Link>
				{isSignedIn ? (
					<Button asChild variant="outline" size="sm">
						<Link to={paths.home}>Go to the dashboard</Link>
					</Button>
				) : (
					<Button asChild variant="outline" size="sm">
						<Link to={paths.login}>Sign in</Link>
					</Button>
				)}
			</header>
			<main className="mx-auto grid max-w-6xl gap-10 px-4 pt-6 pb-16 sm:px-6">
				<div className="grid justify-items-center gap-3 text-center">
					<h1 className="font-semibold text-3xl tracking-tight">Plans and pricing</h1>
					{catalogue.data && catalogue.data.trialDays > 0 ? (
						<p className="text-lg text-muted-foreground">{catalogue.data.trialDays}-day free trial, no card needed.</p>
					) : null}
					{catalogue.data ? (
						<IntervalSwitch
							className="mt-3"
							value={interval}
							onChange={setBillingInterval}
							savingPercent={bestYearlySavingPercent(catalogue.data.plans)}
						/>
					) : null}
				</div>
				{catalogue.isPending ? (
					<SkeletonGroup label="Loading the plans…" className="grid gap-4 md:grid-cols-3">
						<Skeleton className="h-72" />
						<Skeleton className="h-72" />
						<Skeleton className="h-72" />
					</SkeletonGroup>
				) : catalogue.isError ? (
					<Alert
						variant="error"
						title="The plans could not be loaded"
						action={
							<Button variant="outline" size="sm" onClick={() => void catalogue.refetch()}>
								Try again
							</Button>
						}
					>
						{errorMessage(catalogue.error)}
					</Alert>
				) : (
					<>
						<PlanCards
							plans={catalogue.data.plans}
							interval={interval}
							action={(plan) => (
								<Button
									className="w-full"
									variant={plan.isHighlighted ? 'primary' : 'outline'}
									onClick={() => choose(plan)}
								>
									Choose {plan.name}
								</Button>
							)}
						/>
						<section aria-labelledby="compare" className="grid gap-4">
							<h2 id="compare" className="font-semibold text-xl tracking-tight">
								Compare the plans
							</h2>
							<PlanComparison plans={catalogue.data.plans} />
						</section>
						<StartSubscriptionDialog
							plan={chosen}
							interval={interval}
							catalogue={catalogue.data}
							onClose={() => setChosen(null)}
						/>
					</>
				)}
			</main>
		</div>
	)
}
