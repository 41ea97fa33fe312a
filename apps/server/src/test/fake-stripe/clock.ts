import { expireCheckoutSession } from './checkout.ts'
import { advanceSchedule } from './schedules.ts'
import type { Ctx } from './store.ts'
import { cancelNow, endTrial, firstItem, renew, trialWillEnd } from './subscriptions.ts'

/**
 * Stripe's clock: real time plus whatever the tests advanced it by, in Unix seconds. Nothing runs in the
 * background; instead every API call (and every advance) first runs, in time order, all that came due:
 * schedule phases, `pause_collection.resumes_at`, `cancel_at`, `trial_will_end` three days ahead, trials
 * ending, periods renewing and Checkout sessions expiring. While one runs, the clock reads its due time, so
 * the objects and events it makes carry that time.
 */
export class Clock {
	private offset = 0
	private frozen: number | null = null

	now(): number {
		return this.frozen ?? Math.floor(Date.now() / 1000) + this.offset
	}

	/** Runs everything due up to `target` (at their own times) and leaves the clock at `target`. */
	runUntil(ctx: Ctx, target: number): void {
		try {
			for (let guard = 0; guard < 100_000; guard++) {
				const next = nextDue(ctx, target)
				if (!next) {
					return
				}
				this.frozen = Math.max(next.at, this.frozen ?? 0)
				next.run()
			}
			throw new Error('The fake Stripe clock did not settle (something stays due forever)')
		} finally {
			this.frozen = null
			const real = Math.floor(Date.now() / 1000)
			if (real + this.offset < target) {
				this.offset = target - real
			}
		}
	}
}

type Due = { at: number; order: number; run: () => void }

const THREE_DAYS = 3 * 86_400

function nextDue(ctx: Ctx, target: number): Due | null {
	const due: Due[] = []
	const store = ctx.store
	for (const schedule of store.schedules.values()) {
		if (schedule.status === 'active' && schedule.current_phase) {
			due.push({ at: schedule.current_phase.end_date, order: 0, run: () => advanceSchedule(ctx, schedule, ctx.now()) })
		}
	}
	for (const subscription of store.subscriptions.values()) {
		if (subscription.status === 'canceled' || subscription.status === 'incomplete_expired') {
			continue
		}
		const pause = subscription.pause_collection
		if (pause?.resumes_at) {
			due.push({
				at: pause.resumes_at,
				order: 1,
				run: () => {
					const before = structuredClone(subscription)
					subscription.pause_collection = null
					ctx.events.record('customer.subscription.updated', subscription, before)
				},
			})
		}
		if (subscription.cancel_at) {
			due.push({
				at: subscription.cancel_at,
				order: 2,
				run: () => cancelNow(ctx, subscription, ctx.now(), structuredClone(subscription), 'cancellation_requested'),
			})
		}
		const trialEnd = subscription.trial_end
		if (subscription.status === 'trialing' && trialEnd) {
			if (!store.extras(subscription.id).trialWillEndSent) {
				due.push({ at: trialEnd - THREE_DAYS, order: 3, run: () => trialWillEnd(ctx, subscription) })
			}
			due.push({
				at: trialEnd,
				order: 4,
				run: () => {
					const before = structuredClone(subscription)
					endTrial(ctx, subscription, ctx.now(), false)
					if (subscription.status !== 'canceled') {
						ctx.events.recordChange('customer.subscription.updated', subscription, before)
					}
				},
			})
		}
		if (subscription.status === 'active' || subscription.status === 'past_due' || subscription.status === 'unpaid') {
			due.push({ at: firstItem(subscription).current_period_end, order: 5, run: () => renew(ctx, subscription) })
		}
	}
	for (const session of store.checkoutSessions.values()) {
		if (session.status === 'open') {
			due.push({ at: session.expires_at, order: 6, run: () => expireCheckoutSession(ctx, session) })
		}
	}
	let best: Due | null = null
	for (const candidate of due) {
		if (
			candidate.at <= target &&
			(!best || candidate.at < best.at || (candidate.at === best.at && candidate.order < best.order))
		) {
			best = candidate
		}
	}
	return best
}
