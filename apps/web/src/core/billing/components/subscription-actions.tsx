import type { Plan, Subscription } from '@blocksmith/contracts/subscriptions.ts'
import { useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog, Dialog, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { cancelSubscription, endTrialAndBill, pauseSubscription } from '../api/billing.ts'
import { useSubscriptionAction } from '../hooks/use-subscription-action.ts'
import { formatDate, formatMoney } from '../lib/billing-format.ts'

// The subscription's actions, each a button (with its confirmation where money or access
// changes). Which ones show depends on the state; the server decides anyway and says why not.

const keptPromise =
	'Nothing is deleted: your forms, charts, portals and data stay as they are, and published forms, charts and portals show an “unavailable” message to visitors until you choose a plan again.'

/** When the subscription as it stands runs out: the trial's end, else the period's. */
export function endOfTerm(subscription: Subscription): string | null {
	return subscription.status === 'trialing' ? subscription.trialEndsAt : subscription.currentPeriodEnd
}

export function CancelSubscriptionButton({ subscription }: { subscription: Subscription }) {
	const cancel = useSubscriptionAction(() => cancelSubscription())
	const end = endOfTerm(subscription)
	const when = end ? formatDate(end) : 'the end of the period'
	const what =
		subscription.status === 'trialing'
			? `Your trial ends on ${when} and does not turn into a paid plan. Until then everything works.`
			: subscription.status === 'paused'
				? 'It ends now: nothing is billed while it is paused, so there is no period left to run.'
				: `Everything keeps working until ${when}; then the subscription ends and nothing more is charged.`
	return (
		<ConfirmDialog
			title="Cancel the subscription?"
			description={what}
			confirmLabel="Cancel subscription"
			cancelLabel="Keep it"
			isDestructive
			onConfirm={() => cancel.mutateAsync()}
			trigger={<Button variant="outline">Cancel subscription</Button>}
		>
			<p className="text-muted-foreground text-sm">
				{keptPromise}
				{subscription.status === 'paused' ? null : ' Until then, “Don’t cancel” undoes this.'}
			</p>
		</ConfirmDialog>
	)
}

export function EndTrialButton({ subscription, plan }: { subscription: Subscription; plan: Plan }) {
	const endTrial = useSubscriptionAction(() => endTrialAndBill())
	const price = formatMoney(plan.prices[subscription.interval], plan.currency)
	return (
		<ConfirmDialog
			title="End the trial and start billing now?"
			description={`Your ${plan.name} plan starts today, billed ${price} per ${subscription.interval}, and the first invoice is made now. The days left of the trial are given up.`}
			confirmLabel="Start billing now"
			onConfirm={() => endTrial.mutateAsync()}
			trigger={<Button variant="outline">End trial and start billing now</Button>}
		/>
	)
}

/** Tomorrow as the date input's value: a pause resumes on a later day, never today. */
function tomorrow(): string {
	const date = new Date()
	date.setDate(date.getDate() + 1)
	const pad = (value: number) => String(value).padStart(2, '0')
	return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`
}

export function PauseButton() {
	const [isOpen, setIsOpen] = useState(false)
	const [resumeOn, setResumeOn] = useState('')
	const pause = useSubscriptionAction((resumesAt: string | null) => pauseSubscription(resumesAt), {
		isErrorShownInPage: true,
		onDone: () => setIsOpen(false),
	})
	const earliest = tomorrow()
	const isTooEarly = resumeOn !== '' && resumeOn < earliest
	return (
		<Dialog
			open={isOpen}
			onOpenChange={(open) => {
				setIsOpen(open)
				setResumeOn('')
				pause.reset()
			}}
		>
			<DialogTrigger asChild>
				<Button variant="outline">Pause</Button>
			</DialogTrigger>
			<DialogContent
				title="Pause the subscription"
				description="Nothing is billed while it is paused. Your team cannot use the dashboard (Settings stays open), and published forms, charts and portals show an “unavailable” message. Nothing is deleted."
			>
				<form
					className="grid gap-4"
					noValidate
					onSubmit={(event) => {
						event.preventDefault()
						if (!isTooEarly) {
							// The start of the chosen day where the user is.
							pause.mutate(resumeOn ? new Date(`${resumeOn}T00:00:00`).toISOString() : null)
						}
					}}
				>
					<Field
						label="Resume on (optional)"
						description="Leave it empty to stay paused until someone resumes it."
						error={isTooEarly ? 'Choose a day after today.' : undefined}
					>
						<Input
							type="date"
							min={earliest}
							value={resumeOn}
							onChange={(event) => setResumeOn(event.target.value)}
							className="w-fit"
						/>
					</Field>
					{pause.isError ? (
						<Alert variant="error" title="The subscription was not paused">
							{errorMessage(pause.error)}
						</Alert>
					) : null}
					<DialogFooter>
						<Button variant="outline" onClick={() => setIsOpen(false)}>
							Cancel
						</Button>
						<Button type="submit" isLoading={pause.isPending}>
							{resumeOn && !isTooEarly ? `Pause until ${formatDate(`${resumeOn}T00:00:00`)}` : 'Pause subscription'}
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
