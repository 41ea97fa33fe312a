import type {
	BillingInterval,
	BillingInvoice,
	PauseReason,
	PaymentProvider,
	PlanId,
	SubscriptionState,
} from '@blocksmith/contracts/subscriptions.ts'
import { bigint, boolean, index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { organizations, users } from '#src/core/auth/auth.schema.ts'

const at = (name: string) => timestamp(name, { withTimezone: true })

/** One per organization, made with its trial the first time it is read. */
export const subscriptions = pgTable('subscriptions', {
	organizationId: text('organization_id')
		.primaryKey()
		.references(() => organizations.id, { onDelete: 'cascade' }),
	provider: text('provider').$type<PaymentProvider>().notNull(),
	planId: text('plan_id').$type<PlanId>().notNull(),
	interval: text('interval').$type<BillingInterval>().notNull(),
	status: text('status').$type<SubscriptionState>().notNull(),
	trialEndsAt: at('trial_ends_at'),
	currentPeriodStart: at('current_period_start'),
	currentPeriodEnd: at('current_period_end'),
	cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
	canceledAt: at('canceled_at'),
	pausedAt: at('paused_at'),
	pauseReason: text('pause_reason').$type<PauseReason>(),
	resumesAt: at('resumes_at'),
	pendingPlanId: text('pending_plan_id').$type<PlanId>(),
	pendingInterval: text('pending_interval').$type<BillingInterval>(),
	/** "Visa •••• 4242", or the local provider's note; null when none is on file. */
	paymentMethodLabel: text('payment_method_label'),
	stripeCustomerId: text('stripe_customer_id').unique(),
	stripeSubscriptionId: text('stripe_subscription_id').unique(),
	/** A downgrade waiting for the period's end is a Stripe subscription schedule. */
	stripeScheduleId: text('stripe_schedule_id'),
	/** The next invoice as the provider last reported it (Stripe), in minor units. */
	nextInvoiceAmount: bigint('next_invoice_amount', { mode: 'number' }),
	nextInvoiceCurrency: text('next_invoice_currency'),
	createdAt: at('created_at').notNull().defaultNow(),
	updatedAt: at('updated_at').notNull().defaultNow(),
})

/** Invoices the billing provider sent (Stripe's), listed in Settings → Billing. */
export const billingInvoices = pgTable(
	'billing_invoices',
	{
		id: text('id').primaryKey(),
		organizationId: text('organization_id')
			.notNull()
			.references(() => organizations.id, { onDelete: 'cascade' }),
		provider: text('provider').$type<PaymentProvider>().notNull(),
		number: text('number'),
		status: text('status').$type<BillingInvoice['status']>().notNull(),
		amount: bigint('amount', { mode: 'number' }).notNull(),
		currency: text('currency').notNull(),
		url: text('url'),
		createdAt: at('created_at').notNull(),
	},
	(table) => [index('billing_invoices_organization_id_idx').on(table.organizationId, table.createdAt)],
)

/** Provider events received, by their id: one seen before is acknowledged and not handled again. */
export const billingEvents = pgTable('billing_events', {
	id: text('id').primaryKey(),
	provider: text('provider').$type<PaymentProvider>().notNull(),
	type: text('type').notNull(),
	payload: jsonb('payload').notNull(),
	receivedAt: at('received_at').notNull().defaultNow(),
	handledAt: at('handled_at'),
})

/**
 * A plan bought (Stripe) or a trial started (local) by a visitor without an account. The
 * account and its organization are made from it once the payment or the e-mail is confirmed,
 * so nothing is lost if the visitor closes the tab in between.
 */
export const billingSignups = pgTable(
	'billing_signups',
	{
		id: text('id').primaryKey(),
		email: text('email').notNull(),
		name: text('name').notNull(),
		organizationName: text('organization_name'),
		planId: text('plan_id').$type<PlanId>().notNull(),
		interval: text('interval').$type<BillingInterval>().notNull(),
		provider: text('provider').$type<PaymentProvider>().notNull(),
		stripeCheckoutId: text('stripe_checkout_id').unique(),
		stripeCustomerId: text('stripe_customer_id'),
		stripeSubscriptionId: text('stripe_subscription_id'),
		/** Set once the account exists. */
		userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
		organizationId: text('organization_id').references(() => organizations.id, { onDelete: 'set null' }),
		createdAt: at('created_at').notNull().defaultNow(),
		completedAt: at('completed_at'),
	},
	(table) => [index('billing_signups_email_idx').on(table.email)],
)
