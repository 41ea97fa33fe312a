import { planIdSchema } from '@blocksmith/contracts/subscriptions.ts'
import { Link } from 'react-router'
import { toast } from 'sonner'
import { paths } from '#src/app/paths.ts'
import { buttonVariants } from '#src/components/ui/button.tsx'
import type { ApiError } from '#src/lib/api-client.ts'
import { limitReachedMessage } from '../lib/billing-format.ts'
import { changePlanPath } from '../lib/billing-paths.ts'

// The two billing refusals any screen can meet (a 402), told the same way everywhere: what was
// refused and the way forward. Loaded when the first one happens (billing-problems.ts); the
// fixed toast ids keep a burst of refusals to one toast each.

const limitToast = 'plan-limit-reached'
const inactiveToast = 'subscription-inactive'

function ToastLink({ to, toastId, children }: { to: string; toastId: string; children: string }) {
	return (
		<Link
			to={to}
			onClick={() => toast.dismiss(toastId)}
			className={buttonVariants({ size: 'sm', className: 'ml-auto' })}
		>
			{children}
		</Link>
	)
}

/** The next plan up, to preselect: the one that raises the limit most often. */
function nextPlan(planId: string) {
	const plans = planIdSchema.options
	return plans[plans.indexOf(planId as (typeof plans)[number]) + 1]
}

/**
 * Shows PLAN_LIMIT_REACHED ("Forms: 5 of 5 on the Starter plan", Upgrade) and SUBSCRIPTION_INACTIVE
 * (its detail, a link to /paused).
 */
export function showBillingProblem(error: ApiError): void {
	if (error.code === 'PLAN_LIMIT_REACHED') {
		const planId = error.limit ? nextPlan(error.limit.planId) : undefined
		toast.error(error.limit ? limitReachedMessage(error.limit) : error.detail, {
			id: limitToast,
			description: 'A larger plan raises this limit.',
			action: (
				<ToastLink to={changePlanPath(planId ? { planId } : {})} toastId={limitToast}>
					Upgrade
				</ToastLink>
			),
		})
		return
	}
	if (error.code === 'SUBSCRIPTION_INACTIVE') {
		toast.error(error.detail, {
			id: inactiveToast,
			action: (
				<ToastLink to={paths.paused} toastId={inactiveToast}>
					What to do
				</ToastLink>
			),
		})
	}
}
