import type { ApiError } from '#src/lib/api-client.ts'

// Registered by the dashboard's shell with the query client's error toasts. What it shows is
// loaded on the first such problem: the shell, on every page, carries only this test.

const billingCodes = new Set(['PLAN_LIMIT_REACHED', 'SUBSCRIPTION_INACTIVE'])

/**
 * Takes PLAN_LIMIT_REACHED and SUBSCRIPTION_INACTIVE (true) and shows them with the way forward;
 * `onInactive` lets the shell read the organization again, so the dashboard's gate follows at once.
 */
export function presentBillingProblem(error: ApiError, onInactive?: () => void): boolean {
	if (!billingCodes.has(error.code)) {
		return false
	}
	if (error.code === 'SUBSCRIPTION_INACTIVE') {
		onInactive?.()
	}
	import('./billing-problem-toasts.tsx').then(
		(module) => module.showBillingProblem(error),
		// The chunk did not arrive (offline, a new deploy): the detail alone is still worth saying.
		() => import('sonner').then(({ toast }) => toast.error(error.detail)),
	)
	return true
}
