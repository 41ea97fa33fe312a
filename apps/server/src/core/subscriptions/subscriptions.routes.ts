// Billing: the public plan catalogue (/api/plans) and subscribing without an account, the
// organization's subscription and its actions (/api/subscriptions/*, /api/{provider}/*,
// owners and admins act, members read), and Stripe's webhook (/api/stripe/webhook).

import {
	createSubscriptionWithoutLoginResultSchema,
	createSubscriptionWithoutLoginSchema,
	pauseSubscriptionSchema,
	paymentProviderSchema,
	plansResponseSchema,
	subscriptionActionResultSchema,
	subscriptionOverviewSchema,
	updatePlanSchema,
} from '@blocksmith/contracts/subscriptions.ts'
import { createRoute, type RouteConfig, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { type MemberEnv, requireMember, requireSession } from '#src/core/auth/auth.middleware.ts'
import type { Auth } from '#src/core/auth/auth.ts'
import { AppError } from '#src/lib/errors.ts'
import { commonProblems, createRouter, jsonBody, jsonResponse, problemResponse } from '#src/lib/openapi.ts'
import { handleStripeWebhook } from './providers/stripe.webhooks.ts'
import type { SubscriptionsCtx } from './subscriptions.deps.ts'
import type { Subscriptions } from './subscriptions.module.ts'
import { plans } from './subscriptions.plans.ts'
import { type ActionRequest, getOverview, runAction } from './subscriptions.service.ts'
import { createSignup } from './subscriptions.signup.ts'

type RouteSpec = Omit<RouteConfig, 'tags' | 'security'>

/** A signed-in member's billing route: bearer auth, the Billing tag, and the 401 every one can answer. */
function memberRoute<R extends RouteSpec>(spec: R) {
	return createRoute({
		...spec,
		tags: ['Billing'],
		security: [{ bearer: [] }],
		responses: { 401: commonProblems[401], ...spec.responses },
	})
}

/** A subscription action: owners and admins; refused by the subscription's state with a 409 that says why. */
function actionRoute<R extends Omit<RouteSpec, 'method' | 'responses'>>(spec: R) {
	return memberRoute({
		...spec,
		method: 'post' as const,
		responses: {
			200: jsonResponse(subscriptionActionResultSchema, 'Done, or where to continue (redirectUrl)'),
			400: commonProblems[400],
			403: problemResponse('Only owners and admins change billing'),
			409: problemResponse('Not possible from the subscription’s current state; `detail` says why'),
		},
	})
}

const emptyBody = { body: jsonBody(z.object({}).strict()) }
const providerParams = z.object({ payment_provider: paymentProviderSchema })

const routes = {
	plans: createRoute({
		method: 'get',
		path: '/api/plans',
		tags: ['Billing'],
		summary: 'The plans, their prices and limits, the trial',
		responses: { 200: jsonResponse(plansResponseSchema, 'Plans') },
	}),
	overview: memberRoute({
		method: 'get',
		path: '/api/subscriptions',
		summary: "The organization's subscription, plan, usage against its limits and past invoices",
		responses: { 200: jsonResponse(subscriptionOverviewSchema, 'The subscription') },
	}),
	cancel: actionRoute({
		path: '/api/subscriptions/cancel_subscription',
		summary: 'Cancel at the end of the period (or of the trial); a paused subscription ends now',
		request: emptyBody,
	}),
	pause: actionRoute({
		path: '/api/subscriptions/pause_subscription',
		summary: 'Pause an active subscription, until resumed or until `resumesAt`',
		request: { body: jsonBody(pauseSubscriptionSchema) },
	}),
	resume: actionRoute({
		path: '/api/subscriptions/resume_subscription',
		summary: 'Resume a paused subscription (after a trial that ended, this starts it)',
		request: emptyBody,
	}),
	paymentDetails: actionRoute({
		path: '/api/subscriptions/update_payment_details',
		summary: 'Update the payment details (Stripe: answers the page to do it on)',
		request: emptyBody,
	}),
	endTrial: actionRoute({
		path: '/api/subscriptions/end_trial_and_bill',
		summary: 'End the trial now and start billing',
		request: emptyBody,
	}),
	updatePlan: actionRoute({
		path: '/api/{payment_provider}/update_plan',
		summary: 'Change plan: an upgrade now (prorated), a downgrade at the period’s end',
		request: { params: providerParams, body: jsonBody(updatePlanSchema) },
	}),
	dontCancel: actionRoute({
		path: '/api/{payment_provider}/dont_cancel',
		summary: 'Undo a pending cancellation',
		request: { params: providerParams, ...emptyBody },
	}),
	signup: createRoute({
		method: 'post',
		path: '/api/subscriptions/create_subs_without_login',
		tags: ['Billing'],
		summary: 'Subscribe before having an account: Stripe Checkout, or (local) a confirmation e-mail',
		request: { body: jsonBody(createSubscriptionWithoutLoginSchema) },
		responses: {
			200: jsonResponse(createSubscriptionWithoutLoginResultSchema, 'Where to continue'),
			400: commonProblems[400],
			409: problemResponse('Not offered by this installation'),
			429: commonProblems[429],
		},
	}),
	stripeWebhook: createRoute({
		method: 'post',
		path: '/api/stripe/webhook',
		tags: ['Billing'],
		summary: "Stripe's events, verified with the webhook signing secret",
		request: { headers: z.object({ 'stripe-signature': z.string().max(2000) }) },
		responses: {
			200: jsonResponse(z.object({ received: z.literal(true) }), 'Handled, or seen before'),
			400: problemResponse('Bad signature'),
			404: commonProblems[404],
		},
	}),
}

export function createSubscriptionRoutes(deps: { auth: Auth; subscriptions: Subscriptions }) {
	const { auth, subscriptions } = deps
	const router = createRouter<MemberEnv>()
	const session = requireSession(auth)
	const member = requireMember(subscriptions.deps.db)
	const signedIn = [
		routes.overview,
		routes.cancel,
		routes.pause,
		routes.resume,
		routes.paymentDetails,
		routes.endTrial,
	].map((route) => route.path)
	for (const provider of paymentProviderSchema.options) {
		signedIn.push(`/api/${provider}/update_plan`, `/api/${provider}/dont_cancel`)
	}
	for (const path of signedIn) {
		router.use(path, session, member)
	}

	const ctx = (c: Context<MemberEnv>): SubscriptionsCtx => ({
		...subscriptions.deps,
		member: c.var.member,
		email: c.var.session.user.email,
	})
	const act = async (c: Context<MemberEnv>, request: ActionRequest, via?: 'local' | 'stripe') => {
		const result = await runAction(ctx(c), request, via)
		subscriptions.forget(c.var.member.orgId)
		return c.json(result, 200)
	}

	router.openapi(routes.plans, (c) =>
		c.json(
			{
				plans: [...plans],
				trialDays: subscriptions.deps.billing.localPlan ? 0 : Math.floor(subscriptions.deps.billing.trialDays),
				trialPlanId: subscriptions.deps.billing.trialPlan,
				provider: subscriptions.deps.provider.name,
			},
			200,
		),
	)
	router.openapi(routes.overview, async (c) => c.json(await getOverview(ctx(c)), 200))
	router.openapi(routes.cancel, (c) => act(c, { type: 'cancel' }))
	router.openapi(routes.pause, (c) => act(c, { type: 'pause', resumesAt: c.req.valid('json').resumesAt }))
	router.openapi(routes.resume, (c) => act(c, { type: 'resume' }))
	router.openapi(routes.paymentDetails, (c) => act(c, { type: 'update_payment_details' }))
	router.openapi(routes.endTrial, (c) => act(c, { type: 'end_trial_and_bill' }))
	router.openapi(routes.updatePlan, (c) =>
		act(c, { type: 'update_plan', ...c.req.valid('json') }, c.req.valid('param').payment_provider),
	)
	router.openapi(routes.dontCancel, (c) => act(c, { type: 'dont_cancel' }, c.req.valid('param').payment_provider))
	router.openapi(routes.signup, async (c) =>
		c.json(await createSignup(subscriptions.deps, c.req.valid('json'), c.var.clientIp), 200),
	)
	router.openapi(routes.stripeWebhook, async (c) => {
		const provider = subscriptions.deps.provider
		if (provider.name !== 'stripe' || !subscriptions.deps.billing.stripe) {
			throw new AppError('NOT_FOUND', { detail: 'Stripe is not this installation’s billing provider.' })
		}
		await handleStripeWebhook(subscriptions.deps, await c.req.text(), c.req.valid('header')['stripe-signature'])
		return c.json({ received: true as const }, 200)
	})
	return router
}
