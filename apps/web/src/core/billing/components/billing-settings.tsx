import { billingIntervalSchema, planIdSchema } from '@blocksmith/contracts/subscriptions.ts'
import { useQuery } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { plansQuery, subscriptionQuery } from '../api/billing.ts'
import { changePlanParam } from '../lib/billing-paths.ts'
import { ChangePlanDialog } from './change-plan-dialog.tsx'
import { InvoicesCard } from './invoices-card.tsx'
import { SubscriptionCard } from './subscription-card.tsx'
import { UsageCard } from './usage-meters.tsx'

/**
 * Settings → Billing: the plan and its state, usage against its limits, and invoices. Owners
 * and admins act on it; members read it. A link may open the change-plan dialog with a plan
 * preselected (`?tab=billing&dialog=change-plan&plan=pro&interval=year`).
 */
export function BillingSettings() {
	const overview = useQuery(subscriptionQuery)
	const plans = useQuery(plansQuery)
	const [params, setParams] = useSearchParams()
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
