import type { SubscriptionState } from '@blocksmith/contracts/subscriptions.ts'
import { Badge } from '#src/components/ui/badge.tsx'
import { daysLeft, daysLeftLabel } from '../lib/billing-state.ts'

const labels: Record<SubscriptionState, string> = {
	trialing: 'Trial',
	active: 'Active',
	past_due: 'Past due',
	paused: 'Paused',
	canceled: 'Canceled',
}

const variants = {
	trialing: 'primary',
	active: 'success',
	past_due: 'error',
	paused: 'warning',
	canceled: 'neutral',
} as const satisfies Record<SubscriptionState, string>

/** The subscription's state in a word; a trial with its days left. */
export function SubscriptionStatusBadge({
	status,
	trialEndsAt,
}: {
	status: SubscriptionState
	trialEndsAt: string | null
}) {
	const label =
		status === 'trialing' && trialEndsAt
			? `${labels.trialing} — ${daysLeftLabel(daysLeft(trialEndsAt))}`
			: labels[status]
	return <Badge variant={variants[status]}>{label}</Badge>
}
