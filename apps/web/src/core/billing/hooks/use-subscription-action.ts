import type { SubscriptionActionResult, SubscriptionOverview } from '@blocksmith/contracts/subscriptions.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { teamKeys } from '#src/core/teams/api/teams.ts'
import { billingKeys } from '../api/billing.ts'
import { rememberBeforeStripe } from '../lib/stripe-return.ts'

/**
 * One subscription action. A provider that must take over (Stripe Checkout, its billing portal)
 * answers an address to go to; otherwise the subscription and the organization's details are read
 * again at once, since the header's banner, the dashboard's gate and /paused all follow them.
 * A refusal reads them again too: it usually means someone else changed the subscription.
 */
export function useSubscriptionAction<V = void>(
	action: (variables: V) => Promise<SubscriptionActionResult>,
	options: { isErrorShownInPage?: boolean; onDone?: (result: SubscriptionActionResult) => void } = {},
) {
	const queryClient = useQueryClient()
	const refresh = () =>
		Promise.all([
			queryClient.invalidateQueries({ queryKey: billingKeys.subscription }),
			queryClient.invalidateQueries({ queryKey: teamKeys.orgDetails }),
		])
	return useMutation({
		mutationFn: action,
		...(options.isErrorShownInPage ? { meta: { isErrorShownInPage: true } } : {}),
		onSuccess: async (result) => {
			if (result.redirectUrl) {
				rememberBeforeStripe(queryClient.getQueryData<SubscriptionOverview>(billingKeys.subscription))
				window.location.assign(result.redirectUrl)
				return
			}
			await refresh()
			toast.success(result.message)
			options.onDone?.(result)
		},
		onError: () => refresh(),
	})
}
