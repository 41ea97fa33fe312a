import type { BillingInterval, LimitKey, Plan, PlanId } from '@blocksmith/contracts/subscriptions.ts'

const gigabyte = 1024 * 1024 * 1024

/**
 * The plan catalogue, kept here and nowhere else: the pricing page, the limits the server
 * enforces and the Stripe prices (looked up by `stripeLookupKey`) all read it. Prices are in
 * cents; a year costs ten months.
 */
export const plans: readonly Plan[] = [
	{
		id: 'starter',
		name: 'Starter',
		description: 'For a freelancer putting forms, charts and invoices on one workspace.',
		currency: 'USD',
		prices: { month: 1200, year: 12000 },
		limits: {
			members: 2,
			workspaces: 2,
			forms: 5,
			submissionsPerMonth: 1000,
			fileStorageBytes: 1 * gigabyte,
			charts: 10,
			dashboards: 2,
			portals: 1,
			portalMembers: 25,
			invoicesPerMonth: 20,
			timeTrackingUsers: 2,
		},
		switches: { removeBranding: false, customDomain: false, customCss: false },
		isHighlighted: false,
	},
	{
		id: 'pro',
		name: 'Pro',
		description: 'For a small team running its clients and projects in Notion.',
		currency: 'USD',
		prices: { month: 2900, year: 29000 },
		limits: {
			members: 5,
			workspaces: 5,
			forms: 50,
			submissionsPerMonth: 10_000,
			fileStorageBytes: 10 * gigabyte,
			charts: 100,
			dashboards: 20,
			portals: 3,
			portalMembers: 250,
			invoicesPerMonth: 200,
			timeTrackingUsers: 10,
		},
		switches: { removeBranding: true, customDomain: true, customCss: true },
		isHighlighted: true,
	},
	{
		id: 'business',
		name: 'Business',
		description: 'For an agency with many clients, portals and people.',
		currency: 'USD',
		prices: { month: 7900, year: 79000 },
		limits: {
			members: 25,
			workspaces: 20,
			forms: null,
			submissionsPerMonth: 100_000,
			fileStorageBytes: 100 * gigabyte,
			charts: null,
			dashboards: null,
			portals: 10,
			portalMembers: 2500,
			invoicesPerMonth: null,
			timeTrackingUsers: 50,
		},
		switches: { removeBranding: true, customDomain: true, customCss: true },
		isHighlighted: false,
	},
]

export function planById(id: PlanId): Plan {
	const plan = plans.find((candidate) => candidate.id === id)
	if (!plan) {
		throw new Error(`no plan ${id}`)
	}
	return plan
}

/** The Stripe price's lookup key for a plan and interval (README: create prices with these keys). */
export function stripeLookupKey(planId: PlanId, interval: BillingInterval): string {
	return `blocksmith_${planId}_${interval}`
}

/**
 * An upgrade takes effect now (prorated); a downgrade waits for the period's end. Plans rank
 * by their order in the catalogue; on the same plan, the yearly price is an upgrade (a year is
 * paid now) and the monthly one a downgrade (it starts when the paid year ends).
 */
export function changeDirection(
	from: { planId: PlanId; interval: BillingInterval },
	to: { planId: PlanId; interval: BillingInterval },
): 'same' | 'upgrade' | 'downgrade' {
	if (from.planId === to.planId && from.interval === to.interval) {
		return 'same'
	}
	const fromRank = plans.findIndex((plan) => plan.id === from.planId)
	const toRank = plans.findIndex((plan) => plan.id === to.planId)
	if (toRank !== fromRank) {
		return toRank > fromRank ? 'upgrade' : 'downgrade'
	}
	return to.interval === 'year' ? 'upgrade' : 'downgrade'
}

/** Meters that start again each month: they never stand in the way of a smaller plan. */
const monthlyLimits: readonly LimitKey[] = ['submissionsPerMonth', 'invoicesPerMonth']

/**
 * What is in use beyond the given plan's limits (members, forms, storage, …): a downgrade to it
 * is refused while any remain, so nothing the team made has to be deleted by surprise.
 */
export function limitsExceeded(
	planId: PlanId,
	usage: ReadonlyArray<{ key: LimitKey; used: number }>,
): Array<{ key: LimitKey; used: number; allowed: number }> {
	const plan = planById(planId)
	return usage.flatMap(({ key, used }) => {
		const allowed = plan.limits[key]
		return !monthlyLimits.includes(key) && allowed !== null && allowed !== undefined && used > allowed
			? [{ key, used, allowed }]
			: []
	})
}
