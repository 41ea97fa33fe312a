import type {
	LimitKey,
	PauseReason,
	PlanId,
	PlanSwitch,
	SubscriptionState,
} from '@blocksmith/contracts/subscriptions.ts'
import { count, eq, sql } from 'drizzle-orm'
import type { BillingConfig } from '#src/config.ts'
import { invitations, members } from '#src/core/auth/auth.schema.ts'
import { organizationDeletions } from '#src/core/deletion/deletion.schema.ts'
import type { Db } from '#src/db/client.ts'
import type { Jobs } from '#src/lib/jobs.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Mailer } from '#src/lib/mail.ts'
import { localProvider } from './providers/local.ts'
import { createStripeProvider } from './providers/stripe.ts'
import type { SubscriptionsDeps } from './subscriptions.deps.ts'
import { planById } from './subscriptions.plans.ts'
import { assertCanAdd } from './subscriptions.service.ts'
import { confirmSignup, isSignupToken } from './subscriptions.signup.ts'
import { currentSubscription } from './subscriptions.store.ts'
import { createMeters, type Meter } from './subscriptions.usage.ts'

/** How long a public page reuses an organization's subscription state: one read per visit would be too dear. */
const publicStateTtlMs = 10_000

/**
 * Plans, the subscription of each organization, usage and limits. Every module that makes
 * something a plan counts registers its meter here and asks `assertCanAdd` first; public pages
 * ask `isAvailable`. It imports no feature.
 */
export function createSubscriptions(options: {
	db: Db
	jobs: Jobs
	log: Logger
	mail: Mailer
	billing: BillingConfig
	publicUrl: string
	authSecret: string
	rateLimits: boolean
	now?: () => Date
}) {
	const meters = createMeters()
	// What public pages read of an organization's subscription, reused for 10 s: forgotten at
	// once when an action or a Stripe event changes it (other processes see it within the 10 s).
	const recentStates = new Map<string, { status: SubscriptionState; planId: PlanId; isDeleting: boolean; at: number }>()
	const deps: SubscriptionsDeps = {
		...options,
		meters,
		provider: options.billing.stripe ? createStripeProvider(options.billing.stripe) : localProvider,
		now: options.now ?? (() => new Date()),
		forget: (organizationId) => {
			recentStates.delete(organizationId)
		},
	}
	meters.register('members', countMembersAndInvitations)

	async function recentState(organizationId: string) {
		const kept = recentStates.get(organizationId)
		if (kept && Date.now() - kept.at < publicStateTtlMs) {
			return kept
		}
		const { status, planId } = await summary(organizationId)
		// An organization scheduled for deletion serves no public page (decision 040).
		const [deletion] = await deps.db
			.select({ organizationId: organizationDeletions.organizationId })
			.from(organizationDeletions)
			.where(eq(organizationDeletions.organizationId, organizationId))
		if (recentStates.size > 10_000) {
			recentStates.clear()
		}
		const fresh = { status, planId, isDeleting: deletion !== undefined, at: Date.now() }
		recentStates.set(organizationId, fresh)
		return fresh
	}

	async function summary(organizationId: string) {
		const row = await currentSubscription(deps.db, organizationId, deps.billing, deps.now())
		return {
			planId: row.planId as PlanId,
			planName: planById(row.planId).name,
			status: row.status,
			trialEndsAt: row.trialEndsAt,
			pauseReason: row.pauseReason as PauseReason | null,
		}
	}

	return {
		deps,
		registerMeter: (key: LimitKey, meter: Meter) => meters.register(key, meter),
		/** 402 unless the subscription is active and `adding` more stays within the plan's limit. */
		assertCanAdd: (db: Db, organizationId: string, key: LimitKey, adding = 1) =>
			assertCanAdd(deps, db, organizationId, key, adding),
		summary,
		/** A plan's switch (remove branding, custom domain, custom CSS) for the organization. */
		async hasSwitch(organizationId: string, name: PlanSwitch): Promise<boolean> {
			return planById((await summary(organizationId)).planId).switches[name]
		},
		/**
		 * Whether the organization's public pages (forms, charts, portals) are served: not while its
		 * subscription is paused, past due or canceled, nor while the organization is scheduled for
		 * deletion. Reused for 10 s per organization.
		 */
		async isAvailable(organizationId: string): Promise<boolean> {
			const { status, isDeleting } = await recentState(organizationId)
			return !isDeleting && (status === 'trialing' || status === 'active')
		},
		/**
		 * Ends the subscription now, through its provider (Stripe cancels it at once), for an
		 * organization being deleted. Restoring the organization does not start it again: the owner
		 * subscribes anew. Where the operator sets every organization's plan (BILLING_LOCAL_PLAN)
		 * nothing is billed and no owner could subscribe again, so it is left as it is.
		 */
		async endForDeletion(organizationId: string): Promise<void> {
			if (deps.billing.localPlan) {
				return
			}
			const row = await currentSubscription(deps.db, organizationId, deps.billing, deps.now())
			const ended = await deps.provider.endNow(deps, row)
			deps.forget(organizationId)
			deps.log.info({ organizationId, from: row.status, to: ended.status }, 'subscription ended for deletion')
		},
		/** Whether a monthly limit is used up (read for public pages; state and count reused for a while). */
		async isMonthlyLimitReached(organizationId: string, key: LimitKey): Promise<boolean> {
			const { planId } = await recentState(organizationId)
			const allowed = planById(planId).limits[key]
			if (allowed === null || allowed === undefined) {
				return false
			}
			return (await meters.measureRecent(deps.db, organizationId, key, deps.now())) >= allowed
		},
		/** `/api/confirm_user` with a signup's token (subscribing without an account). */
		confirmSignup: (token: string) => (isSignupToken(token) ? confirmSignup(deps, token) : null),
		/** Forget an organization's state kept for public pages (an action changed it). */
		forget: deps.forget,
	}
}

export type Subscriptions = ReturnType<typeof createSubscriptions>

/** Members, and pending invitations: an invitation holds its seat until it is answered. */
const countMembersAndInvitations: Meter = async (db, organizationId) => {
	const [row] = await db
		.select({
			members: count(),
			invitations: sql<number>`(select count(*)::int from ${invitations} where ${invitations.organizationId} = ${organizationId} and ${invitations.status} = 'pending' and ${invitations.expiresAt} > now())`,
		})
		.from(members)
		.where(eq(members.organizationId, organizationId))
	return (row?.members ?? 0) + Number(row?.invitations ?? 0)
}
