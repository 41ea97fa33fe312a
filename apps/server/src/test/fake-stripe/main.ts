import { DEFAULT_PRICES, type PriceSeed, startFakeStripe } from './fake-stripe.ts'

// biome-ignore-start lint/style/noProcessEnv: the demo is configured from the environment like the app.
const port = Number(process.env.PORT ?? 4020)
const webhookUrl = process.env.STRIPE_WEBHOOK_URL
const webhookSecret = process.env.STRIPE_WEBHOOK_SECRET ?? 'whsec_fake_stripe_local'
const pricesJson = process.env.FAKE_STRIPE_PRICES
// biome-ignore-end lint/style/noProcessEnv: see above.

const prices: PriceSeed[] = pricesJson ? (JSON.parse(pricesJson) as PriceSeed[]) : DEFAULT_PRICES
const fake = await startFakeStripe({
	prices,
	port,
	...(webhookUrl ? { webhook: { url: webhookUrl, secret: webhookSecret } } : {}),
})

const priceLines = [...fake.store.prices.values()]
	.map(
		(price) =>
			`  ${price.lookup_key?.padEnd(28)} ${price.id}  ${price.unit_amount} ${price.currency}/${price.recurring?.interval}`,
	)
	.join('\n')

console.log(`Fake Stripe API listening on ${fake.url}

Settings for the server:
  STRIPE_SECRET_KEY=${fake.apiKey}
  STRIPE_API_BASE_URL=${fake.url}
  STRIPE_WEBHOOK_SECRET=${webhookSecret}
Webhooks: ${webhookUrl ? `POSTed to ${webhookUrl}` : `none yet; POST ${fake.url}/_fake/webhook {"url":…,"secret":…}`}

Prices (lookup key, id, amount):
${priceLines}

Controls: POST ${fake.url}/_fake/clock/advance {"seconds":86400} · /_fake/checkout/<id>/complete · /_fake/portal/<id>/complete
          /_fake/customers/<id>/card {"card":"declines"} · /_fake/webhooks/{pause,resume,flush} · GET /_fake/events`)

async function stop(): Promise<void> {
	await fake.close()
	process.exit(0)
}

process.on('SIGINT', () => void stop())
process.on('SIGTERM', () => void stop())
