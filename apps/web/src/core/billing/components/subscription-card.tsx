import type { Plan, Subscription } from '@blocksmith/contracts/subscriptions.ts'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import {
	Card,
	CardAction,
	CardContent,
	CardDescription,
	CardFooter,
	CardHeader,
	CardTitle,
} from '#src/components/ui/card.tsx'
import { formatDate, formatMoney, intervalAdverb } from '../lib/billing-format.ts'
import { DontCancelButton, ResumeButton, UpdatePaymentButton } from './action-buttons.tsx'
import { SubscriptionStatusBadge } from './status-badge.tsx'
import { CancelSubscriptionButton, EndTrialButton, endOfTerm, PauseButton } from './subscription-actions.tsx'

type SubscriptionCardProps = {
	subscription: Subscription
	plan: Plan
	/** Every plan, for the name of a pending change. */
	plans: readonly Plan[]
	canManage: boolean
	onChangePlan: () => void
}

/** The plan, its state and dates, what comes next, and (owners and admins) what can be done. */
export function SubscriptionCard({ subscription, plan, plans, canManage, onChangePlan }: SubscriptionCardProps) {
	const { status } = subscription
	const end = endOfTerm(subscription)
	const isRestartable = status === 'canceled' || (status === 'paused' && subscription.pauseReason === 'trial_ended')
	const pendingPlan = subscription.pendingChange
		? (plans.find((candidate) => candidate.id === subscription.pendingChange?.planId)?.name ??
			subscription.pendingChange.planId)
		: null

	return (
		<Card>
			<CardHeader>
				<CardTitle className="flex flex-wrap items-center gap-2">
					{plan.name} plan
					<SubscriptionStatusBadge status={status} trialEndsAt={subscription.trialEndsAt} />
				</CardTitle>
				<CardDescription>{plan.description}</CardDescription>
				{canManage && status !== 'past_due' && !(status === 'paused' && !isRestartable) ? (
					<CardAction>
						<Button variant={isRestartable ? 'primary' : 'outline'} onClick={onChangePlan}>
							{isRestartable ? 'Choose a plan' : 'Change plan'}
						</Button>
					</CardAction>
				) : null}
			</CardHeader>
			<CardContent className="grid gap-4">
				<StateNotice subscription={subscription} canManage={canManage} />
				{subscription.cancelAtPeriodEnd && status !== 'canceled' ? (
					<Alert
						variant="warning"
						title={end ? `Cancels on ${formatDate(end)}` : 'Cancels at the end of the period'}
						action={canManage ? <DontCancelButton subscription={subscription} /> : null}
					>
						Everything works until then. Nothing is deleted afterwards.
					</Alert>
				) : null}
				{subscription.pendingChange ? (
					<Alert variant="info" title={`Switches to ${pendingPlan} on ${formatDate(subscription.pendingChange.at)}`}>
						Billed {intervalAdverb[subscription.pendingChange.interval]} from then; until then the {plan.name} plan's
						limits apply.
					</Alert>
				) : null}
				<dl className="grid gap-x-8 gap-y-3 text-sm sm:grid-cols-2">
					<Detail label="Billing">
						{formatMoney(plan.prices[subscription.interval], plan.currency)} {intervalAdverb[subscription.interval]}
					</Detail>
					{status === 'trialing' && subscription.trialEndsAt ? (
						<Detail label="Trial ends">{formatDate(subscription.trialEndsAt)}</Detail>
					) : null}
					{status !== 'trialing' && status !== 'canceled' && subscription.currentPeriodEnd ? (
						<Detail label={subscription.cancelAtPeriodEnd ? 'Ends on' : 'Current period ends'}>
							{formatDate(subscription.currentPeriodEnd)}
						</Detail>
					) : null}
					{status === 'canceled' && subscription.canceledAt ? (
						<Detail label="Canceled on">{formatDate(subscription.canceledAt)}</Detail>
					) : null}
					{subscription.nextInvoice ? (
						<Detail label="Next invoice">
							{formatMoney(subscription.nextInvoice.amount, subscription.nextInvoice.currency)} on{' '}
							{formatDate(subscription.nextInvoice.at)}
						</Detail>
					) : null}
					<Detail label="Payment method">
						<span className="flex flex-wrap items-center gap-3">
							{subscription.paymentMethod?.label ??
								(subscription.provider === 'local' ? 'Handled by this installation' : 'None yet')}
							{canManage && status !== 'canceled' && status !== 'past_due' ? <UpdatePaymentButton /> : null}
						</span>
					</Detail>
				</dl>
			</CardContent>
			<CardFooter className="flex-wrap">
				{canManage ? (
					<>
						{status === 'trialing' && !subscription.cancelAtPeriodEnd ? (
							<EndTrialButton subscription={subscription} plan={plan} />
						) : null}
						{status === 'active' && !subscription.cancelAtPeriodEnd ? <PauseButton /> : null}
						{status === 'paused' && subscription.pauseReason === 'requested' ? <ResumeButton /> : null}
						{status !== 'canceled' && !subscription.cancelAtPeriodEnd ? (
							<CancelSubscriptionButton subscription={subscription} />
						) : null}
					</>
				) : null}
				<Button asChild variant="link" className="ml-auto">
					<Link to={paths.pricing}>Pricing</Link>
				</Button>
			</CardFooter>
		</Card>
	)
}

/** What a state other than a running one means, and the way out of it. */
function StateNotice({ subscription, canManage }: { subscription: Subscription; canManage: boolean }) {
	switch (subscription.status) {
		case 'past_due':
			return (
				<Alert
					variant="error"
					title="A payment failed"
					action={canManage ? <UpdatePaymentButton variant="primary" /> : null}
				>
					The last payment did not go through. The dashboard is closed until the payment details are updated; nothing is
					deleted.
				</Alert>
			)
		case 'paused':
			return subscription.pauseReason === 'trial_ended' ? (
				<Alert variant="warning" title="The trial has ended">
					No plan was chosen before the trial ended. Choose one to open the dashboard again; nothing is deleted.
				</Alert>
			) : (
				<Alert variant="warning" title="Paused">
					{subscription.pausedAt ? `Paused since ${formatDate(subscription.pausedAt)}. ` : ''}
					{subscription.resumesAt
						? `Resumes by itself on ${formatDate(subscription.resumesAt)}.`
						: 'Paused until someone resumes it.'}{' '}
					Nothing is billed meanwhile.
				</Alert>
			)
		case 'canceled':
			return (
				<Alert variant="warning" title="The subscription has ended">
					Choose a plan to start again; everything your team made is still here.
				</Alert>
			)
		default:
			return null
	}
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
	return (
		<div className="grid gap-0.5">
			<dt className="text-muted-foreground">{label}</dt>
			<dd className="font-medium">{children}</dd>
		</div>
	)
}
