import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import { test } from 'node:test'
import type { BrowserContext } from 'playwright-core'
import PostalMime from 'postal-mime'
import { assertNoProblems, failedRequest, newPage, useBrowser } from '../../fixtures.ts'
import {
	type FakeStripeProcess,
	type OwnServer,
	startFakeStripeProcess,
	startOwnServer,
} from '../billing/billing-steps.ts'

// The middle of issue 17's journey, with the fake Stripe in a process of its own: an owner
// connects the company's own Stripe account in the settings, a finalized invoice is sent (the
// .eml has its PDF and the public link), the client opens the link signed out, pays on the fake's
// hosted Checkout, comes back to "Paid — thank you", and the webhook (POSTed by the fake to the
// endpoint it created, signed with that endpoint's secret) leaves one payment recorded.

const browser = useBrowser()
const address = { lines: ['Torstraße 1'], postcode: '10115', city: 'Berlin', country: 'DE' }

test('an invoice is sent with its PDF, opened from the e-mail and paid online into the team’s own Stripe account', async () => {
	const stripe: FakeStripeProcess = await startFakeStripeProcess()
	let server: OwnServer | undefined
	const contexts: BrowserContext[] = []
	try {
		server = await startOwnServer({ STRIPE_API_BASE_URL: stripe.url })
		const { api, baseUrl } = server
		const owner = await api.signUp({ name: 'Ines Invoicer' })
		const profile = await api.callOk<{ id: string; taxRates: { id: string }[] }>('/dashboard/local_invoice/settings', {
			token: owner.token,
			json: {
				legalName: 'Acme GmbH',
				address,
				email: 'billing@acme.example',
				taxRates: [{ name: 'VAT 19 %', categoryCode: 'S', rate: '19', isDefault: true }],
			},
		})

		// The owner connects the company's Stripe account in the settings.
		const ownerTab = await newPage(browser(), { account: owner, baseUrl })
		contexts.push(ownerTab.context)
		await ownerTab.page.goto('/invoices/settings')
		const payments = ownerTab.page.getByRole('heading', { name: 'Online payments' })
		await payments.waitFor()
		await ownerTab.page.getByLabel('Stripe secret key').fill(stripe.apiKey)
		await ownerTab.page.getByRole('button', { name: 'Connect Stripe' }).click()
		await ownerTab.page.getByText('Test mode').waitFor()
		await ownerTab.page.getByText('Fake Team', { exact: true }).waitFor()

		const draft = await api.callOk<{ id: string }>('/dashboard/local_invoice/invoices', {
			token: owner.token,
			json: {
				client: { name: 'Northwind Ltd', email: 'ap@northwind.example' },
				lines: [
					{ description: 'Design work', quantity: '1', unitPrice: '1000.00', taxRateId: profile.taxRates[0]?.id },
				],
			},
		})
		const invoice = await api.callOk<{ id: string; number: string; publicToken: string }>(
			`/dashboard/local_invoice/invoices/${draft.id}/finalize`,
			{ token: owner.token, method: 'POST' },
		)
		await api.callOk(`/dashboard/local_invoice/invoices/${invoice.id}/send`, { token: owner.token, json: {} })

		// The client's mail: the PDF attached under the invoice's number, and the link to pay.
		const mail = await server.waitForMail('ap@northwind.example', (one) => one.subject.includes(invoice.number))
		const parsed = await PostalMime.parse(await readFile(mail.file))
		const pdf = parsed.attachments.find((attachment) => attachment.filename === `${invoice.number}.pdf`)
		assert.equal(pdf?.mimeType, 'application/pdf')
		assert.equal(
			Buffer.from(pdf?.content as ArrayBuffer)
				.subarray(0, 4)
				.toString('latin1'),
			'%PDF',
		)
		const link = mail.links.find((href) => href.startsWith(`${baseUrl}/i/`))
		assert.equal(link, `${baseUrl}/i/${invoice.publicToken}`)

		// The client, signed out, on a phone.
		const client = await newPage(browser(), { baseUrl, viewport: { width: 390, height: 844 } })
		contexts.push(client.context)
		const { page } = client
		await page.goto(link)
		await page.getByRole('heading', { level: 1, name: `Invoice ${invoice.number}` }).waitFor()
		await page.getByText('Amount due').waitFor()
		assert.equal(
			await page.getByRole('link', { name: 'Download PDF' }).getAttribute('href'),
			`/api/invoices/${invoice.publicToken}/pdf`,
		)
		await page.getByRole('button', { name: 'Pay €1,190.00' }).click()

		await page.waitForURL((url) => url.origin === stripe.url && url.pathname.startsWith('/checkout/'))
		await page.getByText('Fake Stripe · test mode').waitFor()
		await page.getByText('€1,190.00').waitFor()
		await page.getByRole('button', { name: 'Pay' }).click()

		await page.waitForURL((url) => url.origin === baseUrl && url.pathname === `/i/${invoice.publicToken}`)
		await page.getByText('Paid — thank you').waitFor()
		await page.getByText('This invoice is paid', { exact: false }).waitFor()
		assert.equal(await page.getByRole('button', { name: /^Pay/ }).count(), 0)

		// The webhook arrives on its own as well, POSTed by the fake to the endpoint it created and
		// signed with that endpoint's secret: answered 2xx, and still one payment.
		type Endpoint = { url: string; deliveries: { type: string; delivered: boolean }[] }
		const deadline = Date.now() + 20_000
		for (;;) {
			const endpoints = await stripe.control<Endpoint[]>('/_fake/webhook_endpoints')
			const ours = endpoints.find((endpoint) => endpoint.url === `${baseUrl}/api/invoices/stripe_webhook/${profile.id}`)
			if (ours?.deliveries.some((delivery) => delivery.type === 'checkout.session.completed' && delivery.delivered)) {
				break
			}
			assert.ok(Date.now() < deadline, `the webhook was not delivered: ${JSON.stringify(endpoints)}`)
			await new Promise((resolve) => setTimeout(resolve, 200))
		}
		const recorded = await api.callOk<{ method: string; amount: { decimal: string } }[]>(
			`/dashboard/local_invoice/invoices/${invoice.id}/payments`,
			{ token: owner.token },
		)
		assert.deepEqual(
			recorded.map((payment) => [payment.method, payment.amount.decimal]),
			[['stripe', '1190.00']],
		)
		const events = await api.callOk<{ kind: string }[]>(`/dashboard/local_invoice/invoices/${invoice.id}/events`, {
			token: owner.token,
		})
		assert.deepEqual(events.map((event) => event.kind).slice(0, 4), ['payment', 'viewed', 'sent', 'finalized'])
		// The fake's pages have no icon; Chromium asks for one on each (Stripe's have theirs).
		const fakeFavicon = new RegExp(`^console error on ${stripe.url}/favicon\\.ico: ${failedRequest(404).source}`)
		assertNoProblems(client.problems, [fakeFavicon])
		assertNoProblems(ownerTab.problems)
	} finally {
		await Promise.all(contexts.map((context) => context.close()))
		await server?.stop()
		await stripe.stop()
	}
})
