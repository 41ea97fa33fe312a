import {
	type LimitKey,
	limitLabels,
	type PaymentProvider,
	type SubscriptionActionResult,
	type SubscriptionOverview,
	type UpdatePlan,
} from '@blocksmith/contracts/subscriptions.ts'
import { desc, eq } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import type { SubscriptionsCtx, SubscriptionsDeps } from './subscriptions.deps.ts'
import { decide, type SubAction } from './subscriptions.machine.ts'
import { changeDirection, limitsExceeded, planById } from './subscriptions.plans.ts'
import { canManageBilling } from './subscriptions.policy.ts'
import { billingInvoices } from './subscriptions.schema.ts'
import { currentSubscription, type SubscriptionRow, stateOf, toSubscription } from './subscriptions.store.ts'
import { monthOf } from './subscriptions.usage.ts'

export async function getOverview(ctx: SubscriptionsCtx): Promise<SubscriptionOverview> {
	const now = ctx.now()
	const row = await currentSubscription(ctx.db, ctx.member.orgId, ctx.billing, now)
	const plan = planById(row.planId)
	const [meters, invoices] = await Promise.all([
		ctx.meters.all(ctx.db, ctx.member.orgId, now, plan.limits),
		ctx.db
			.select()
			.from(billingInvoices)
			.where(eq(billingInvoices.organizationId, ctx.member.orgId))
			.orderBy(desc(billingInvoices.createdAt))
			.limit(24),
	])
	const month = monthOf(now)
	return {
		subscription: toSubscription(row),
		plan,
		usage: { monthStart: month.start.toISOString(), monthEnd: month.end.toISOString(), meters },
		invoices: invoices.map((invoice) => ({
			id: invoice.id,
			number: invoice.number,
			status: invoice.status,
			amount: invoice.amount,
			currency: invoice.currency,
			createdAt: invoice.createdAt.toISOString(),
			url: invoice.url,
		})),
		canManage: canManageBilling(ctx.member.role),
	}
}

export type ActionRequest =
	| { type: 'cancel' | 'dont_cancel' | 'resume' | 'end_trial_and_bill' | 'update_payment_details' }
	| { type: 'pause'; resumesAt: string | null }
	| ({ type: 'update_plan' } & UpdatePlan)

/**
 * Runs a subscription action for an owner or admin: the state machine decides whether it is
 * allowed from the current state (409 with its reason when not), a downgrade is refused while
 * usage is over the smaller plan's limits, and the provider carries it out.
 */
export async function runAction(
	ctx: SubscriptionsCtx,
	request: ActionRequest,
	viaProvider?: PaymentProvider,
): Promise<SubscriptionActionResult> {
	if (!canManageBilling(ctx.member.role)) {
		throw new AppError('FORBIDDEN', { detail: 'Only an owner or admin can change billing.' })
	}
	const now = ctx.now()
	const row = await currentSubscription(ctx.db, ctx.member.orgId, ctx.billing, now)
	if (viaProvider && viaProvider !== row.provider) {
		throw new AppError('SUBSCRIPTION_STATE', {
			detail: `This organization is billed through ${row.provider === 'stripe' ? 'Stripe' : 'this installation'}, not ${viaProvider}.`,
		})
	}
	if (ctx.billing.localPlan) {
		throw new AppError('SUBSCRIPTION_STATE', {
			detail: "This installation's operator sets the plan for every organization; there is nothing to change here.",
		})
	}
	const action = await toAction(ctx, row, request, now)
	const decision = decide(stateOf(row), action, now)
	if (!decision.ok) {
		throw new AppError('SUBSCRIPTION_STATE', { detail: decision.reason })
	}
	const outcome = await ctx.provider.act(ctx, row, action, decision)
	ctx.log.info(
		{ organizationId: ctx.member.orgId, action: action.type, from: row.status, to: outcome.row.status },
		'subscription action',
	)
	return { subscription: toSubscription(outcome.row), redirectUrl: outcome.redirectUrl, message: outcome.message }
}

async function toAction(
	ctx: SubscriptionsCtx,
	row: SubscriptionRow,
	request: ActionRequest,
	now: Date,
): Promise<SubAction> {
	if (request.type === 'pause') {
		const resumesAt = request.resumesAt ? new Date(request.resumesAt) : null
		const latest = new Date(now.getTime() + maxPauseDays * 86_400_000)
		if (resumesAt && (resumesAt <= now || resumesAt > latest)) {
			throw new AppError('VALIDATION_FAILED', {
				errors: [{ field: 'resumesAt', message: `Choose a date after today and within ${maxPauseDays} days.` }],
			})
		}
		return { type: 'pause', resumesAt }
	}
	if (request.type !== 'update_plan') {
		return { type: request.type }
	}
	const target = { planId: request.planId, interval: request.interval }
	const direction = changeDirection({ planId: row.planId, interval: row.interval }, target)
	// A change that takes away room is refused while what the team made would not fit, so nothing
	// is ever deleted by a downgrade. Outside an active period the new plan applies at once.
	if (direction === 'downgrade' || row.status !== 'active') {
		const meters = await ctx.meters.all(ctx.db, ctx.member.orgId, now, planById(row.planId).limits)
		const over = limitsExceeded(request.planId, meters)
		if (over.length > 0) {
			const plan = planById(request.planId)
			const list = over
				.map(
					({ key, used, allowed }) =>
						`${limitLabels[key].name.toLowerCase()}: ${format(key, used)} in use, ${format(key, allowed)} allowed`,
				)
				.join('; ')
			throw new AppError('SUBSCRIPTION_STATE', {
				detail: `The ${plan.name} plan is too small for what this organization uses now (${list}). Remove some first.`,
			})
		}
	}
	return { type: 'update_plan', ...target, direction }
}

/** Longest pause with a resume date; without one a pause lasts until resumed. */
const maxPauseDays = 92

function format(key: LimitKey, value: number): string {
	if (key === 'fileStorageBytes') {
		return `${(value / 1024 ** 3).toLocaleString('en-US', { maximumFractionDigits: 2 })} GB`
	}
	return value.toLocaleString('en-US')
}

/**
 * What every module asks before it makes something a limit counts: refused with 402 when the
 * subscription is not active (paused, past due, canceled) or when `adding` more would pass the
 * plan's limit. `db` may be the caller's transaction.
 */
export async function assertCanAdd(
	deps: SubscriptionsDeps,
	db: Db,
	organizationId: string,
	key: LimitKey,
	adding = 1,
): Promise<void> {
	const now = deps.now()
	const row = await currentSubscription(db, organizationId, deps.billing, now)
	assertActive(row)
	const plan = planById(row.planId)
	const allowed = plan.limits[key]
	if (allowed === null || allowed === undefined) {
		return
	}
	const used = await deps.meters.measure(db, organizationId, key, now)
	if (used + adding > allowed) {
		const label = limitLabels[key]
		throw new AppError('PLAN_LIMIT_REACHED', {
			detail: `${label.name}: ${format(key, used)} of ${format(key, allowed)} on the ${plan.name} plan. Upgrade to add more.`,
			limit: { key, used, allowed, planId: plan.id, planName: plan.name },
		})
	}
}

function assertActive(row: SubscriptionRow): void {
	if (row.status === 'trialing' || row.status === 'active') {
		return
	}
	const why = {
		paused: 'The subscription is paused',
		past_due: 'A payment is overdue',
		canceled: 'The subscription has ended',
	}[row.status]
	throw new AppError('SUBSCRIPTION_INACTIVE', {
		detail: `${why}, so nothing new can be made until it is active again.`,
	})
}
