// The public invoice under /api/invoices/{token} (no session: the token is the key), and the
// webhook of each profile's own Stripe account. Decision 036.

import { idSchema } from '@blocksmith/contracts/common.ts'
import { checkoutUrlSchema, confirmCheckoutSchema, publicInvoiceSchema } from '@blocksmith/contracts/invoice-sending.ts'
import { createRoute, z } from '@hono/zod-openapi'
import type { MemberEnv } from '#src/core/auth/auth.middleware.ts'
import { commonProblems, createRouter, jsonBody, jsonResponse, problemResponse } from '#src/lib/openapi.ts'
import type { InvoicesDeps } from './invoices.deps.ts'
import { confirmCheckout, createCheckout, handleInvoiceWebhook, publicInvoice, publicPdf } from './invoices.visitor.ts'

/** Any text: a malformed token is just another link that does not work (404). */
const tokenParams = z.object({ token: z.string().min(1).max(200) })
const { 400: bad, 429: rateLimited } = commonProblems
const gone = problemResponse('Unknown link, a draft or a void invoice')
const tag = 'Invoices (public)'

const routes = {
	page: createRoute({
		method: 'get',
		path: '/api/invoices/{token}',
		tags: [tag],
		summary: 'The invoice as its client sees it (the first request marks it viewed)',
		request: { params: tokenParams },
		responses: { 200: jsonResponse(publicInvoiceSchema, 'The invoice'), 404: gone },
	}),
	pdf: createRoute({
		method: 'get',
		path: '/api/invoices/{token}/pdf',
		tags: [tag],
		summary: 'The invoice’s PDF',
		request: { params: tokenParams },
		responses: { 200: { content: { 'application/pdf': { schema: z.string() } }, description: 'The PDF' }, 404: gone },
	}),
	checkout: createRoute({
		method: 'post',
		path: '/api/invoices/{token}/checkout',
		tags: [tag],
		summary: 'A Stripe Checkout Session (in the team’s own account) for what is left to pay; go to its url',
		request: { params: tokenParams },
		responses: {
			200: jsonResponse(checkoutUrlSchema, 'Where to pay'),
			404: gone,
			409: problemResponse('Nothing left to pay, or not payable online'),
			429: rateLimited,
			503: problemResponse('Stripe could not be reached'),
		},
	}),
	confirm: createRoute({
		method: 'post',
		path: '/api/invoices/{token}/checkout/confirm',
		tags: [tag],
		summary: 'The return from Checkout: the session is read from Stripe and, when paid, recorded (once)',
		request: { params: tokenParams, body: jsonBody(confirmCheckoutSchema) },
		responses: {
			200: jsonResponse(publicInvoiceSchema, 'The invoice as it is now'),
			400: bad,
			404: gone,
			429: rateLimited,
			503: problemResponse('Stripe could not be reached'),
		},
	}),
	webhook: createRoute({
		method: 'post',
		path: '/api/invoices/stripe_webhook/{profileId}',
		tags: [tag],
		summary: 'Events of a profile’s own Stripe account, verified with its endpoint’s signing secret',
		request: {
			params: z.object({ profileId: idSchema }),
			headers: z.object({ 'stripe-signature': z.string().max(2000) }),
		},
		responses: {
			200: jsonResponse(z.object({ received: z.literal(true) }), 'Handled, or nothing to do'),
			400: problemResponse('Bad signature'),
			404: problemResponse('No account connected for this profile'),
		},
	}),
}

export function createInvoiceVisitorRoutes(deps: { invoices: InvoicesDeps }) {
	const router = createRouter<MemberEnv>()
	const token = (c: { req: { param: (name: 'token') => string } }) => c.req.param('token')
	// First: its path would otherwise read as a token's.
	router.openapi(routes.webhook, async (c) => {
		// The signature is over the raw bytes: read the body as text, never parsed and re-serialized.
		const body = await c.req.text()
		await handleInvoiceWebhook(
			deps.invoices,
			c.req.valid('param').profileId,
			body,
			c.req.valid('header')['stripe-signature'],
		)
		return c.json({ received: true as const }, 200)
	})
	router.openapi(routes.page, async (c) => c.json(await publicInvoice(deps.invoices, token(c)), 200))
	router.openapi(routes.pdf, async (c) => {
		const { pdf, name } = await publicPdf(deps.invoices, token(c))
		return c.body(new Uint8Array(pdf), 200, {
			'content-type': 'application/pdf',
			'content-disposition': `inline; filename="${name.replace(/[^\w.-]/g, '_')}.pdf"`,
			'cache-control': 'private, no-store',
			// The link is the key: the page it came from must not leak it onwards.
			'referrer-policy': 'no-referrer',
		}) as never
	})
	router.openapi(routes.checkout, async (c) =>
		c.json(await createCheckout(deps.invoices, token(c), c.var.clientIp), 200),
	)
	router.openapi(routes.confirm, async (c) =>
		c.json(await confirmCheckout(deps.invoices, token(c), c.req.valid('json').sessionId, c.var.clientIp), 200),
	)
	return router
}
