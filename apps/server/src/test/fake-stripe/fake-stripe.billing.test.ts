import Stripe from 'stripe'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_PRICES, type FakeStripe, startFakeStripe } from './fake-stripe.ts'
import { DAY, eventTypes, item, priceId, rejection, sdk, subscribe } from './testing.ts'

let fake: FakeStripe
let stripe: Stripe

beforeEach(async () => {
	fake = await startFakeStripe({ prices: DEFAULT_PRICES })
	stripe = sdk(fake)
})

afterEach(async () => {
	await fake.close()
})

async function invoicesOf(subscriptionId: string): Promise<Stripe.Invoice[]> {
	return (await stripe.invoices.list({ subscription: subscriptionId, limit: 100 })).data
}

describe('cancellation', () => {
	it('cancels at the period end, can be undone, and ends the subscription when the period is over', async () => {
		const { subscription } = await subscribe(fake, stripe)
		const periodEnd = item(subscription).current_period_end
		const requestedAt = fake.now()
		const canceling = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true })
		expect(canceling).toMatchObject({ status: 'active', cancel_at_period_end: true, cancel_at: periodEnd })
		expect(canceling.canceled_at).toBeGreaterThanOrEqual(requestedAt)
		expect(canceling.canceled_at).toBeLessThanOrEqual(fake.now())
		expect(canceling.cancellation_details?.reason).toBe('cancellation_requested')

		const undone = await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false })
		expect(undone).toMatchObject({ cancel_at_period_end: false, cancel_at: null, canceled_at: null })
		fake.advance(periodEnd - fake.now() + 60)
		const renewed = await stripe.subscriptions.retrieve(subscription.id)
		expect(renewed.status).toBe('active')
		expect(item(renewed).current_period_start).toBe(periodEnd)
		expect(await invoicesOf(subscription.id)).toHaveLength(2)

		await stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true })
		fake.advance(item(renewed).current_period_end - fake.now() + 60)
		const ended = await stripe.subscriptions.retrieve(subscription.id)
		expect(ended.status).toBe('canceled')
		expect(ended.ended_at).toBe(item(renewed).current_period_end)
		expect(await invoicesOf(subscription.id)).toHaveLength(2)
		expect(eventTypes(fake, subscription.id).at(-1)).toBe('customer.subscription.deleted')
	})

	it('clears a cancel_at with an empty string and cancels at a given date', async () => {
		const { subscription } = await subscribe(fake, stripe)
		const at = fake.now() + 10 * DAY
		expect((await stripe.subscriptions.update(subscription.id, { cancel_at: at })).cancel_at).toBe(at)
		expect((await stripe.subscriptions.update(subscription.id, { cancel_at: '' })).cancel_at).toBeNull()
		await stripe.subscriptions.update(subscription.id, { cancel_at: at })
		fake.advance(10 * DAY + 1)
		const ended = await stripe.subscriptions.retrieve(subscription.id)
		expect(ended).toMatchObject({ status: 'canceled', ended_at: at })
	})

	it('cancels now, then refuses updates of the canceled subscription', async () => {
		const { subscription } = await subscribe(fake, stripe)
		const requestedAt = fake.now()
		const canceled = await stripe.subscriptions.cancel(subscription.id)
		expect(canceled.status).toBe('canceled')
		expect(canceled.ended_at).toBeGreaterThanOrEqual(requestedAt)
		expect(canceled.ended_at).toBeLessThanOrEqual(fake.now())
		expect(canceled.canceled_at).toBe(canceled.ended_at)
		const refused = await rejection(stripe.subscriptions.update(subscription.id, { cancel_at_period_end: false }))
		expect(refused).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError)
		expect(refused).toMatchObject({ code: 'invalid_canceled_subscription_fields', statusCode: 400 })
		const metadata = await stripe.subscriptions.update(subscription.id, { metadata: { note: 'gone' } })
		expect(metadata.metadata).toMatchObject({ note: 'gone' })
		const active = await stripe.subscriptions.list({ customer: String(subscription.customer) })
		expect(active.data).toEqual([])
		const all = await stripe.subscriptions.list({ customer: String(subscription.customer), status: 'all' })
		expect(all.data.map((each) => each.id)).toEqual([subscription.id])
	})
})

describe('pause_collection', () => {
	it('voids renewal invoices while set, clears with an empty string, and lapses at resumes_at', async () => {
		const { subscription } = await subscribe(fake, stripe)
		const end = item(subscription).current_period_end
		const paused = await stripe.subscriptions.update(subscription.id, { pause_collection: { behavior: 'void' } })
		expect(paused.pause_collection).toEqual({ behavior: 'void', resumes_at: null })
		expect(paused.status).toBe('active')
		fake.advance(end - fake.now() + 60)
		const [voided] = await invoicesOf(subscription.id)
		expect(voided).toMatchObject({ status: 'void', billing_reason: 'subscription_cycle', amount_paid: 0 })

		const cleared = await stripe.subscriptions.update(subscription.id, { pause_collection: '' })
		expect(cleared.pause_collection).toBeNull()
		const resumesAt = fake.now() + 5 * DAY
		await stripe.subscriptions.update(subscription.id, {
			pause_collection: { behavior: 'void', resumes_at: resumesAt },
		})
		fake.advance(5 * DAY + 1)
		const lapsed = await stripe.subscriptions.retrieve(subscription.id)
		expect(lapsed.pause_collection).toBeNull()
		fake.advance(item(lapsed).current_period_end - fake.now() + 60)
		const [paid] = await invoicesOf(subscription.id)
		expect(paid).toMatchObject({ status: 'paid', amount_paid: 2900 })
	})
})

describe('plan changes', () => {
	it('upgrades with always_invoice: a prorated invoice is created and paid at once', async () => {
		const { subscription } = await subscribe(fake, stripe, { lookupKey: 'blocksmith_starter_month' })
		const period = { start: item(subscription).current_period_start, end: item(subscription).current_period_end }
		fake.advance(10 * DAY)
		const pro = await priceId(stripe, 'blocksmith_pro_month')
		const updated = await stripe.subscriptions.update(subscription.id, {
			items: [{ id: item(subscription).id, price: pro }],
			proration_behavior: 'always_invoice',
		})
		expect(item(updated).price.id).toBe(pro)
		expect(item(updated).current_period_end).toBe(period.end)
		const invoices = await invoicesOf(subscription.id)
		expect(invoices).toHaveLength(2)
		const changedAt = invoices[0]?.lines.data[0]?.period.start ?? 0
		expect(changedAt).toBeGreaterThanOrEqual(period.start + 10 * DAY)
		const share = (period.end - changedAt) / (period.end - period.start)
		const expected = Math.round(2900 * share) - Math.round(1200 * share)
		expect(invoices[0]).toMatchObject({
			billing_reason: 'subscription_update',
			status: 'paid',
			amount_paid: expected,
		})
		expect(invoices[0]?.lines.data.map((line) => line.amount)).toEqual([
			-Math.round(1200 * share),
			Math.round(2900 * share),
		])
		expect(updated.latest_invoice).toBe(invoices[0]?.id)
	})

	it('keeps create_prorations for the next invoice and bills none with none', async () => {
		const { subscription } = await subscribe(fake, stripe, { lookupKey: 'blocksmith_starter_month' })
		fake.advance(10 * DAY)
		await stripe.subscriptions.update(subscription.id, {
			items: [{ id: item(subscription).id, price: await priceId(stripe, 'blocksmith_pro_month') }],
			proration_behavior: 'create_prorations',
		})
		expect(await invoicesOf(subscription.id)).toHaveLength(1)
		fake.advance(item(subscription).current_period_end - fake.now() + 60)
		const [renewal] = await invoicesOf(subscription.id)
		expect(renewal?.lines.data).toHaveLength(3)
		expect(renewal?.amount_paid).toBeGreaterThan(2900)
	})

	it('downgrades through a schedule: the price changes when the period ends', async () => {
		const { subscription } = await subscribe(fake, stripe, { lookupKey: 'blocksmith_business_month' })
		const current = item(subscription)
		const starter = await priceId(stripe, 'blocksmith_starter_month')
		const schedule = await stripe.subscriptionSchedules.create({ from_subscription: subscription.id })
		expect(schedule.id).toMatch(/^sub_sched_/)
		expect(schedule.phases[0]).toMatchObject({
			start_date: current.current_period_start,
			end_date: current.current_period_end,
		})
		const updated = await stripe.subscriptionSchedules.update(schedule.id, {
			end_behavior: 'release',
			phases: [
				{
					items: [{ price: current.price.id, quantity: 1 }],
					start_date: schedule.phases[0]?.start_date ?? 0,
					end_date: current.current_period_end,
				},
				{ items: [{ price: starter, quantity: 1 }], proration_behavior: 'none' },
			],
		})
		expect(updated.phases).toHaveLength(2)
		expect((await stripe.subscriptions.retrieve(subscription.id)).schedule).toBe(schedule.id)

		fake.advance(current.current_period_end - fake.now() - 60)
		expect(item(await stripe.subscriptions.retrieve(subscription.id)).price.id).toBe(current.price.id)
		fake.advance(120)
		const downgraded = await stripe.subscriptions.retrieve(subscription.id)
		expect(item(downgraded).price.id).toBe(starter)
		const [renewal] = await invoicesOf(subscription.id)
		expect(renewal).toMatchObject({ billing_reason: 'subscription_cycle', amount_paid: 1200 })

		fake.advance(item(downgraded).current_period_end - fake.now() + 60)
		const released = await stripe.subscriptionSchedules.retrieve(schedule.id)
		expect(released).toMatchObject({ status: 'released', released_subscription: subscription.id, subscription: null })
		const after = await stripe.subscriptions.retrieve(subscription.id)
		expect(after.schedule).toBeNull()
		expect(item(after).price.id).toBe(starter)
	})

	it('releases a schedule on request and refuses cancellation changes while scheduled', async () => {
		const { subscription } = await subscribe(fake, stripe)
		const schedule = await stripe.subscriptionSchedules.create({ from_subscription: subscription.id })
		const refused = await rejection(stripe.subscriptions.update(subscription.id, { cancel_at_period_end: true }))
		expect((refused as Error).message).toContain('managed by the subscription schedule')
		const released = await stripe.subscriptionSchedules.release(schedule.id)
		expect(released.status).toBe('released')
		expect((await stripe.subscriptions.retrieve(subscription.id)).schedule).toBeNull()
	})
})

describe('trials', () => {
	it('ends a trial now: a new period starts and is billed at once', async () => {
		const { subscription } = await subscribe(fake, stripe, { trialDays: 14 })
		fake.advance(DAY)
		const requestedAt = fake.now()
		const ended = await stripe.subscriptions.update(subscription.id, {
			trial_end: 'now',
			proration_behavior: 'none',
			payment_behavior: 'error_if_incomplete',
		})
		const now = ended.trial_end ?? 0
		expect(now).toBeGreaterThanOrEqual(requestedAt)
		expect(now).toBeLessThanOrEqual(fake.now())
		expect(ended).toMatchObject({ status: 'active', billing_cycle_anchor: now })
		expect(item(ended).current_period_start).toBe(now)
		const end = new Date(now * 1000)
		end.setUTCMonth(end.getUTCMonth() + 1)
		expect(item(ended).current_period_end).toBeLessThanOrEqual(end.getTime() / 1000)
		expect(item(ended).current_period_end).toBeGreaterThan(now + 27 * DAY)
		const [invoice] = await invoicesOf(subscription.id)
		expect(invoice).toMatchObject({ status: 'paid', amount_paid: 2900 })
		expect(eventTypes(fake, subscription.id)).toContain('customer.subscription.trial_will_end')
	})

	it('refuses trial_end=now with error_if_incomplete when the card declines, and goes past_due otherwise', async () => {
		const { subscription } = await subscribe(fake, stripe, { trialDays: 14, card: 'declines' })
		const error = await rejection(
			stripe.subscriptions.update(subscription.id, { trial_end: 'now', payment_behavior: 'error_if_incomplete' }),
		)
		expect(error).toBeInstanceOf(Stripe.errors.StripeCardError)
		expect(error).toMatchObject({ code: 'card_declined', statusCode: 402 })
		expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('trialing')
		const pastDue = await stripe.subscriptions.update(subscription.id, { trial_end: 'now' })
		expect(pastDue.status).toBe('past_due')
		const [open] = await invoicesOf(subscription.id)
		expect(open).toMatchObject({ status: 'open', amount_remaining: 2900, attempted: true })
	})

	it('pauses when a trial ends without a payment method and end_behavior says pause', async () => {
		const { subscription, customerId } = await subscribe(fake, stripe, {
			trialDays: 7,
			card: 'none',
			missingPaymentMethod: 'pause',
		})
		expect(subscription.status).toBe('trialing')
		expect(subscription.trial_settings?.end_behavior.missing_payment_method).toBe('pause')
		const customer = (await stripe.customers.retrieve(customerId)) as Stripe.Customer
		expect(customer.invoice_settings.default_payment_method).toBeNull()
		fake.advance(7 * DAY + 60)
		const paused = await stripe.subscriptions.retrieve(subscription.id)
		expect(paused.status).toBe('paused')
		expect(await invoicesOf(subscription.id)).toHaveLength(1)
		expect(eventTypes(fake, subscription.id)).toEqual([
			'customer.subscription.created',
			'customer.subscription.trial_will_end',
			'customer.subscription.paused',
			'customer.subscription.updated',
		])
		const pausedEvent = fake.events().find((view) => view.event.type === 'customer.subscription.paused')
		expect(pausedEvent?.event.data.previous_attributes).toMatchObject({ status: 'trialing' })

		// A card saved later, then an explicit resume: a new period starts now and is paid.
		const setup = await stripe.checkout.sessions.create({
			mode: 'setup',
			customer: customerId,
			success_url: 'https://app.test',
		})
		fake.completeCheckout(setup.id)
		expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('paused')
		const resumed = await stripe.subscriptions.resume(subscription.id)
		expect(resumed.status).toBe('active')
		expect(resumed.status_details).toBeUndefined()
		const [invoice] = await invoicesOf(subscription.id)
		expect(invoice).toMatchObject({ status: 'paid', amount_paid: 2900 })
		expect(eventTypes(fake, subscription.id)).toContain('customer.subscription.resumed')
	})

	it('charges the card when a trial ends: active, with a first paid period from the trial end', async () => {
		const { subscription } = await subscribe(fake, stripe, { trialDays: 14 })
		const trialEnd = subscription.trial_end ?? 0
		fake.advance(trialEnd - fake.now() + 60)
		const active = await stripe.subscriptions.retrieve(subscription.id)
		expect(active.status).toBe('active')
		expect(item(active).current_period_start).toBe(trialEnd)
		const [invoice] = await invoicesOf(subscription.id)
		expect(invoice).toMatchObject({ status: 'paid', amount_paid: 2900, billing_reason: 'subscription_cycle' })
		expect(invoice?.created).toBe(trialEnd)
	})

	it('goes past_due with an open invoice when a trial ends without a payment method by default', async () => {
		const { subscription } = await subscribe(fake, stripe, { trialDays: 7, card: 'none' })
		fake.advance(7 * DAY + 60)
		expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due')
		const [open] = await invoicesOf(subscription.id)
		expect(open?.status).toBe('open')
		expect(eventTypes(fake)).toContain('invoice.payment_failed')
	})
})

describe('failed payments', () => {
	it('a declining card makes a renewal past_due; saving a card in the portal pays it and reactivates', async () => {
		const { subscription, customerId } = await subscribe(fake, stripe)
		fake.setCard(customerId, 'declines')
		fake.advance(item(subscription).current_period_end - fake.now() + 60)
		const pastDue = await stripe.subscriptions.retrieve(subscription.id)
		expect(pastDue.status).toBe('past_due')
		const [open] = await invoicesOf(subscription.id)
		expect(open).toMatchObject({ status: 'open', billing_reason: 'subscription_cycle', amount_paid: 0 })
		expect(open?.hosted_invoice_url).toBe(`${fake.url}/invoices/${open?.id}`)
		expect(eventTypes(fake, open?.id)).toContain('invoice.payment_failed')

		const portal = await stripe.billingPortal.sessions.create({
			customer: customerId,
			return_url: 'https://app.test/billing',
			flow_data: { type: 'payment_method_update' },
		})
		expect(portal.id).toMatch(/^bps_/)
		expect(portal.url).toBe(`${fake.url}/portal/${portal.id}`)
		expect(portal.flow?.type).toBe('payment_method_update')
		const page = await fetch(portal.url)
		expect(await page.text()).toContain('Save card')
		const saved = await fetch(`${fake.url}/portal/${portal.id}/complete`, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded' },
			body: 'card=ok',
			redirect: 'manual',
		})
		expect(saved.status).toBe(303)
		expect(saved.headers.get('location')).toBe('https://app.test/billing')

		const active = await stripe.subscriptions.retrieve(subscription.id)
		expect(active.status).toBe('active')
		expect((await stripe.invoices.retrieve(open?.id ?? '')).status).toBe('paid')
		const customer = (await stripe.customers.retrieve(customerId)) as Stripe.Customer
		const method = await stripe.paymentMethods.retrieve(String(customer.invoice_settings.default_payment_method))
		expect(method.card?.last4).toBe('4242')
		expect(fake.store.cards.get(method.id)).toBe('ok')
	})

	it('a setup-mode Checkout saves a new card and pays a past_due subscription', async () => {
		const { subscription, customerId } = await subscribe(fake, stripe)
		fake.setCard(customerId, 'declines')
		fake.advance(item(subscription).current_period_end - fake.now() + 60)
		const [open] = await invoicesOf(subscription.id)
		const page = await fetch(open?.hosted_invoice_url ?? '')
		expect(await page.text()).toContain(open?.number ?? 'no number')
		expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('past_due')
		const setup = await stripe.checkout.sessions.create({
			mode: 'setup',
			customer: customerId,
			success_url: 'https://app.test',
		})
		fake.completeCheckout(setup.id)
		expect((await stripe.subscriptions.retrieve(subscription.id)).status).toBe('active')
		expect((await stripe.invoices.retrieve(open?.id ?? '')).status).toBe('paid')
	})
})
