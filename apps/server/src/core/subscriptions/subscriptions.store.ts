import type { Subscription } from '@blocksmith/contracts/subscriptions.ts'
import { eq } from 'drizzle-orm'
import type { BillingConfig } from '#src/config.ts'
import { organizations } from '#src/core/auth/auth.schema.ts'
import type { Db } from '#src/db/client.ts'
import { found } from '#src/lib/errors.ts'
import { advance, type SubState } from './subscriptions.machine.ts'
import { planById } from './subscriptions.plans.ts'
import { subscriptions } from './subscriptions.schema.ts'

export type SubscriptionRow = typeof subscriptions.$inferSelect

export function stateOf(row: SubscriptionRow): SubState {
	return {
		status: row.status,
		planId: row.planId,
		interval: row.interval,
		trialEndsAt: row.trialEndsAt,
		currentPeriodStart: row.currentPeriodStart,
		currentPeriodEnd: row.currentPeriodEnd,
		cancelAtPeriodEnd: row.cancelAtPeriodEnd,
		canceledAt: row.canceledAt,
		pausedAt: row.pausedAt,
		pauseReason: row.pauseReason,
		resumesAt: row.resumesAt,
		pendingPlanId: row.pendingPlanId,
		pendingInterval: row.pendingInterval,
		hasPaymentMethod: row.paymentMethodLabel !== null,
	}
}

/** The row's columns a state sets (the payment method's label is the provider's to set). */
function columnsOf(state: SubState) {
	const { hasPaymentMethod: _, ...columns } = state
	return columns
}

/** A new organization's subscription: a trial on the trial plan, or the operator's plan (local). */
function initialRow(
	organizationId: string,
	createdAt: Date,
	billing: BillingConfig,
): typeof subscriptions.$inferInsert {
	const base = { organizationId, provider: billing.provider, interval: 'month' as const, createdAt }
	if (billing.localPlan) {
		return { ...base, planId: billing.localPlan, status: 'active', currentPeriodStart: createdAt }
	}
	if (billing.trialDays === 0 && billing.provider === 'local') {
		// No trial and no payments: the plan starts at once, with nothing to renew.
		return { ...base, planId: billing.trialPlan, status: 'active', currentPeriodStart: createdAt }
	}
	return {
		...base,
		planId: billing.trialPlan,
		status: 'trialing',
		trialEndsAt: new Date(createdAt.getTime() + billing.trialDays * 86_400_000),
	}
}

/**
 * The organization's subscription as of now: made with its trial on first read (the trial
 * counts from the organization's creation), then moved on by what time alone does (a trial or
 * a period ending) unless Stripe runs it, in which case Stripe's events move it. `forUpdate`
 * locks the row for an action in the caller's transaction.
 */
export async function currentSubscription(
	db: Db,
	organizationId: string,
	billing: BillingConfig,
	now: Date,
	options: { forUpdate?: boolean } = {},
): Promise<SubscriptionRow> {
	const select = () => {
		const query = db.select().from(subscriptions).where(eq(subscriptions.organizationId, organizationId))
		return options.forUpdate ? query.for('update') : query
	}
	let [row] = await select()
	if (!row) {
		const [organization] = await db
			.select({ createdAt: organizations.createdAt })
			.from(organizations)
			.where(eq(organizations.id, organizationId))
		const created = found(organization, 'No such organization.').createdAt
		await db
			.insert(subscriptions)
			.values(initialRow(organizationId, created, billing))
			.onConflictDoNothing()
		;[row] = await select()
	}
	const current = found(row)
	if (current.stripeSubscriptionId) {
		return current
	}
	const state = stateOf(current)
	const moved = advance(state, now)
	if (moved === state) {
		return current
	}
	return saveState(db, organizationId, moved)
}

/** The row's state ended now, with nothing pending: what a deletion leaves (decision 040). */
export function endedState(row: SubscriptionRow, now: Date): SubState {
	return {
		...stateOf(row),
		status: 'canceled',
		canceledAt: row.status === 'canceled' ? row.canceledAt : now,
		cancelAtPeriodEnd: false,
		pausedAt: null,
		pauseReason: null,
		resumesAt: null,
		pendingPlanId: null,
		pendingInterval: null,
	}
}

export async function saveState(
	db: Db,
	organizationId: string,
	state: SubState,
	extra: Partial<typeof subscriptions.$inferInsert> = {},
): Promise<SubscriptionRow> {
	const [saved] = await db
		.update(subscriptions)
		.set({ ...columnsOf(state), ...extra, updatedAt: new Date() })
		.where(eq(subscriptions.organizationId, organizationId))
		.returning()
	return found(saved)
}

const iso = (date: Date | null) => date?.toISOString() ?? null

/** The contract's view of a row; the next invoice is estimated from the catalogue. */
export function toSubscription(row: SubscriptionRow): Subscription {
	const nextPlan = planById(row.pendingPlanId ?? row.planId)
	const nextInterval = row.pendingInterval ?? row.interval
	const billsNext =
		row.provider === 'stripe' &&
		row.stripeSubscriptionId !== null &&
		!row.cancelAtPeriodEnd &&
		(row.status === 'active' || row.status === 'trialing')
	const nextAt = row.status === 'trialing' ? row.trialEndsAt : row.currentPeriodEnd
	return {
		provider: row.provider,
		planId: row.planId,
		interval: row.interval,
		status: row.status,
		trialEndsAt: iso(row.trialEndsAt),
		currentPeriodStart: iso(row.currentPeriodStart),
		currentPeriodEnd: iso(row.currentPeriodEnd),
		cancelAtPeriodEnd: row.cancelAtPeriodEnd,
		canceledAt: iso(row.canceledAt),
		pausedAt: iso(row.pausedAt),
		pauseReason: row.pauseReason,
		resumesAt: iso(row.resumesAt),
		pendingChange:
			row.pendingPlanId && row.currentPeriodEnd
				? {
						planId: row.pendingPlanId,
						interval: row.pendingInterval ?? row.interval,
						at: row.currentPeriodEnd.toISOString(),
					}
				: null,
		paymentMethod: row.paymentMethodLabel ? { label: row.paymentMethodLabel } : null,
		nextInvoice:
			billsNext && nextAt
				? {
						amount: row.nextInvoiceAmount ?? nextPlan.prices[nextInterval],
						currency: row.nextInvoiceCurrency ?? nextPlan.currency,
						at: nextAt.toISOString(),
					}
				: null,
	}
}
