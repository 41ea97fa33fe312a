import { billingIntervalSchema, planIdSchema } from '@blocksmith/contracts/subscriptions.ts'
import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { plansQuery, subscriptionQuery } from '../api/billing.ts'
import { changePlanParam } from '../lib/billing-paths.ts'
import { fingerprint, readBeforeStripe } from '../lib/stripe-return.ts'
import { ChangePlanDialog } from './change-plan-dialog.tsx'
import { InvoicesCard } from './invoices-card.tsx'
import { SubscriptionCard } from './subscription-card.tsx'
import { UsageCard } from './usage-meters.tsx'

/**
 * Settings → Billing: the plan and its state, usage against its limits, and invoices. Owners
 * and admins act on it; members read it. A link may open the change-plan dialog with a plan
 * preselected (`?tab=billing&dialog=change-plan&plan=pro&interval=year`).
 */
/** Back from Stripe (`&checkout=done`, `&portal=done`), its events may still be on their way. */
const returnMarkers = ['checkout', 'portal'] as const
const lookAgainEveryMs = 2000
const lookAgainForMs = 60_000

export function BillingSettings() {
	const [params, setParams] = useSearchParams()
	const isBackFromStripe = returnMarkers.some((marker) => params.get(marker) === 'done')
	// Read again until what Stripe can change differs from before the visit to Stripe (or from the
	// first read) and holds for one more read (Stripe sends several events), or a minute has passed.
	const [before] = useState(() => (isBackFromStripe ? readBeforeStripe() : null))
	const reads = useRef<{ first: string | null; previous: string | null }>({ first: before, previous: null })
	const [isLookingAgain, setLookingAgain] = useState(isBackFromStripe)
	const overview = useQuery({
		...subscriptionQuery,
		refetchInterval: isLookingAgain ? lookAgainEveryMs : false,
	})
	const plans = useQuery(plansQuery)
	const stopLooking = useCallback(() => {
		setLookingAgain(false)
		// A reload later starts from the subscription as it is.
		setParams(
			(current) => {
				const next = new URLSearchParams(current)
				for (const marker of returnMarkers) {
					next.delete(marker)
				}
				return next
			},
			{ replace: true },
		)
	}, [setParams])
	useEffect(() => {
		if (!isLookingAgain) {
			return
		}
		const timer = setTimeout(stopLooking, lookAgainForMs)
		return () => clearTimeout(timer)
	}, [isLookingAgain, stopLooking])
	const { data, dataUpdatedAt } = overview
	useEffect(() => {
		if (!(isLookingAgain && data && dataUpdatedAt)) {
			return
		}
		const seen = fingerprint(data)
		const { first, previous } = reads.current
		reads.current = { first: first ?? seen, previous: seen }
		if (first !== null && seen !== first && seen === previous) {
			stopLooking()
		}
	}, [isLookingAgain, data, dataUpdatedAt, stopLooking])

	const isChangePlanOpen = params.get(changePlanParam.dialog) === changePlanParam.value
	const initialPlan = planIdSchema.safeParse(params.get(changePlanParam.plan)).data
	const initialInterval = billingIntervalSchema.safeParse(params.get(changePlanParam.interval)).data
	const setChangePlanOpen = (open: boolean) =>
		setParams(
			(current) => {
				const next = new URLSearchParams(current)
				if (open) {
					next.set(changePlanParam.dialog, changePlanParam.value)
				} else {
					// The preselection was for this one opening.
					next.delete(changePlanParam.dialog)
					next.delete(changePlanParam.plan)
					next.delete(changePlanParam.interval)
				}
				return next
			},
			{ replace: true },
		)

	if (overview.isPending || plans.isPending) {
		return (
			<SkeletonGroup label="Loading billing…" className="grid gap-6">
				<Skeleton className="h-56" />
				<Skeleton className="h-48" />
			</SkeletonGroup>
		)
	}
	if (overview.isError || plans.isError) {
		return (
			<Alert
				variant="error"
				title="Billing could not be loaded"
				action={
					<Button
						variant="outline"
						size="sm"
						onClick={() => {
							void overview.refetch()
							void plans.refetch()
						}}
					>
						Try again
					</Button>
				}
			>
				{errorMessage(overview.error ?? plans.error)}
			</Alert>
		)
	}
	const { subscription, plan, usage, invoices, canManage } = overview.data
	return (
		<div className="grid gap-6">
			{canManage ? null : <Alert variant="info">Only owners and admins can change billing.</Alert>}
			{isLookingAgain ? (
				<Alert variant="info" title="Waiting for Stripe to confirm">
					Your changes on Stripe show here as soon as Stripe reports them, usually within seconds.
				</Alert>
			) : null}
			<SubscriptionCard
				subscription={subscription}
				plan={plan}
				plans={plans.data.plans}
				canManage={canManage}
				onChangePlan={() => setChangePlanOpen(true)}
			/>
			<UsageCard usage={usage} planName={plan.name} />
			<InvoicesCard invoices={invoices} provider={subscription.provider} />
			{canManage ? (
				<ChangePlanDialog
					open={isChangePlanOpen}
					onOpenChange={setChangePlanOpen}
					subscription={subscription}
					plans={plans.data.plans}
					initial={{ planId: initialPlan, interval: initialInterval }}
				/>
			) : null}
		</div>
	)
}
