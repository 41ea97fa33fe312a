import { z } from 'zod'
import { emailSchema } from './common.ts'
import { type LimitKey, limitKeySchema, planIdSchema } from './limits.ts'

export {
	type LimitKey,
	type LimitReached,
	limitKeySchema,
	limitReachedSchema,
	type PlanId,
	planIdSchema,
} from './limits.ts'

// Plans, the organization's subscription, its usage against the plan's limits, and the
// subscription actions. Amounts are integers in the currency's minor units (cents).

export const paymentProviderSchema = z.enum(['local', 'stripe'])
export type PaymentProvider = z.infer<typeof paymentProviderSchema>

export const billingIntervalSchema = z.enum(['month', 'year'])
export type BillingInterval = z.infer<typeof billingIntervalSchema>

export const subscriptionStateSchema = z.enum(['trialing', 'active', 'past_due', 'paused', 'canceled'])
export type SubscriptionState = z.infer<typeof subscriptionStateSchema>

export const planSwitchSchema = z.enum(['removeBranding', 'customDomain', 'customCss'])
export type PlanSwitch = z.infer<typeof planSwitchSchema>

export const planSchema = z.object({
	id: planIdSchema,
	name: z.string(),
	description: z.string(),
	currency: z.string().length(3),
	/** Per interval, in minor units: the yearly price is for the whole year. */
	prices: z.object({ month: z.number().int().nonnegative(), year: z.number().int().nonnegative() }),
	limits: z.record(limitKeySchema, z.number().int().nonnegative().nullable()),
	switches: z.record(planSwitchSchema, z.boolean()),
	/** Shown as the recommended plan. */
	isHighlighted: z.boolean(),
})
export type Plan = z.infer<typeof planSchema>

export const plansResponseSchema = z.object({
	plans: z.array(planSchema),
	/** Days a new organization's trial lasts; 0 when organizations start on a plan at once. */
	trialDays: z.number().int().nonnegative(),
	/** The plan a trial runs on. */
	trialPlanId: planIdSchema,
	provider: paymentProviderSchema,
})
export type PlansResponse = z.infer<typeof plansResponseSchema>

/** Why a subscription is paused: the owner asked, or a trial ended with no plan chosen. */
export const pauseReasonSchema = z.enum(['requested', 'trial_ended'])
export type PauseReason = z.infer<typeof pauseReasonSchema>

export const subscriptionSchema = z.object({
	provider: paymentProviderSchema,
	planId: planIdSchema,
	interval: billingIntervalSchema,
	status: subscriptionStateSchema,
	trialEndsAt: z.iso.datetime().nullable(),
	currentPeriodStart: z.iso.datetime().nullable(),
	currentPeriodEnd: z.iso.datetime().nullable(),
	/** Set to end when the period (or the trial) ends; `dont_cancel` undoes it. */
	cancelAtPeriodEnd: z.boolean(),
	canceledAt: z.iso.datetime().nullable(),
	pausedAt: z.iso.datetime().nullable(),
	pauseReason: pauseReasonSchema.nullable(),
	/** A pause with a resume date resumes by itself then. */
	resumesAt: z.iso.datetime().nullable(),
	/** A downgrade waits for the period's end. */
	pendingChange: z.object({ planId: planIdSchema, interval: billingIntervalSchema, at: z.iso.datetime() }).nullable(),
	paymentMethod: z.object({ label: z.string() }).nullable(),
	nextInvoice: z.object({ amount: z.number().int(), currency: z.string().length(3), at: z.iso.datetime() }).nullable(),
})
export type Subscription = z.infer<typeof subscriptionSchema>

export const usageMeterSchema = z.object({
	key: limitKeySchema,
	used: z.number().int().nonnegative(),
	limit: z.number().int().nonnegative().nullable(),
})
export type UsageMeter = z.infer<typeof usageMeterSchema>

export const usageSchema = z.object({
	/** Monthly meters count from the start of this calendar month (UTC) to its end. */
	monthStart: z.iso.datetime(),
	monthEnd: z.iso.datetime(),
	meters: z.array(usageMeterSchema),
})
export type Usage = z.infer<typeof usageSchema>

export const billingInvoiceSchema = z.object({
	id: z.string(),
	number: z.string().nullable(),
	status: z.enum(['draft', 'open', 'paid', 'void', 'uncollectible']),
	amount: z.number().int(),
	currency: z.string().length(3),
	createdAt: z.iso.datetime(),
	/** The provider's page for the invoice (pay, download). */
	url: z.string().nullable(),
})
export type BillingInvoice = z.infer<typeof billingInvoiceSchema>

export const subscriptionOverviewSchema = z.object({
	subscription: subscriptionSchema,
	plan: planSchema,
	usage: usageSchema,
	invoices: z.array(billingInvoiceSchema),
	/** Owners and admins change billing; members see it. */
	canManage: z.boolean(),
})
export type SubscriptionOverview = z.infer<typeof subscriptionOverviewSchema>

/**
 * What a subscription action answers. `redirectUrl` is set when the provider must take over
 * (Stripe Checkout or its billing portal); the change shows once the provider reports it.
 */
export const subscriptionActionResultSchema = z.object({
	subscription: subscriptionSchema,
	redirectUrl: z.string().nullable(),
	message: z.string(),
})
export type SubscriptionActionResult = z.infer<typeof subscriptionActionResultSchema>

export const pauseSubscriptionSchema = z.object({
	/** Resume by itself on this date; without one the pause lasts until resumed. */
	resumesAt: z.iso.datetime().nullable().default(null),
})
export type PauseSubscription = z.infer<typeof pauseSubscriptionSchema>

export const updatePlanSchema = z.object({ planId: planIdSchema, interval: billingIntervalSchema })
export type UpdatePlan = z.infer<typeof updatePlanSchema>

export const createSubscriptionWithoutLoginSchema = z.object({
	planId: planIdSchema,
	interval: billingIntervalSchema,
	email: emailSchema,
	name: z.string().trim().min(1).max(100),
	organizationName: z.string().trim().min(1).max(100).optional(),
})
export type CreateSubscriptionWithoutLogin = z.infer<typeof createSubscriptionWithoutLoginSchema>

export const createSubscriptionWithoutLoginResultSchema = z.object({
	/** Stripe Checkout's page; null with the local provider, where the e-mail is the next step. */
	redirectUrl: z.string().nullable(),
	message: z.string(),
})
export type CreateSubscriptionWithoutLoginResult = z.infer<typeof createSubscriptionWithoutLoginResultSchema>

/** Human names for the meters, shared by the pricing page, Settings → Billing and 402 problems. */
export const limitLabels: Record<LimitKey, { name: string; unit: string }> = {
	members: { name: 'Team members', unit: 'members' },
	workspaces: { name: 'Workspaces', unit: 'workspaces' },
	forms: { name: 'Forms', unit: 'forms' },
	submissionsPerMonth: { name: 'Form answers per month', unit: 'answers' },
	fileStorageBytes: { name: 'File storage', unit: 'bytes' },
	charts: { name: 'Charts', unit: 'charts' },
	dashboards: { name: 'Dashboards', unit: 'dashboards' },
	portals: { name: 'Portals', unit: 'portals' },
	portalMembers: { name: 'Portal members', unit: 'members' },
	invoicesPerMonth: { name: 'Invoices per month', unit: 'invoices' },
	timeTrackingUsers: { name: 'Time-tracking users', unit: 'people' },
}

export const planSwitchLabels: Record<PlanSwitch, string> = {
	removeBranding: 'Remove "Made with Blocksmith"',
	customDomain: 'Custom domain',
	customCss: 'Custom CSS',
}
