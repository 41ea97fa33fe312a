import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { assertNoProblems, failedRequest, newPage, useBrowser, waitForHome, waitForPath } from '../../fixtures.ts'
import {
	billingPath,
	confirmAction,
	type FakeStripeProcess,
	type OwnServer,
	openBilling,
	orgDetails,
	planHeading,
	startFakeStripeProcess,
	startOwnServer,
	toast,
} from './billing-steps.ts'

// Billing through Stripe, with the fake Stripe in a process of its own: the server talks to it
// with the official SDK, the browser goes through its hosted Checkout, billing portal and invoice
// pages, and its webhooks reach the server signed, over HTTP, in their own time. The page is
// what the owner watches: the state it shows follows from the webhooks, never from the redirect.

const browser = useBrowser()
const webhookSecret = 'whsec_blocksmith_e2e_stripe'

/** The fake's page in the tab: Checkout, the billing portal or an invoice (`/checkout/cs_…`). */
async function waitForStripePage(page: Page, stripe: FakeStripeProcess, pathPrefix: string): Promise<void> {
	await page.waitForURL((url) => url.origin === stripe.url && url.pathname.startsWith(pathPrefix))
	await page.getByText('Fake Stripe · test mode').waitFor()
}

/** The subscription card's "Payment method" detail. */
function paymentMethod(page: Page) {
	return page.locator('dt', { hasText: /^Payment method$/ }).locator('xpath=following-sibling::dd')
}

type FakeEvent = { event: { type: string; data: { object: { id: string; email?: string | null } } } }

/** The fake's customer for an e-mail address, from the events it recorded (the fake lists no customers). */
async function customerIdOf(stripe: FakeStripeProcess, email: string): Promise<string> {
	const events = await stripe.control<FakeEvent[]>('/_fake/events')
	const created = events.find(({ event }) => event.type === 'customer.created' && event.data.object.email === email)
	assert.ok(created, `the fake Stripe has no customer ${email}`)
	return created.event.data.object.id
}

test('an owner on a trial pays for Business through Stripe Checkout, opens the invoice, updates the card, cancels and undoes it, and fixes a failed payment', async () => {
	const stripe = await startFakeStripeProcess()
	let server: OwnServer | undefined
	const contexts: BrowserContext[] = []
	try {
		server = await startOwnServer({
			BILLING_PROVIDER: 'stripe',
			STRIPE_SECRET_KEY: stripe.apiKey,
			STRIPE_WEBHOOK_SECRET: webhookSecret,
			STRIPE_API_BASE_URL: stripe.url,
		})
		const { api, baseUrl } = server
		// The server's address is known only now: from here on every event is POSTed to it, signed.
		await stripe.control('/_fake/webhook', { url: `${baseUrl}/api/stripe/webhook`, secret: webhookSecret })

		const owner = await api.signUp({ name: 'Stella Stripe' })
		const tab = await newPage(browser(), { account: owner, baseUrl })
		contexts.push(tab.context)
		const { page } = tab

		// A new organization's trial needs no card: nothing at Stripe yet.
		await openBilling(page, 'Pro')
		assert.match((await planHeading(page, 'Pro').textContent()) ?? '', /Trial — 14 days left/)
		await page.getByText('Every invoice for this organization, from Stripe.').waitFor()
		assert.match((await paymentMethod(page).textContent()) ?? '', /^None yet/)
		await page.getByRole('heading', { level: 3, name: 'No invoices yet' }).waitFor()

		// Choosing Business during the trial changes only the trial's limits: no Checkout yet.
		await page.getByRole('button', { name: 'Change plan' }).click()
		const changePlan = page.getByRole('dialog', { name: 'Change plan' })
		// The radio is visually hidden; its label covers the plan's card, which is what one clicks.
		const business = changePlan.getByRole('radio', { name: 'Business' })
		await changePlan.locator('label', { hasText: /^Business$/ }).click()
		assert.ok(await business.isChecked())
		await changePlan.getByRole('button', { name: 'Choose Business' }).click()
		await toast(page, 'Your trial continues on the new plan.').waitFor()
		await changePlan.waitFor({ state: 'detached' })
		await planHeading(page, 'Business').waitFor()

		// Billing starts now: Stripe's Checkout takes the card and the first payment.
		await page.getByRole('button', { name: 'End trial and start billing now' }).click()
		const endTrial = page.getByRole('alertdialog', { name: 'End the trial and start billing now?' })
		await endTrial.getByText(/Your Business plan starts today, billed \$79\.00 per month/).waitFor()
		await endTrial.getByRole('button', { name: 'Start billing now' }).click()
		await waitForStripePage(page, stripe, '/checkout/cs_')
		await page.getByRole('heading', { level: 1, name: 'Subscribe' }).waitFor()
		await page.getByText('$79.00 due today').waitFor()
		await page.getByRole('row', { name: 'Business $79.00 / month' }).waitFor()
		await page.getByText(`Paying as ${owner.email}`).waitFor()
		await page.getByRole('radio', { name: 'Visa •••• 4242 (succeeds)' }).check()
		await page.getByRole('button', { name: 'Pay' }).click()

		// Back on Billing. What was bought is what Stripe's webhooks say, not the redirect.
		// The page reads the subscription again until Stripe's webhooks have reached the server.
		await waitForPath(page, `${billingPath}&checkout=done`)
		await planHeading(page, 'Business').filter({ hasText: 'Active' }).waitFor()
		// Then it stops waiting, and a reload would not wait again.
		await waitForPath(page, billingPath)
		assert.match((await paymentMethod(page).textContent()) ?? '', /^Visa •••• 4242/)
		await page.getByText('$79.00 monthly').waitFor()
		await page.getByText(/^\$79\.00 on /).waitFor()
		const invoices = page.getByRole('table', { name: 'Invoices' })
		assert.equal(await invoices.getByRole('row').count(), 2, 'one invoice under the header row')
		const invoiceRow = invoices.getByRole('row').nth(1)
		assert.match((await invoiceRow.textContent()) ?? '', /\$79\.00Paid/)
		assert.equal((await orgDetails(api, owner.token)).subscriptionState, 'active')

		// The invoice opens Stripe's hosted page in a new tab.
		const invoiceLink = invoiceRow.getByRole('link', { name: /^View invoice .+ \(opens in a new tab\)$/ })
		const number = /^View invoice (.+) \(opens/.exec((await invoiceLink.getAttribute('aria-label')) ?? '')?.[1]
		assert.ok(number)
		const [invoiceTab] = await Promise.all([tab.context.waitForEvent('page'), invoiceLink.click()])
		await waitForStripePage(invoiceTab, stripe, '/invoices/')
		await invoiceTab.getByRole('heading', { level: 1, name: `Invoice ${number}` }).waitFor()
		await invoiceTab.getByText('Status: paid').waitFor()
		await invoiceTab.getByText('Paid: $79.00').waitFor()
		await invoiceTab.close()

		// Payment details are Stripe's to keep: its billing portal, and back.
		await page.getByRole('button', { name: 'Update payment details' }).click()
		await waitForStripePage(page, stripe, '/portal/')
		await page.getByRole('heading', { level: 1, name: `Billing for ${owner.email}` }).waitFor()
		await page.getByRole('row', { name: 'Business · $79.00 / month active' }).waitFor()
		await page.getByText('Payment method: Visa •••• 4242').waitFor()
		// Another card: Billing shows it once Stripe reports the customer's change.
		await page.getByRole('radio', { name: 'Visa •••• 0002 (declines)' }).check()
		await page.getByRole('button', { name: 'Save card' }).click()
		await waitForPath(page, `${billingPath}&portal=done`)
		await paymentMethod(page)
			.filter({ hasText: /^Visa •••• 0002/ })
			.waitFor()
		await planHeading(page, 'Business').filter({ hasText: 'Active' }).waitFor()
		await waitForPath(page, billingPath)

		// A cancellation waits for the period's end at Stripe, and can be taken back until then.
		await confirmAction(page, 'Cancel subscription', 'Cancel the subscription?', 'Cancel subscription')
		await toast(page, /^Your subscription ends on /).waitFor()
		await page.getByText(/^Cancels on /).waitFor()
		assert.equal(await page.getByRole('button', { name: 'Cancel subscription', exact: true }).count(), 0)
		await page.getByRole('button', { name: "Don't cancel" }).click()
		await toast(page, 'Your subscription continues.').waitFor()
		await page.getByRole('button', { name: 'Cancel subscription', exact: true }).waitFor()
		assert.equal(await page.getByText(/^Cancels on /).count(), 0)

		// A month on, the card declines the renewal (it expired, say): the subscription is past due,
		// and the dashboard sends the owner to the way out.
		await stripe.control(`/_fake/customers/${await customerIdOf(stripe, owner.email)}/card`, { card: 'declines' })
		await stripe.control('/_fake/clock/advance', { seconds: 32 * 86_400 })
		await stripe.control('/_fake/webhooks/flush', {})
		assert.equal((await orgDetails(api, owner.token)).subscriptionState, 'past_due')
		await page.goto('/')
		await waitForPath(page, '/paused')
		await page.getByRole('heading', { level: 1, name: 'A payment failed' }).waitFor()
		await page.getByText(/^The last payment for .+ did not go through\./).waitFor()
		await page.goto(billingPath)
		await planHeading(page, 'Business').filter({ hasText: 'Past due' }).waitFor()
		const failed = page.getByRole('alert').filter({ hasText: 'A payment failed' })
		await failed.getByRole('button', { name: 'Update payment details' }).click()
		await waitForStripePage(page, stripe, '/portal/')
		await page.getByRole('row', { name: 'Business · $79.00 / month past_due' }).waitFor()
		await page.getByRole('radio', { name: 'Visa •••• 4242 (succeeds)' }).check()
		await page.getByRole('button', { name: 'Save card' }).click()
		await waitForPath(page, `${billingPath}&portal=done`)
		// The new card pays the overdue invoice at once: active, two invoices paid, the dashboard open.
		await planHeading(page, 'Business').filter({ hasText: 'Active' }).waitFor()
		assert.equal(await page.getByRole('alert').filter({ hasText: 'A payment failed' }).count(), 0)
		assert.equal(await invoices.getByRole('row').count(), 3, 'two invoices under the header row')
		assert.equal(
			await invoices
				.getByRole('row')
				.filter({ hasText: /\$79\.00Paid/ })
				.count(),
			2,
		)
		assert.equal((await orgDetails(api, owner.token)).subscriptionState, 'active')
		await page.goto('/')
		await waitForHome(page, owner.name)

		// The fake's pages have no icon; Chromium asks for one on each (Stripe's have theirs).
		const fakeFavicon = new RegExp(`^console error on ${stripe.url}/favicon\\.ico: ${failedRequest(404).source}`)
		assertNoProblems(tab.problems, [fakeFavicon])
	} finally {
		await Promise.all(contexts.map((context) => context.close()))
		await server?.stop()
		await stripe.stop()
	}
})
