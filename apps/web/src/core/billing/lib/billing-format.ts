import {
	type BillingInterval,
	type LimitKey,
	type LimitReached,
	limitLabels,
	type Plan,
	type PlanId,
} from '@blocksmith/contracts/subscriptions.ts'

// How billing's figures read: money from minor units, bytes, limits, days left, dates. Pure, so
// the pricing page, Settings → Billing, /paused and the 402 toast all say the same thing.

/** The currency's minor unit digits (2 for USD and EUR, 0 for JPY), as Intl knows them. */
function minorDigits(currency: string): number {
	return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
}

/**
 * An amount in minor units, shown in its currency. The one division is the last step, for
 * display: amounts are integers until then. `isShort` drops the cents of a whole amount ($29).
 */
export function formatMoney(minor: number, currency: string, { isShort = false }: { isShort?: boolean } = {}): string {
	const digits = minorDigits(currency)
	const unit = 10 ** digits
	return new Intl.NumberFormat(undefined, {
		style: 'currency',
		currency,
		minimumFractionDigits: isShort && minor % unit === 0 ? 0 : digits,
		maximumFractionDigits: digits,
	}).format(minor / unit)
}

/** What a plan costs per month on an interval, in minor units: a year's price over twelve, rounded to the cent. */
export function monthlyPrice(plan: Plan, interval: BillingInterval): number {
	return interval === 'year' ? Math.round(plan.prices.year / 12) : plan.prices.month
}

/** How much a year paid at once saves against twelve months, in minor units and whole percent. */
export function yearlySaving(plan: Plan): { amount: number; percent: number } {
	const twelveMonths = plan.prices.month * 12
	const amount = Math.max(0, twelveMonths - plan.prices.year)
	return { amount, percent: twelveMonths === 0 ? 0 : Math.round((amount * 100) / twelveMonths) }
}

/** The largest yearly saving among the plans, for the interval switch's "save up to". */
export function bestYearlySavingPercent(plans: readonly Plan[]): number {
	return Math.max(0, ...plans.map((plan) => yearlySaving(plan).percent))
}

const byteUnits = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const

/** Binary units, as the server counts storage (a gigabyte is 1024³ bytes). */
export function formatBytes(bytes: number): string {
	let value = bytes
	let unit = 0
	while (value >= 1024 && unit < byteUnits.length - 1) {
		value /= 1024
		unit++
	}
	const digits = unit > 0 && value < 10 ? 1 : 0
	return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: digits }).format(value)} ${byteUnits[unit]}`
}

/** A count or an amount of one limit: storage in bytes, the others as plain numbers. */
export function formatLimitValue(key: LimitKey, value: number): string {
	return key === 'fileStorageBytes' ? formatBytes(value) : new Intl.NumberFormat().format(value)
}

/** A plan's limit: "Unlimited" for null. */
export function formatLimit(key: LimitKey, limit: number | null | undefined): string {
	return limit === null || limit === undefined ? 'Unlimited' : formatLimitValue(key, limit)
}

/** "Forms: 5 of 5 on the Starter plan", what a PLAN_LIMIT_REACHED problem means. */
export function limitReachedMessage(limit: LimitReached): string {
	const { name } = limitLabels[limit.key]
	return `${name}: ${formatLimitValue(limit.key, limit.used)} of ${formatLimitValue(limit.key, limit.allowed)} on the ${limit.planName} plan`
}

/** Meters that count from the start of each month. */
export function isMonthlyMeter(key: LimitKey): boolean {
	return key === 'submissionsPerMonth' || key === 'invoicesPerMonth'
}

export type MeterTone = 'normal' | 'warning' | 'full'

/** Amber from 80 %, red at the limit; integers only, so 79.99 % never rounds into amber. */
export function meterTone(used: number, limit: number | null): MeterTone {
	if (limit === null) {
		return 'normal'
	}
	if (used >= limit) {
		return 'full'
	}
	return used * 100 >= limit * 80 ? 'warning' : 'normal'
}

/**
 * A day, where the user is; `isUtc` for the usage month's bounds, which are UTC calendar months
 * (the month that ends on 1 December at 00:00 UTC resets on 1 December, everywhere).
 */
export function formatDate(iso: string, { isUtc = false }: { isUtc?: boolean } = {}): string {
	return new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium', ...(isUtc ? { timeZone: 'UTC' } : {}) })
}

export const intervalAdverb: Record<BillingInterval, string> = { month: 'monthly', year: 'yearly' }

export type PlanChoice = { planId: PlanId; interval: BillingInterval }

/**
 * As the server ranks a change (subscriptions.plans.ts): a larger plan is an upgrade and starts
 * now; a smaller one waits for the period's end; on the same plan, yearly is the upgrade.
 */
export function changeDirection(
	plans: readonly Plan[],
	from: PlanChoice,
	to: PlanChoice,
): 'same' | 'upgrade' | 'downgrade' {
	if (from.planId === to.planId && from.interval === to.interval) {
		return 'same'
	}
	const fromRank = plans.findIndex((plan) => plan.id === from.planId)
	const toRank = plans.findIndex((plan) => plan.id === to.planId)
	if (fromRank !== toRank) {
		return toRank > fromRank ? 'upgrade' : 'downgrade'
	}
	return to.interval === 'year' ? 'upgrade' : 'downgrade'
}
