import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { expectRefusedByRole, teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, randomIp, type TestApp } from '#src/test/test-app.ts'
import { subscriptions } from './subscriptions.schema.ts'

// Billing with the local provider (the default): the catalogue, the trial, every action as an
// owner takes it, who may act, and subscribing before having an account.

let t: TestApp
beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

const overview = async (token: string) => {
	const response = await t.request('GET', '/api/subscriptions', { token })
	expect(response.status).toBe(200)
	return response.body
}
const act = (token: string, path: string, json: unknown = {}) => t.request('POST', path, { token, json })

describe('plans', () => {
	test('the catalogue is public: three plans with prices in cents, every limit, the trial', async () => {
		const response = await t.request('GET', '/api/plans')
		expect(response.status).toBe(200)
		expect(response.body).toMatchObject({ trialDays: 14, trialPlanId: 'pro', provider: 'local' })
		expect(response.body.plans.map((plan: { id: string }) => plan.id)).toEqual(['starter', 'pro', 'business'])
		const pro = response.body.plans[1]
		expect(pro.prices).toEqual({ month: 2900, year: 29000 })
		expect(Object.keys(pro.limits)).toHaveLength(11)
		expect(pro.switches).toEqual({ removeBranding: true, customDomain: true, customCss: true })
	})
})

describe('a new organization', () => {
	test('is on a 14-day trial of the trial plan, shown in its details and in billing', async () => {
		const owner = await t.signUp()
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
		expect(details.body).toMatchObject({
			plan: 'pro',
			planName: 'Pro',
			subscriptionState: 'trialing',
			pauseReason: null,
		})
		const trialEnd = new Date(details.body.trialEndsAt).getTime()
		const created = new Date(details.body.createdAt).getTime()
		expect(trialEnd - created).toBe(14 * 86_400_000)

		const body = await overview(owner.token)
		expect(body).toMatchObject({
			canManage: true,
			plan: { id: 'pro' },
			subscription: { status: 'trialing', provider: 'local', cancelAtPeriodEnd: false, nextInvoice: null },
			invoices: [],
		})
		const members = body.usage.meters.find((meter: { key: string }) => meter.key === 'members')
		expect(members).toEqual({ key: 'members', used: 1, limit: 5 })
		expect(body.usage.meters).toHaveLength(11)
	})
})

describe('every action, as an owner takes it', () => {
	test('cancel and undo, end the trial, downgrade at the period’s end, upgrade now, pause and resume', async () => {
		const owner = await t.signUp()
		const cancel = await act(owner.token, '/api/subscriptions/cancel_subscription')
		expect(cancel.status).toBe(200)
		expect(cancel.body.subscription).toMatchObject({ status: 'trialing', cancelAtPeriodEnd: true })
		expect(cancel.body.message).toMatch(/trial ends on/)
		expect((await act(owner.token, '/api/subscriptions/cancel_subscription')).body).toMatchObject({
			code: 'SUBSCRIPTION_STATE',
			detail: expect.stringMatching(/already set to end/),
		})

		// The provider in the path must be this organization's.
		const wrongProvider = await act(owner.token, '/api/stripe/dont_cancel')
		expect(wrongProvider.status).toBe(409)
		expect(wrongProvider.body.detail).toMatch(/billed through this installation/)
		const undo = await act(owner.token, '/api/local/dont_cancel')
		expect(undo.body.subscription.cancelAtPeriodEnd).toBe(false)

		const started = await act(owner.token, '/api/subscriptions/end_trial_and_bill')
		expect(started.status).toBe(200)
		expect(started.body.subscription).toMatchObject({ status: 'active', planId: 'pro' })
		const periodEnd = started.body.subscription.currentPeriodEnd
		expect(new Date(periodEnd).getTime()).toBeGreaterThan(Date.now() + 27 * 86_400_000)

		const down = await act(owner.token, '/api/local/update_plan', { planId: 'starter', interval: 'month' })
		expect(down.status).toBe(200)
		expect(down.body.subscription).toMatchObject({
			planId: 'pro',
			pendingChange: { planId: 'starter', interval: 'month', at: periodEnd },
		})
		const up = await act(owner.token, '/api/local/update_plan', { planId: 'business', interval: 'year' })
		expect(up.body.subscription).toMatchObject({ planId: 'business', interval: 'year', pendingChange: null })
		expect((await overview(owner.token)).plan.id).toBe('business')

		const badDate = await act(owner.token, '/api/subscriptions/pause_subscription', {
			resumesAt: new Date(Date.now() - 86_400_000).toISOString(),
		})
		expect(badDate.status).toBe(400)
		expect(badDate.body.errors).toEqual([{ field: 'resumesAt', message: expect.stringMatching(/after today/) }])

		const resumesAt = new Date(Date.now() + 10 * 86_400_000).toISOString()
		const paused = await act(owner.token, '/api/subscriptions/pause_subscription', { resumesAt })
		expect(paused.body.subscription).toMatchObject({ status: 'paused', pauseReason: 'requested', resumesAt })
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
		expect(details.body).toMatchObject({ subscriptionState: 'paused', pauseReason: 'requested' })
		expect(
			(await act(owner.token, '/api/local/update_plan', { planId: 'pro', interval: 'month' })).body.detail,
		).toMatch(/Resume the subscription/)

		const resumed = await act(owner.token, '/api/subscriptions/resume_subscription')
		expect(resumed.body.subscription).toMatchObject({ status: 'active', pausedAt: null, resumesAt: null })
		const payment = await act(owner.token, '/api/subscriptions/update_payment_details')
		expect(payment.body).toMatchObject({
			redirectUrl: null,
			subscription: { paymentMethod: { label: expect.any(String) } },
		})
	})

	test('a trial that ends without a plan pauses the organization until a plan is chosen', async () => {
		const owner = await t.signUp()
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
		await t.db
			.update(subscriptions)
			.set({ trialEndsAt: new Date(Date.now() - 60_000) })
			.where(eq(subscriptions.organizationId, details.body.id))
		const after = await t.request('GET', '/dashboard/users/get_org_details', { token: owner.token })
		expect(after.body).toMatchObject({ subscriptionState: 'paused', pauseReason: 'trial_ended' })
		const chosen = await act(owner.token, '/api/local/update_plan', { planId: 'starter', interval: 'month' })
		expect(chosen.status).toBe(200)
		expect(chosen.body.subscription).toMatchObject({ status: 'active', planId: 'starter', pauseReason: null })
	})

	test('a downgrade is refused while the organization uses more than the smaller plan allows', async () => {
		const owner = await t.signUp()
		await act(owner.token, '/api/subscriptions/end_trial_and_bill')
		for (const email of ['one@example.com', 'two@example.com']) {
			const invited = await t.request('POST', '/dashboard/team_invites', { token: owner.token, json: { email } })
			expect(invited.status).toBe(201)
		}
		const refused = await act(owner.token, '/api/local/update_plan', { planId: 'starter', interval: 'month' })
		expect(refused.status).toBe(409)
		expect(refused.body).toMatchObject({ code: 'SUBSCRIPTION_STATE' })
		expect(refused.body.detail).toMatch(/Starter plan is too small.*team members: 3 in use, 2 allowed/)
		expect((await overview(owner.token)).subscription.pendingChange).toBeNull()
	})

	test('bad input names the field', async () => {
		const owner = await t.signUp()
		const plan = await act(owner.token, '/api/local/update_plan', { planId: 'gold', interval: 'month' })
		expect(plan.status).toBe(400)
		expect(plan.body.errors[0].field).toBe('planId')
		const provider = await act(owner.token, '/api/paypal/update_plan', { planId: 'pro', interval: 'month' })
		expect(provider.status).toBe(400)
		expect(provider.body.errors[0].field).toBe('payment_provider')
		const extra = await act(owner.token, '/api/subscriptions/cancel_subscription', { now: true })
		expect(extra.status).toBe(400)
	})
})

describe('who may act', () => {
	test('members read the plan; only owners and admins change it; each organization has its own', async () => {
		const team = await teamWithEveryRole(t)
		const asMember = await overview(team.member.token)
		expect(asMember.canManage).toBe(false)
		expectRefusedByRole(await act(team.member.token, '/api/subscriptions/cancel_subscription'))
		expectRefusedByRole(
			await act(team.member.token, '/api/local/update_plan', { planId: 'business', interval: 'month' }),
		)
		expect((await act(team.admin.token, '/api/subscriptions/cancel_subscription')).status).toBe(200)

		// Another organization's owner acts on their own subscription only.
		const other = await t.signUp()
		expect((await act(other.token, '/api/subscriptions/end_trial_and_bill')).status).toBe(200)
		expect((await overview(team.owner.token)).subscription).toMatchObject({
			status: 'trialing',
			cancelAtPeriodEnd: true,
		})
		expect((await overview(other.token)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false })

		expect((await t.request('GET', '/api/subscriptions')).status).toBe(401)
		expect((await t.request('POST', '/api/local/dont_cancel', { json: {} })).status).toBe(401)
	})

	test('Stripe’s webhook does not exist where Stripe is not the provider', async () => {
		const response = await t.request('POST', '/api/stripe/webhook', {
			body: '{}',
			headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
		})
		expect(response.status).toBe(404)
	})
})

describe('subscribing without an account', () => {
	test('the e-mailed link makes the account on the chosen plan, then leads to choosing a password', async () => {
		const email = `buyer-${Date.now()}@example.com`
		const started = await t.request('POST', '/api/subscriptions/create_subs_without_login', {
			json: { planId: 'business', interval: 'year', email, name: 'Bea Buyer', organizationName: 'Bea & Co' },
			ip: randomIp(),
		})
		expect(started.status).toBe(200)
		expect(started.body).toMatchObject({ redirectUrl: null, message: expect.stringContaining(email) })
		const mail = await t.waitForMail(email, /start your Business trial/)
		const token = new URL(mail.links[0] ?? '').searchParams.get('token') ?? ''
		expect(token).toMatch(/^signup\./)

		const forged = await t.request('POST', '/api/confirm_user', {
			json: { token: `${token.slice(0, -2)}xx` },
			ip: randomIp(),
		})
		expect(forged.status).toBe(400)

		const confirmed = await t.request('POST', '/api/confirm_user', { json: { token }, ip: randomIp() })
		expect(confirmed.status).toBe(200)
		const next = new URL(confirmed.body.next, 'http://x')
		expect(next.pathname).toBe('/reset-password')
		const password = 'a password of mine'
		const set = await t.request('PUT', '/auth/password', {
			json: { token: next.searchParams.get('token'), password },
			ip: randomIp(),
		})
		expect(set.status).toBe(200)
		const signedIn = await t.signIn(email, password)
		expect(signedIn.status).toBe(200)
		const sessionToken = signedIn.headers.get('set-auth-token') ?? ''
		const details = await t.request('GET', '/dashboard/users/get_org_details', { token: sessionToken })
		expect(details.body).toMatchObject({
			name: 'Bea & Co',
			role: 'owner',
			plan: 'business',
			subscriptionState: 'trialing',
		})

		// The link again: the same account, now with a password, is sent to sign in.
		const again = await t.request('POST', '/api/confirm_user', { json: { token }, ip: randomIp() })
		expect(again.body.next).toBe('/login')
	})

	test('bad input names the field', async () => {
		const response = await t.request('POST', '/api/subscriptions/create_subs_without_login', {
			json: { planId: 'pro', interval: 'month', email: 'not an address', name: 'X' },
			ip: randomIp(),
		})
		expect(response.status).toBe(400)
		expect(response.body.errors[0].field).toBe('email')
	})
})
