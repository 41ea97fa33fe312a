import type { BillingInterval, PlanId } from '@blocksmith/contracts/subscriptions.ts'
import { eq } from 'drizzle-orm'
import Stripe from 'stripe'
import type { BillingConfig } from '#src/config.ts'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import type { ActionOutcome, BillingProvider, SubscriptionsCtx } from '../subscriptions.deps.ts'
import type { SubAction } from '../subscriptions.machine.ts'
import { planById, stripeLookupKey } from '../subscriptions.plans.ts'
import { billingSignups, subscriptions } from '../subscriptions.schema.ts'
import { endedState, type SubscriptionRow, saveState } from '../subscriptions.store.ts'
import { billingPath, stateFromStripe } from './stripe.sync.ts'

type StripeConfig = NonNullable<BillingConfig['stripe']>

/** The official SDK, pointed at `apiBaseUrl` when set (the tests' fake Stripe). */
function createStripeClient(config: StripeConfig): Stripe {
	const base = config.apiBaseUrl ? new URL(config.apiBaseUrl) : null
	return new Stripe(config.secretKey, {
		maxNetworkRetries: 2,
		timeout: 20_000,
		...(base
			? {
					host: base.hostname,
					port: Number(base.port || (base.protocol === 'https:' ? 443 : 80)),
					protocol: base.protocol === 'https:' ? 'https' : 'http',
				}
			: {}),
	})
}

const priceIds = new Map<string, string>()

/** The Stripe price of a plan, found by its lookup key (README: how to create them). */
async function priceFor(stripe: Stripe, planId: PlanId, interval: BillingInterval): Promise<string> {
	const key = stripeLookupKey(planId, interval)
	const known = priceIds.get(key)
	if (known) {
		return known
	}
	const found = await stripe.prices.list({ lookup_keys: [key], active: true, limit: 1 })
	const price = found.data[0]
	if (!price) {
		throw new AppError('SUBSCRIPTION_STATE', {
			detail: `Billing is not set up for the ${planById(planId).name} plan yet (no Stripe price "${key}"). Ask the operator.`,
		})
	}
	priceIds.set(key, price.id)
	return price.id
}

/**
 * Stripe: Checkout for a new subscription (after a trial without a card, or to start again),
 * the billing portal for payment details, and subscription updates for everything else. The
 * state saved is always rebuilt from the subscription Stripe answers with, as the webhooks do.
 */
export function createStripeProvider(config: StripeConfig): BillingProvider & { stripe: Stripe } {
	const stripe = createStripeClient(config)

	async function customerOf(ctx: SubscriptionsCtx, row: SubscriptionRow): Promise<string> {
		if (row.stripeCustomerId) {
			return row.stripeCustomerId
		}
		const customer = await stripe.customers.create(
			{ email: ctx.email, metadata: { organizationId: ctx.member.orgId } },
			{ idempotencyKey: `customer:${ctx.member.orgId}` },
		)
		await ctx.db
			.update(subscriptions)
			.set({ stripeCustomerId: customer.id })
			.where(eq(subscriptions.organizationId, ctx.member.orgId))
		return customer.id
	}

	/** Checkout for a subscription on `planId`; a trial still running carries over. */
	async function checkout(
		ctx: SubscriptionsCtx,
		row: SubscriptionRow,
		target: { planId: PlanId; interval: BillingInterval },
		keepTrial: boolean,
	): Promise<ActionOutcome> {
		const customer = await customerOf(ctx, row)
		const trialEnd = keepTrial && row.trialEndsAt ? Math.floor(row.trialEndsAt.getTime() / 1000) : null
		const session = await stripe.checkout.sessions.create({
			mode: 'subscription',
			customer,
			line_items: [{ price: await priceFor(stripe, target.planId, target.interval), quantity: 1 }],
			subscription_data: {
				metadata: { organizationId: ctx.member.orgId },
				// Stripe needs a trial end at least two days away; a shorter rest of a trial is billed now.
				...(trialEnd && trialEnd > Date.now() / 1000 + 2 * 86_400 ? { trial_end: trialEnd } : {}),
			},
			metadata: { organizationId: ctx.member.orgId },
			client_reference_id: ctx.member.orgId,
			success_url: `${ctx.publicUrl}${billingPath}&checkout=done`,
			cancel_url: `${ctx.publicUrl}${billingPath}&checkout=canceled`,
		})
		if (!session.url) {
			throw new Error('Stripe answered a Checkout session without a URL')
		}
		return { row, redirectUrl: session.url, message: 'Continue on Stripe to finish.' }
	}

	async function applied(ctx: SubscriptionsCtx, subscription: Stripe.Subscription, message: string) {
		const row = await syncSubscription(stripe, ctx.db, ctx.member.orgId, subscription)
		return { row, redirectUrl: null, message }
	}

	return {
		name: 'stripe',
		stripe,
		async endNow(deps, row) {
			const id = row.stripeSubscriptionId
			if (!id || row.status === 'canceled') {
				// A trial without a card, or ended already: nothing runs at Stripe.
				return saveState(deps.db, row.organizationId, endedState(row, deps.now()))
			}
			// Cancelled at once (not at the period's end): the organization is being deleted.
			const ended = await stripe.subscriptions.cancel(id, {}, { idempotencyKey: `${id}:end-for-deletion` })
			return syncSubscription(stripe, deps.db, row.organizationId, ended)
		},
		async act(ctx, row, action, decision) {
			const id = row.stripeSubscriptionId
			const ended = row.status === 'canceled'
			if (!id || ended) {
				// No subscription at Stripe yet (a trial without a card) or an ended one: anything that
				// needs a payment goes through Checkout; the rest only changes the trial here.
				switch (action.type) {
					case 'end_trial_and_bill':
						return checkout(ctx, row, row, false)
					case 'update_payment_details':
						return checkout(ctx, row, row, true)
					case 'resume':
						return checkout(ctx, row, row, false)
					case 'update_plan':
						return row.status === 'trialing' && !ended
							? {
									row: await saveState(ctx.db, ctx.member.orgId, decision.next),
									redirectUrl: null,
									message: decision.message,
								}
							: checkout(ctx, row, action, row.status === 'trialing')
					default:
						return {
							row: await saveState(ctx.db, ctx.member.orgId, decision.next),
							redirectUrl: null,
							message: decision.message,
						}
				}
			}
			return actOnSubscription(ctx, row, id, action, decision.message)
		},
		async startSignup(deps, signupId, input) {
			const session = await stripe.checkout.sessions.create({
				mode: 'subscription',
				customer_email: input.email,
				line_items: [{ price: await priceFor(stripe, input.planId, input.interval), quantity: 1 }],
				subscription_data: {
					metadata: { signupId },
					...(deps.billing.trialDays >= 1 ? { trial_period_days: Math.floor(deps.billing.trialDays) } : {}),
				},
				metadata: { signupId },
				success_url: `${deps.publicUrl}/pricing?signup=paid`,
				cancel_url: `${deps.publicUrl}/pricing?signup=canceled`,
			})
			await deps.db.update(billingSignups).set({ stripeCheckoutId: session.id }).where(eq(billingSignups.id, signupId))
			if (!session.url) {
				throw new Error('Stripe answered a Checkout session without a URL')
			}
			return { redirectUrl: session.url, message: 'Continue on Stripe to pay.' }
		},
	}

	async function actOnSubscription(
		ctx: SubscriptionsCtx,
		row: SubscriptionRow,
		id: string,
		action: SubAction,
		message: string,
	): Promise<ActionOutcome> {
		// Each user action gets a key of its own state, so a double click is one request at Stripe.
		const once = (what: string) => ({ idempotencyKey: `${id}:${what}:${row.updatedAt.getTime()}` })
		switch (action.type) {
			case 'cancel':
				return applied(
					ctx,
					row.status === 'paused'
						? await stripe.subscriptions.cancel(id, {}, once('cancel-now'))
						: await stripe.subscriptions.update(id, { cancel_at_period_end: true }, once('cancel')),
					message,
				)
			case 'dont_cancel': {
				const current = await stripe.subscriptions.retrieve(id)
				// Stripe refuses both at once; a portal cancellation may have set `cancel_at` instead.
				const params: Stripe.SubscriptionUpdateParams = current.cancel_at_period_end
					? { cancel_at_period_end: false }
					: { cancel_at: '' }
				return applied(ctx, await stripe.subscriptions.update(id, params, once('dont-cancel')), message)
			}
			case 'pause':
				return applied(
					ctx,
					await stripe.subscriptions.update(
						id,
						{
							pause_collection: {
								behavior: 'void',
								...(action.resumesAt ? { resumes_at: Math.floor(action.resumesAt.getTime() / 1000) } : {}),
							},
						},
						once('pause'),
					),
					message,
				)
			case 'resume':
				return applied(ctx, await stripe.subscriptions.update(id, { pause_collection: '' }, once('resume')), message)
			case 'end_trial_and_bill':
				return applied(
					ctx,
					await stripe.subscriptions.update(
						id,
						{ trial_end: 'now', proration_behavior: 'none', payment_behavior: 'error_if_incomplete' },
						once('end-trial'),
					),
					message,
				)
			case 'update_payment_details': {
				const session = await stripe.billingPortal.sessions.create({
					customer: row.stripeCustomerId ?? (await stripe.subscriptions.retrieve(id)).customer.toString(),
					// The marker tells the page to look again until Stripe's events have arrived.
					return_url: `${ctx.publicUrl}${billingPath}&portal=done`,
					flow_data: { type: 'payment_method_update' },
				})
				return { row, redirectUrl: session.url, message: 'Continue on Stripe to update your payment details.' }
			}
			case 'update_plan':
				return changePlan(ctx, row, id, action, message, once)
		}
	}

	async function changePlan(
		ctx: SubscriptionsCtx,
		row: SubscriptionRow,
		id: string,
		action: Extract<SubAction, { type: 'update_plan' }>,
		message: string,
		once: (what: string) => { idempotencyKey: string },
	): Promise<ActionOutcome> {
		const subscription = await stripe.subscriptions.retrieve(id)
		const item = subscription.items.data[0]
		if (!item) {
			throw new Error(`Stripe subscription ${id} has no item`)
		}
		const price = await priceFor(stripe, action.planId, action.interval)
		if (subscription.schedule) {
			// A downgrade was waiting: it is replaced by this change.
			await stripe.subscriptionSchedules.release(
				typeof subscription.schedule === 'string' ? subscription.schedule : subscription.schedule.id,
			)
		}
		if (action.direction === 'upgrade' || row.status === 'trialing') {
			const updated = await stripe.subscriptions.update(
				id,
				{ items: [{ id: item.id, price }], proration_behavior: row.status === 'trialing' ? 'none' : 'always_invoice' },
				once(`plan-${action.planId}-${action.interval}`),
			)
			return applied(ctx, updated, message)
		}
		// A downgrade waits for the period's end: a schedule whose second phase has the new price.
		const schedule = await stripe.subscriptionSchedules.create({ from_subscription: id })
		const phase = schedule.phases[0]
		await stripe.subscriptionSchedules.update(schedule.id, {
			end_behavior: 'release',
			phases: [
				{
					items: [{ price: item.price.id, quantity: 1 }],
					start_date: phase?.start_date ?? item.current_period_start,
					end_date: item.current_period_end,
				},
				{ items: [{ price, quantity: 1 }], proration_behavior: 'none' },
			],
		})
		const synced = await syncSubscription(stripe, ctx.db, ctx.member.orgId, await stripe.subscriptions.retrieve(id))
		const row2 = await ctx.db
			.update(subscriptions)
			.set({ pendingPlanId: action.planId, pendingInterval: action.interval, stripeScheduleId: schedule.id })
			.where(eq(subscriptions.organizationId, synced.organizationId))
			.returning()
		return { row: row2[0] ?? synced, redirectUrl: null, message }
	}
}

/**
 * Saves the organization's subscription as Stripe has it: the state, the plan (from the price's
 * lookup key), the periods, the pause and the payment method. Used after each action and by
 * every webhook, so the order events arrive in never matters.
 */
export async function syncSubscription(
	stripe: Stripe,
	db: Db,
	organizationId: string,
	subscription: Stripe.Subscription,
): Promise<SubscriptionRow> {
	const [existing] = await db.select().from(subscriptions).where(eq(subscriptions.organizationId, organizationId))
	const state = stateFromStripe(subscription, existing ?? null)
	const paymentMethodLabel = await paymentMethodLabelOf(stripe, subscription)
	const customer = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id
	const values = {
		...state,
		provider: 'stripe' as const,
		paymentMethodLabel,
		stripeCustomerId: customer,
		stripeSubscriptionId: subscription.id,
		updatedAt: new Date(),
	}
	const { hasPaymentMethod: _, ...columns } = values
	const [saved] = await db
		.insert(subscriptions)
		.values({ organizationId, ...columns })
		.onConflictDoUpdate({ target: subscriptions.organizationId, set: columns })
		.returning()
	if (!saved) {
		throw new Error('subscription not saved')
	}
	return saved
}

async function paymentMethodLabelOf(stripe: Stripe, subscription: Stripe.Subscription): Promise<string | null> {
	let method = subscription.default_payment_method
	if (!method) {
		const customerId = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id
		const customer = await stripe.customers.retrieve(customerId)
		method =
			'deleted' in customer && customer.deleted ? null : (customer.invoice_settings?.default_payment_method ?? null)
	}
	if (!method) {
		return null
	}
	const found = typeof method === 'string' ? await stripe.paymentMethods.retrieve(method) : method
	if (found.card) {
		const brand = found.card.brand.charAt(0).toUpperCase() + found.card.brand.slice(1)
		return `${brand} •••• ${found.card.last4}`
	}
	return found.type
}
