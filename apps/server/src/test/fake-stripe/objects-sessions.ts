import type Stripe from 'stripe'
import { newId } from './params.ts'

/** Builders of the Checkout session, billing portal session and subscription schedule objects. */

export function checkoutSession(input: {
	mode: 'subscription' | 'setup' | 'payment'
	customer: string | null
	customerEmail: string | null
	successUrl: string
	cancelUrl: string | null
	clientReferenceId: string | null
	metadata: Record<string, string>
	amountTotal: number | null
	currency: string | null
	paymentMethodCollection: 'always' | 'if_required'
	created: number
	baseUrl: string
}): Stripe.Checkout.Session {
	const id = newId('cs')
	return {
		id,
		object: 'checkout.session',
		adaptive_pricing: { enabled: false },
		after_expiration: null,
		allow_promotion_codes: null,
		allowed_payment_method_types: null,
		amount_subtotal: input.amountTotal,
		amount_total: input.amountTotal,
		automatic_tax: { enabled: false, liability: null, provider: null, status: null },
		billing_address_collection: null,
		cancel_url: input.cancelUrl,
		client_reference_id: input.clientReferenceId,
		client_secret: null,
		collected_information: null,
		consent: null,
		consent_collection: null,
		created: input.created,
		currency: input.currency,
		currency_conversion: null,
		custom_fields: [],
		custom_text: { after_submit: null, shipping_address: null, submit: null, terms_of_service_acceptance: null },
		customer: input.customer,
		customer_account: null,
		customer_creation: null,
		customer_details: null,
		customer_email: input.customerEmail,
		discounts: [],
		expires_at: input.created + 24 * 3600,
		integration_identifier: null,
		invoice: null,
		invoice_creation: null,
		livemode: false,
		locale: null,
		managed_payments: null,
		metadata: input.metadata,
		mode: input.mode,
		origin_context: null,
		payment_intent: null,
		payment_link: null,
		payment_method_collection: input.mode === 'subscription' ? input.paymentMethodCollection : null,
		payment_method_configuration_details: null,
		payment_method_options: {},
		payment_method_types: ['card'],
		payment_status: input.mode === 'setup' ? 'no_payment_required' : 'unpaid',
		permissions: null,
		phone_number_collection: { enabled: false },
		recovered_from: null,
		saved_payment_method_options: null,
		setup_intent: null,
		shipping_address_collection: null,
		shipping_cost: null,
		shipping_options: [],
		status: 'open',
		submit_type: null,
		subscription: null,
		success_url: input.successUrl,
		total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
		ui_mode: 'hosted_page',
		url: `${input.baseUrl}/checkout/${id}`,
		wallet_options: null,
	}
}

export function portalSession(input: {
	customer: string
	returnUrl: string | null
	flow: Stripe.BillingPortal.Session.Flow | null
	created: number
	baseUrl: string
}): Stripe.BillingPortal.Session {
	const id = newId('bps')
	return {
		id,
		object: 'billing_portal.session',
		configuration: 'bpc_1FakeStripeDefaultConfig',
		created: input.created,
		customer: input.customer,
		customer_account: null,
		flow: input.flow,
		livemode: false,
		locale: null,
		on_behalf_of: null,
		return_url: input.returnUrl,
		url: `${input.baseUrl}/portal/${id}`,
	}
}

export function schedulePhase(input: {
	items: Array<{ price: string; quantity: number }>
	start: number
	end: number
	currency: string
	prorationBehavior: Stripe.SubscriptionSchedule.Phase.ProrationBehavior
	metadata: Record<string, string>
}): Stripe.SubscriptionSchedule.Phase {
	return {
		add_invoice_items: [],
		application_fee_percent: null,
		billing_cycle_anchor: null,
		billing_thresholds: null,
		collection_method: null,
		currency: input.currency,
		default_payment_method: null,
		default_tax_rates: [],
		description: null,
		discounts: [],
		end_date: input.end,
		invoice_settings: null,
		items: input.items.map((item) => ({
			billing_thresholds: null,
			discounts: [],
			metadata: {},
			plan: item.price,
			price: item.price,
			quantity: item.quantity,
			tax_rates: [],
		})),
		metadata: input.metadata,
		on_behalf_of: null,
		proration_behavior: input.prorationBehavior,
		start_date: input.start,
		transfer_data: null,
		trial_end: null,
	}
}

export function schedule(input: {
	customer: string
	subscription: string
	phases: Stripe.SubscriptionSchedule.Phase[]
	created: number
}): Stripe.SubscriptionSchedule {
	const first = input.phases[0]
	return {
		id: newId('sub_sched'),
		object: 'subscription_schedule',
		application: null,
		billing_mode: { flexible: { proration_discounts: 'included' }, type: 'flexible', updated_at: input.created },
		canceled_at: null,
		completed_at: null,
		created: input.created,
		current_phase: first ? { start_date: first.start_date, end_date: first.end_date } : null,
		customer: input.customer,
		customer_account: null,
		default_settings: {
			application_fee_percent: null,
			billing_cycle_anchor: 'automatic',
			billing_thresholds: null,
			collection_method: 'charge_automatically',
			default_payment_method: null,
			description: null,
			invoice_settings: {
				account_tax_ids: null,
				custom_fields: null,
				days_until_due: null,
				description: null,
				footer: null,
				issuer: { type: 'self' },
			},
			on_behalf_of: null,
			transfer_data: null,
		},
		end_behavior: 'release',
		livemode: false,
		metadata: {},
		pause_schedules: [],
		phases: input.phases,
		released_at: null,
		released_subscription: null,
		status: 'active',
		subscription: input.subscription,
		test_clock: null,
	}
}
