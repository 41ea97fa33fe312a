import type {
	CreateSubscriptionWithoutLogin,
	CreateSubscriptionWithoutLoginResult,
	PaymentProvider,
} from '@blocksmith/contracts/subscriptions.ts'
import type { BillingConfig } from '#src/config.ts'
import type { MemberContext } from '#src/core/auth/auth.middleware.ts'
import type { Db } from '#src/db/client.ts'
import type { Jobs } from '#src/lib/jobs.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Mailer } from '#src/lib/mail.ts'
import type { Decision, SubAction } from './subscriptions.machine.ts'
import type { SubscriptionRow } from './subscriptions.store.ts'
import type { Meters } from './subscriptions.usage.ts'

export type SubscriptionsDeps = {
	db: Db
	jobs: Jobs
	log: Logger
	mail: Mailer
	billing: BillingConfig
	publicUrl: string
	authSecret: string
	/** RATE_LIMITS: off only for load tests. */
	rateLimits: boolean
	meters: Meters
	provider: BillingProvider
	/** Tests move time; everything else asks the clock. */
	now: () => Date
	/** Drops what public pages keep of an organization's subscription, after a change. */
	forget: (organizationId: string) => void
}

export type SubscriptionsCtx = SubscriptionsDeps & { member: MemberContext; email: string }

export type ActionOutcome = { row: SubscriptionRow; redirectUrl: string | null; message: string }

/**
 * A billing provider carries out an action the state machine allowed. The local provider
 * applies the machine's next state as it is; Stripe makes Stripe do it (or sends the owner to
 * Checkout or its portal) and rebuilds the state from Stripe's objects.
 */
export interface BillingProvider {
	readonly name: PaymentProvider
	act(
		ctx: SubscriptionsCtx,
		row: SubscriptionRow,
		action: SubAction,
		decision: Extract<Decision, { ok: true }>,
	): Promise<ActionOutcome>
	/** A visitor without an account picks a plan: Checkout (Stripe) or a confirmation e-mail (local). */
	startSignup(
		deps: SubscriptionsDeps,
		signupId: string,
		input: CreateSubscriptionWithoutLogin,
	): Promise<CreateSubscriptionWithoutLoginResult>
	/** Ends the subscription now, not at the period's end (the organization is being deleted): nothing more is billed. */
	endNow(deps: SubscriptionsDeps, row: SubscriptionRow): Promise<SubscriptionRow>
}
