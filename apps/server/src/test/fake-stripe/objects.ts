import type Stripe from 'stripe'
import { newId, randomInvoicePrefix } from './params.ts'

/**
 * Builders of Stripe's objects as the SDK's types for its pinned API version describe them, so the compiler
 * checks every field. Values the fake never sets are the ones Stripe answers for a plain test-mode account.
 */

/** Stripe sends `*_decimal` fields as strings; the SDK turns them into its Decimal class on receipt. */
function decimal(value: number): Stripe.Decimal {
	return String(value) as unknown as Stripe.Decimal
}

export function list<T>(data: T[], url: string, hasMore = false): Stripe.ApiList<T> {
	return { object: 'list', data, has_more: hasMore, url }
}

export function product(name: string, created: number): Stripe.Product {
	return {
		id: newId('prod'),
		object: 'product',
		active: true,
		created,
		default_price: null,
		description: null,
		images: [],
		livemode: false,
		marketing_features: [],
		metadata: {},
		name,
		package_dimensions: null,
		shippable: null,
		statement_descriptor: null,
		tax_code: null,
		tax_details: null,
		type: 'service',
		unit_label: null,
		updated: created,
		url: null,
	}
}

export type PriceSeed = {
	lookupKey: string
	unitAmount: number
	currency: string
	interval: 'month' | 'year'
	productName: string
}

export function price(seed: PriceSeed, productId: string, created: number): Stripe.Price {
	return {
		id: newId('price'),
		object: 'price',
		active: true,
		billing_scheme: 'per_unit',
		created,
		currency: seed.currency.toLowerCase(),
		custom_unit_amount: null,
		livemode: false,
		lookup_key: seed.lookupKey,
		metadata: {},
		nickname: null,
		product: productId,
		recurring: {
			interval: seed.interval,
			interval_count: 1,
			meter: null,
			trial_period_days: null,
			usage_type: 'licensed',
		},
		tax_behavior: 'unspecified',
		tiers_mode: null,
		transform_quantity: null,
		type: 'recurring',
		unit_amount: seed.unitAmount,
		unit_amount_decimal: decimal(seed.unitAmount),
	}
}

/** The legacy `plan` every subscription item still carries, mirroring its price. */
export function planOf(from: Stripe.Price): Stripe.Plan {
	return {
		id: from.id,
		object: 'plan',
		active: from.active,
		amount: from.unit_amount,
		amount_decimal: from.unit_amount_decimal,
		billing_scheme: 'per_unit',
		created: from.created,
		currency: from.currency,
		interval: from.recurring?.interval ?? 'month',
		interval_count: from.recurring?.interval_count ?? 1,
		livemode: false,
		metadata: {},
		meter: null,
		nickname: from.nickname,
		product: typeof from.product === 'string' ? from.product : from.product.id,
		tiers_mode: null,
		transform_usage: null,
		trial_period_days: null,
		usage_type: 'licensed',
	}
}

export function customer(input: {
	email: string | null
	name: string | null
	description: string | null
	metadata: Record<string, string>
	created: number
}): Stripe.Customer {
	return {
		id: newId('cus'),
		object: 'customer',
		address: null,
		balance: 0,
		created: input.created,
		currency: null,
		default_source: null,
		delinquent: false,
		description: input.description,
		discount: null,
		email: input.email,
		invoice_prefix: randomInvoicePrefix(),
		invoice_settings: { custom_fields: null, default_payment_method: null, footer: null, rendering_options: null },
		livemode: false,
		metadata: input.metadata,
		name: input.name,
		next_invoice_sequence: 1,
		phone: null,
		preferred_locales: [],
		shipping: null,
		tax_exempt: 'none',
		test_clock: null,
	}
}

export function cardPaymentMethod(
	customerId: string,
	last4: string,
	email: string | null,
	created: number,
): Stripe.PaymentMethod {
	const expires = new Date(created * 1000)
	return {
		id: newId('pm'),
		object: 'payment_method',
		allow_redisplay: 'always',
		billing_details: { address: null, email, name: null, phone: null, tax_id: null },
		card: {
			brand: 'visa',
			checks: { address_line1_check: null, address_postal_code_check: null, cvc_check: 'pass' },
			country: 'US',
			display_brand: 'visa',
			exp_month: 12,
			exp_year: expires.getUTCFullYear() + 3,
			fingerprint: `fp${last4}${customerId.slice(-6)}`,
			funding: 'credit',
			generated_from: null,
			last4,
			networks: { available: ['visa'], preferred: null },
			regulated_status: 'unregulated',
			three_d_secure_usage: { supported: true },
			wallet: null,
		},
		created,
		customer: customerId,
		customer_account: null,
		livemode: false,
		metadata: {},
		type: 'card',
	}
}

export function subscriptionItem(
	subscriptionId: string,
	from: Stripe.Price,
	quantity: number,
	period: { start: number; end: number },
	created: number,
): Stripe.SubscriptionItem {
	return {
		id: newId('si'),
		object: 'subscription_item',
		billing_thresholds: null,
		created,
		current_period_end: period.end,
		current_period_start: period.start,
		current_trial: null,
		discounts: [],
		metadata: {},
		plan: planOf(from),
		price: from,
		quantity,
		subscription: subscriptionId,
		tax_rates: [],
	}
}

export type MissingPaymentMethod = 'cancel' | 'create_invoice' | 'pause'

export function subscription(input: {
	customer: string
	currency: string
	created: number
	metadata: Record<string, string>
	description: string | null
	missingPaymentMethod: MissingPaymentMethod
}): Stripe.Subscription {
	const id = newId('sub')
	return {
		id,
		object: 'subscription',
		application: null,
		application_fee_percent: null,
		automatic_tax: { disabled_reason: null, enabled: false, liability: null },
		billing_cycle_anchor: input.created,
		billing_cycle_anchor_config: null,
		billing_mode: { flexible: { proration_discounts: 'included' }, type: 'flexible', updated_at: input.created },
		billing_schedules: [],
		billing_thresholds: null,
		cancel_at: null,
		cancel_at_period_end: false,
		canceled_at: null,
		cancellation_details: { comment: null, feedback: null, feedback_option: null, reason: null },
		collection_method: 'charge_automatically',
		created: input.created,
		currency: input.currency,
		customer: input.customer,
		customer_account: null,
		days_until_due: null,
		default_payment_method: null,
		default_source: null,
		default_tax_rates: [],
		description: input.description,
		discounts: [],
		ended_at: null,
		invoice_settings: {
			account_tax_ids: null,
			custom_fields: null,
			description: null,
			footer: null,
			issuer: { type: 'self' },
		},
		items: list([], `/v1/subscription_items?subscription=${id}`),
		latest_invoice: null,
		livemode: false,
		managed_payments: null,
		metadata: input.metadata,
		next_pending_invoice_item_invoice: null,
		on_behalf_of: null,
		pause_collection: null,
		payment_settings: { payment_method_options: null, payment_method_types: null, save_default_payment_method: 'off' },
		pending_invoice_item_interval: null,
		pending_setup_intent: null,
		pending_update: null,
		schedule: null,
		start_date: input.created,
		status: 'incomplete',
		test_clock: null,
		transfer_data: null,
		trial_end: null,
		trial_settings: {
			end_behavior: { billing_cycle_anchor: null, missing_payment_method: input.missingPaymentMethod },
		},
		trial_start: null,
	}
}

export type LineInput = {
	amount: number
	description: string
	price: Stripe.Price
	quantity: number
	period: { start: number; end: number }
	proration: boolean
	subscriptionItem: string
}

export function invoiceLine(invoiceId: string, subscriptionId: string, line: LineInput): Stripe.InvoiceLineItem {
	const productId = typeof line.price.product === 'string' ? line.price.product : line.price.product.id
	return {
		id: newId('il'),
		object: 'line_item',
		amount: line.amount,
		currency: line.price.currency,
		description: line.description,
		discount_amounts: [],
		discountable: true,
		discounts: [],
		invoice: invoiceId,
		livemode: false,
		metadata: {},
		parent: {
			invoice_item_details: null,
			subscription_item_details: {
				invoice_item: line.proration ? newId('ii') : null,
				proration: line.proration,
				proration_details: line.proration ? { credited_items: null } : null,
				subscription: subscriptionId,
				subscription_item: line.subscriptionItem,
			},
			type: 'subscription_item_details',
		},
		period: line.period,
		pretax_credit_amounts: [],
		pricing: {
			price_details: { price: line.price.id, product: productId },
			type: 'price_details',
			unit_amount_decimal: line.price.unit_amount_decimal,
		},
		quantity: line.quantity,
		quantity_decimal: decimal(line.quantity),
		subscription: subscriptionId,
		subtotal: line.amount,
		taxes: [],
	}
}

export function invoice(input: {
	customer: Stripe.Customer
	subscription: Stripe.Subscription
	billingReason: Stripe.Invoice.BillingReason
	period: { start: number; end: number }
	created: number
}): Stripe.Invoice {
	const id = newId('in')
	return {
		id,
		object: 'invoice',
		account_country: 'US',
		account_name: 'Blocksmith (fake Stripe)',
		account_tax_ids: null,
		amount_due: 0,
		amount_overpaid: 0,
		amount_paid: 0,
		amount_remaining: 0,
		amount_shipping: 0,
		application: null,
		attempt_count: 0,
		attempted: false,
		auto_advance: true,
		automatic_tax: { disabled_reason: null, enabled: false, liability: null, provider: null, status: null },
		automatically_finalizes_at: null,
		billing_reason: input.billingReason,
		collection_method: 'charge_automatically',
		created: input.created,
		currency: input.subscription.currency,
		custom_fields: null,
		customer: input.customer.id,
		customer_account: null,
		customer_address: null,
		customer_email: input.customer.email,
		customer_name: input.customer.name ?? null,
		customer_phone: null,
		customer_shipping: null,
		customer_tax_exempt: 'none',
		customer_tax_ids: [],
		default_payment_method: null,
		default_source: null,
		default_tax_rates: [],
		description: null,
		discounts: [],
		due_date: null,
		effective_at: null,
		ending_balance: null,
		footer: null,
		from_invoice: null,
		hosted_invoice_url: null,
		invoice_pdf: null,
		issuer: { type: 'self' },
		last_finalization_error: null,
		latest_revision: null,
		lines: list([], `/v1/invoices/${id}/lines`),
		livemode: false,
		metadata: {},
		next_payment_attempt: null,
		number: null,
		on_behalf_of: null,
		parent: {
			quote_details: null,
			subscription_details: { metadata: { ...input.subscription.metadata }, subscription: input.subscription.id },
			type: 'subscription_details',
		},
		payment_settings: { default_mandate: null, payment_method_options: null, payment_method_types: null },
		period_end: input.period.end,
		period_start: input.period.start,
		post_payment_credit_notes_amount: 0,
		pre_payment_credit_notes_amount: 0,
		receipt_number: null,
		rendering: null,
		shipping_cost: null,
		shipping_details: null,
		starting_balance: 0,
		statement_descriptor: null,
		status: 'draft',
		status_transitions: { finalized_at: null, marked_uncollectible_at: null, paid_at: null, voided_at: null },
		subtotal: 0,
		subtotal_excluding_tax: 0,
		test_clock: null,
		total: 0,
		total_discount_amounts: [],
		total_excluding_tax: 0,
		total_pretax_credit_amounts: [],
		total_taxes: [],
		webhooks_delivered_at: input.created,
	}
}
