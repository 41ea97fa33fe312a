import { type BillingInterval, limitLabels, type Plan, type Subscription } from '@blocksmith/contracts/subscriptions.ts'
import { useId, useState } from 'react'
import { Link } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Dialog, DialogContent, DialogFooter } from '#src/components/ui/dialog.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { updatePlan } from '../api/billing.ts'
import { useSubscriptionAction } from '../hooks/use-subscription-action.ts'
import {
	bestYearlySavingPercent,
	changeDirection,
	formatDate,
	formatLimit,
	intervalAdverb,
	type PlanChoice,
} from '../lib/billing-format.ts'
import { IntervalSwitch } from './interval-switch.tsx'
import { PlanPrice } from './plan-price.tsx'

/** The limits each option shows; the pricing page compares them all. */
const keyLimits = ['members', 'forms', 'submissionsPerMonth', 'fileStorageBytes'] as const

type ChangePlanDialogProps = {
	open: boolean
	onOpenChange: (open: boolean) => void
	subscription: Subscription
	plans: readonly Plan[]
	/** Preselected (from the pricing page or an Upgrade link); the current plan otherwise. */
	initial: Partial<PlanChoice>
}

export function ChangePlanDialog({ open, onOpenChange, subscription, plans, initial }: ChangePlanDialogProps) {
	return (
		<Dialog open={open} onOpenChange={onOpenChange}>
			<DialogContent
				title="Change plan"
				description="Compare the plans, then confirm your choice."
				size="lg"
				// On the chosen plan, not on the first control: the interval's first option would
				// look chosen under its focus ring.
				onOpenAutoFocus={(event) => {
					const chosen = (event.currentTarget as HTMLElement).querySelector<HTMLElement>('input[name="plan"]:checked')
					if (chosen) {
						event.preventDefault()
						chosen.focus()
					}
				}}
			>
				{/* Mounted while open only: each opening starts from the preselection. */}
				<ChangePlanForm
					subscription={subscription}
					plans={plans}
					initial={initial}
					onDone={() => onOpenChange(false)}
				/>
			</DialogContent>
		</Dialog>
	)
}

function ChangePlanForm({
	subscription,
	plans,
	initial,
	onDone,
}: Omit<ChangePlanDialogProps, 'open' | 'onOpenChange'> & { onDone: () => void }) {
	const current: PlanChoice = { planId: subscription.planId, interval: subscription.interval }
	const [choice, setChoice] = useState<PlanChoice>({
		planId: initial.planId ?? current.planId,
		interval: initial.interval ?? current.interval,
	})
	const change = useSubscriptionAction((next: PlanChoice) => updatePlan(subscription.provider, next), {
		isErrorShownInPage: true,
		onDone,
	})
	const chosen = plans.find((plan) => plan.id === choice.planId)
	const direction = changeDirection(plans, current, choice)
	// A trial that ended, or a canceled subscription, starts again on the current plan too.
	const isRestart =
		subscription.status === 'canceled' ||
		(subscription.status === 'paused' && subscription.pauseReason === 'trial_ended')
	const isUnchanged = direction === 'same' && !isRestart
	const choose = (next: PlanChoice) => {
		setChoice(next)
		change.reset()
	}

	return (
		<form
			className="grid gap-5"
			onSubmit={(event) => {
				event.preventDefault()
				change.mutate(choice)
			}}
		>
			<IntervalSwitch
				value={choice.interval}
				onChange={(interval) => choose({ ...choice, interval })}
				savingPercent={bestYearlySavingPercent(plans)}
			/>
			<fieldset className="grid gap-3 sm:grid-cols-3">
				<legend className="sr-only">Plan</legend>
				{plans.map((plan) => (
					<PlanOption
						key={plan.id}
						plan={plan}
						interval={choice.interval}
						isChecked={plan.id === choice.planId}
						isCurrent={plan.id === current.planId && choice.interval === current.interval}
						onCheck={() => choose({ ...choice, planId: plan.id })}
					/>
				))}
			</fieldset>
			<p className="text-muted-foreground text-xs">
				<Link to={paths.pricing} className="text-link underline">
					Compare every limit
				</Link>{' '}
				on the pricing page.
			</p>
			{chosen ? (
				<p className="rounded-lg border bg-muted/40 px-4 py-3 text-sm">
					{consequence(subscription, chosen, choice.interval, direction, isRestart)}
				</p>
			) : null}
			{change.isError ? (
				<Alert variant="error" title="The plan was not changed">
					{errorMessage(change.error)}
				</Alert>
			) : null}
			<DialogFooter>
				<Button variant="outline" onClick={onDone}>
					Cancel
				</Button>
				<Button type="submit" isLoading={change.isPending} disabled={isUnchanged || !chosen}>
					{isUnchanged
						? 'Current plan'
						: confirmLabel(chosen?.name ?? '', direction, subscription.status === 'trialing' || isRestart)}
				</Button>
			</DialogFooter>
		</form>
	)
}

function PlanOption({
	plan,
	interval,
	isChecked,
	isCurrent,
	onCheck,
}: {
	plan: Plan
	interval: BillingInterval
	isChecked: boolean
	isCurrent: boolean
	onCheck: () => void
}) {
	const id = useId()
	return (
		// The label's ::after covers the card, so a click anywhere on it chooses the plan, while the
		// label itself holds only the name (a label may not hold the price's blocks and list).
		<div
			className={cn(
				'relative grid content-start gap-3 rounded-lg border p-4 transition-colors hover:bg-accent/40',
				'has-checked:border-primary has-checked:bg-primary/5 has-checked:ring-1 has-checked:ring-primary',
				'has-focus-visible:outline-2 has-focus-visible:outline-ring has-focus-visible:outline-offset-2',
			)}
		>
			<div className="flex flex-wrap items-center gap-2">
				<input
					id={id}
					type="radio"
					name="plan"
					aria-describedby={`${id}-details`}
					checked={isChecked}
					onChange={onCheck}
					className="sr-only"
				/>
				<label htmlFor={id} className="cursor-pointer font-semibold after:absolute after:inset-0">
					{plan.name}
				</label>
				{isCurrent ? <Badge variant="outline">Current plan</Badge> : null}
			</div>
			<div id={`${id}-details`} className="grid gap-3">
				<PlanPrice plan={plan} interval={interval} isCompact />
				<ul className="grid gap-1 text-muted-foreground text-xs">
					{keyLimits.map((key) => (
						<li key={key}>
							{limitLabels[key].name}: <span className="text-foreground">{formatLimit(key, plan.limits[key])}</span>
						</li>
					))}
				</ul>
			</div>
		</div>
	)
}

function confirmLabel(name: string, direction: 'same' | 'upgrade' | 'downgrade', isStart: boolean): string {
	if (isStart) {
		return `Choose ${name}`
	}
	if (direction === 'upgrade') {
		return `Upgrade to ${name}`
	}
	return direction === 'downgrade' ? `Switch to ${name}` : 'Current plan'
}

/** What confirming does, and when: the user must know before any money moves. */
function consequence(
	subscription: Subscription,
	plan: Plan,
	interval: BillingInterval,
	direction: 'same' | 'upgrade' | 'downgrade',
	isRestart: boolean,
): string {
	const billed = `billed ${intervalAdverb[interval]}`
	if (isRestart) {
		return `Your subscription starts now on ${plan.name}, ${billed}.`
	}
	if (subscription.status === 'trialing') {
		const end = subscription.trialEndsAt ? ` on ${formatDate(subscription.trialEndsAt)}` : ''
		return `Your trial continues on ${plan.name}, with its limits. Nothing is charged until the trial ends${end}; then ${plan.name} is ${billed}.`
	}
	if (direction === 'same') {
		return `You are on ${plan.name}, ${billed}, already.`
	}
	if (direction === 'upgrade') {
		return `${plan.name} starts now, prorated: you pay the difference for the rest of this period, then ${plan.name} is ${billed}.`
	}
	const end = subscription.currentPeriodEnd ? `, on ${formatDate(subscription.currentPeriodEnd)}` : ''
	return `You keep your current plan until the end of the period${end}; ${plan.name}, ${billed}, starts then.`
}
