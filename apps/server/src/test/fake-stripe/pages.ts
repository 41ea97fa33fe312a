import type { Context, Hono } from 'hono'
import type Stripe from 'stripe'
import { formatMoney, intervalOf, productName } from './billing.ts'
import { StripeApiError } from './errors.ts'
import { type Env, json } from './http.ts'
import { isRecord, parseForm } from './params.ts'
import { formatAmount, paymentLines } from './payments.ts'
import { type CardBehaviour, type Ctx, idOf } from './store.ts'
import type { FakeStripeControls } from './types.ts'

/**
 * The pages a browser sees instead of Stripe's (hosted Checkout, the billing portal, hosted invoices), and
 * `/_fake/*`: the test controls over HTTP, for a fake started in another process (`npm run fake-stripe`).
 */

function escapeHtml(value: string): string {
	return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
}

function html(title: string, body: string, status = 200): Response {
	const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1f36}
h1{font-size:1.4rem}.amount{font-size:2rem;font-weight:600}.muted{color:#697386}.error{color:#df1b41}
label{display:block;margin:.6rem 0}input[type=email]{width:100%;padding:.5rem;font-size:1rem}
button{background:#635bff;color:#fff;border:0;border-radius:6px;padding:.7rem 1.4rem;font-size:1rem;cursor:pointer}
table{width:100%;border-collapse:collapse}td{padding:.3rem 0}</style></head>
<body><p class="muted">Fake Stripe · test mode</p>${body}</body></html>`
	return new Response(page, { status, headers: { 'content-type': 'text/html; charset=utf-8' } })
}

function cardChoices(allowNone: boolean): string {
	const none = allowNone ? `<label><input type="radio" name="card" value="none"> No card for now</label>` : ''
	return `<fieldset><legend>Card</legend>
<label><input type="radio" name="card" value="ok" checked> Visa •••• 4242 (succeeds)</label>
<label><input type="radio" name="card" value="declines"> Visa •••• 0002 (declines)</label>${none}</fieldset>`
}

function readCard(value: unknown): CardBehaviour | 'none' {
	return value === 'declines' || value === 'none' ? value : 'ok'
}

function checkoutPage(ctx: Ctx, session: Stripe.Checkout.Session, error = ''): Response {
	const title = 'Fake Stripe Checkout'
	if (session.status !== 'open') {
		const link = session.success_url
			? `<p><a href="${escapeHtml(session.success_url.replaceAll('{CHECKOUT_SESSION_ID}', session.id))}">Continue</a></p>`
			: ''
		return html(title, `<h1>This Checkout Session is ${escapeHtml(session.status ?? 'closed')}.</h1>${link}`)
	}
	const extras = ctx.store.checkoutExtras.get(session.id)
	const lines = (extras?.lineItems ?? [])
		.map(
			({ price, quantity }) =>
				`<tr><td>${escapeHtml(productName(ctx, price))}${quantity > 1 ? ` × ${quantity}` : ''}</td><td>${formatMoney((price.unit_amount ?? 0) * quantity, price.currency)} / ${intervalOf(price)}</td></tr>`,
		)
		.join('')
	const trialDays = extras?.trialEnd
		? Math.ceil((extras.trialEnd - ctx.now()) / 86_400)
		: (extras?.trialPeriodDays ?? null)
	const trial = trialDays ? `<p>${trialDays} days free, then billed as above.</p>` : ''
	const dueNow = session.amount_total ?? 0
	const heading =
		session.mode === 'setup'
			? '<h1>Save a card for future payments</h1>'
			: session.mode === 'payment'
				? `<h1>Pay</h1><p class="amount">${formatAmount(dueNow, session.currency ?? 'usd')}</p><table>${paymentLines(
						ctx.store,
						session.id,
					)
						.map(
							(line) => `<tr><td>${escapeHtml(line.name)}${line.quantity > 1 ? ` × ${line.quantity}` : ''}</td></tr>`,
						)
						.join('')}</table>`
				: `<h1>Subscribe</h1><p class="amount">${formatMoney(dueNow, session.currency ?? 'usd')} due today</p><table>${lines}</table>${trial}`
	const known = session.customer ? ctx.store.customers.get(String(session.customer))?.email : session.customer_email
	const email = known
		? `<p class="muted">Paying as ${escapeHtml(known)}</p>`
		: '<label>Email <input type="email" name="email" required></label>'
	const allowNone =
		session.mode === 'subscription' && session.payment_method_collection === 'if_required' && dueNow === 0
	const button = session.mode === 'setup' ? 'Save card' : dueNow > 0 ? 'Pay' : 'Start trial'
	const cancel = session.cancel_url ? `<p><a href="${escapeHtml(session.cancel_url)}">← Back</a></p>` : ''
	const failure = error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''
	return html(
		title,
		`${heading}${failure}<form method="post" action="/checkout/${escapeHtml(session.id)}/complete">${email}${cardChoices(allowNone)}<p><button type="submit">${button}</button></p></form>${cancel}`,
		error ? 402 : 200,
	)
}

function portalPage(ctx: Ctx, session: Stripe.BillingPortal.Session): Response {
	const customer = ctx.store.customer(session.customer)
	const method = ctx.store.paymentMethods.get(idOf(customer.invoice_settings.default_payment_method) ?? '')
	const subscriptions = ctx.store
		.subscriptionsOf(customer.id)
		.map((subscription) => {
			const item = subscription.items.data[0]
			const plan = item
				? `${productName(ctx, item.price)} · ${formatMoney(item.price.unit_amount ?? 0, item.price.currency)} / ${intervalOf(item.price)}`
				: ''
			return `<tr><td>${escapeHtml(plan)}</td><td>${escapeHtml(subscription.status)}</td></tr>`
		})
		.join('')
	const card = method?.card ? `Visa •••• ${method.card.last4}` : 'No card on file'
	const back = session.return_url ? `<p><a href="${escapeHtml(session.return_url)}">← Return</a></p>` : ''
	return html(
		'Fake Stripe billing portal',
		`<h1>Billing for ${escapeHtml(customer.email ?? customer.id)}</h1><table>${subscriptions}</table><p>Payment method: ${escapeHtml(card)}</p><form method="post" action="/portal/${escapeHtml(session.id)}/complete">${cardChoices(false)}<p><button type="submit">Save card</button></p></form>${back}`,
	)
}

function invoicePage(invoice: Stripe.Invoice): Response {
	const lines = invoice.lines.data
		.map(
			(line) =>
				`<tr><td>${escapeHtml(line.description ?? '')}</td><td>${formatMoney(line.amount, line.currency)}</td></tr>`,
		)
		.join('')
	return html(
		`Invoice ${invoice.number ?? invoice.id}`,
		`<h1>Invoice ${escapeHtml(invoice.number ?? invoice.id)}</h1><p>Status: <strong>${escapeHtml(invoice.status ?? '')}</strong></p><table>${lines}</table><p class="amount">${formatMoney(invoice.amount_due, invoice.currency)}</p><p class="muted">Paid: ${formatMoney(invoice.amount_paid, invoice.currency)}</p>`,
	)
}

function redirect(url: string | null, fallback: string): Response {
	return url ? new Response(null, { status: 303, headers: { location: url } }) : html('Done', `<h1>${fallback}</h1>`)
}

async function jsonBody(c: Context<Env>): Promise<Record<string, unknown>> {
	const text = await c.req.text()
	const parsed: unknown = text.trim() === '' ? {} : JSON.parse(text)
	return isRecord(parsed) ? parsed : {}
}

export function installPages(app: Hono<Env>, ctx: Ctx, controls: FakeStripeControls): void {
	const catchUp = () => controls.advance(0)

	app.get('/checkout/:id', (c) => {
		catchUp()
		return checkoutPage(ctx, ctx.store.checkoutSession(c.req.param('id')))
	})
	app.post('/checkout/:id/complete', async (c) => {
		const form = parseForm(await c.req.text())
		const id = c.req.param('id')
		try {
			const email = typeof form.email === 'string' && form.email ? form.email : undefined
			const { redirectUrl } = controls.completeCheckout(id, { card: readCard(form.card), ...(email ? { email } : {}) })
			return redirect(redirectUrl, 'Thanks, all done.')
		} catch (error) {
			if (error instanceof StripeApiError && error.status < 500) {
				return checkoutPage(ctx, ctx.store.checkoutSession(id), error.message)
			}
			throw error
		}
	})
	app.get('/portal/:id', (c) => {
		catchUp()
		return portalPage(ctx, ctx.store.portalSession(c.req.param('id')))
	})
	app.post('/portal/:id/complete', async (c) => {
		const form = parseForm(await c.req.text())
		const card = readCard(form.card)
		const { redirectUrl } = controls.completePortal(c.req.param('id'), { card: card === 'none' ? 'ok' : card })
		return redirect(redirectUrl, 'Your card was saved.')
	})
	app.get('/invoices/:id', (c) => {
		catchUp()
		return invoicePage(ctx.store.invoice(c.req.param('id')))
	})

	// --- /_fake: the controls over HTTP -------------------------------------------------------------------------

	app.get('/_fake/clock', () => json({ now: controls.now() }))
	app.post('/_fake/clock/advance', async (c) => {
		const body = await jsonBody(c)
		return json({ now: controls.advance(Number(body.seconds)) })
	})
	app.post('/_fake/checkout/:id/complete', async (c) => {
		const body = await jsonBody(c)
		const card = body.card === undefined ? undefined : readCard(body.card)
		const email = typeof body.email === 'string' ? body.email : undefined
		return json(
			controls.completeCheckout(c.req.param('id'), { ...(card ? { card } : {}), ...(email ? { email } : {}) }),
		)
	})
	app.post('/_fake/portal/:id/complete', async (c) => {
		const body = await jsonBody(c)
		return json(controls.completePortal(c.req.param('id'), { card: body.card === 'declines' ? 'declines' : 'ok' }))
	})
	app.post('/_fake/customers/:id/card', async (c) => {
		const body = await jsonBody(c)
		if (body.card !== 'ok' && body.card !== 'declines') {
			throw new StripeApiError(400, "card must be 'ok' or 'declines'", { param: 'card' })
		}
		controls.setCard(c.req.param('id'), body.card)
		return json({ ok: true })
	})
	app.get('/_fake/events', () => json(controls.events()))
	app.post('/_fake/webhook', async (c) => {
		const body = await jsonBody(c)
		if (body.url === null) {
			controls.setWebhook(null)
		} else if (typeof body.url === 'string' && typeof body.secret === 'string') {
			controls.setWebhook({ url: body.url, secret: body.secret })
		} else {
			throw new StripeApiError(400, 'Give { url, secret } (or { url: null } to stop deliveries).')
		}
		return json({ ok: true })
	})
	app.post('/_fake/webhooks/pause', () => {
		controls.pauseWebhooks()
		return json({ ok: true })
	})
	app.post('/_fake/webhooks/resume', () => {
		controls.resumeWebhooks()
		return json({ ok: true })
	})
	app.post('/_fake/webhooks/flush', async () => {
		await controls.flushWebhooks()
		return json({ ok: true })
	})
}
