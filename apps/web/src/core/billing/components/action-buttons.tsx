import type { Subscription } from '@blocksmith/contracts/subscriptions.ts'
import { Button } from '#src/components/ui/button.tsx'
import { dontCancel, resumeSubscription, updatePaymentDetails } from '../api/billing.ts'
import { useSubscriptionAction } from '../hooks/use-subscription-action.ts'

// The actions that need no confirmation: undoing a cancellation, resuming, and the payment
// details (Stripe's own page with Stripe). Apart from the dialogs, so /paused loads no dialog code.

export function DontCancelButton({ subscription }: { subscription: Subscription }) {
	const undo = useSubscriptionAction(() => dontCancel(subscription.provider))
	return (
		<Button size="sm" isLoading={undo.isPending} onClick={() => undo.mutate()}>
			Don't cancel
		</Button>
	)
}

export function ResumeButton() {
	const resume = useSubscriptionAction(() => resumeSubscription())
	return (
		<Button isLoading={resume.isPending} onClick={() => resume.mutate()}>
			Resume subscription
		</Button>
	)
}

export function UpdatePaymentButton({
	variant = 'outline',
	size = 'sm',
}: {
	variant?: 'outline' | 'primary'
	size?: 'sm' | 'md'
}) {
	const update = useSubscriptionAction(() => updatePaymentDetails())
	return (
		<Button variant={variant} size={size} isLoading={update.isPending} onClick={() => update.mutate()}>
			Update payment details
		</Button>
	)
}
