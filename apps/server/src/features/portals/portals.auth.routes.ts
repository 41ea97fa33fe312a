// A visitor's sign-in to a portal, under /api/portal/{slug}/auth (decision 038). No dashboard
// session is read here; a member's session is a bearer token this portal alone accepts.

import { okSchema } from '@blocksmith/contracts/common.ts'
import {
	portalMagicLinkInputSchema,
	portalPasswordSignInSchema,
	portalSessionSchema,
	portalSetPasswordSchema,
	portalVerifyInputSchema,
} from '@blocksmith/contracts/portals.ts'
import { createRoute, type RouteConfig, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { commonProblems, createRouter, jsonBody, jsonResponse, problemResponse } from '#src/lib/openapi.ts'
import {
	requestMagicLink,
	setPortalPassword,
	signInWithPassword,
	signOutOfPortal,
	verifyMagicLink,
} from './portals.auth.ts'
import type { PortalsDeps } from './portals.deps.ts'
import { type PortalEnv, type PortalMemberEnv, requirePortal, requirePortalMember } from './portals.session.ts'

const base = '/api/portal/{slug}/auth'
const slugParams = z.object({ slug: z.string().min(1).max(100) })
const { 400: bad, 401: unauthenticated, 429: rateLimited } = commonProblems
const noPortal = problemResponse('No portal here (unknown, turned off or unavailable)')
const linkSentSchema = z.object({ detail: z.string() })
/** The same words whether or not the address is a member. */
const linkSent = { detail: 'If this address belongs to a member of the portal, a sign-in link is on its way.' }

/** A visitor route: its spec as the route states it, with the portal's path, tag and slug. */
function route<R extends Omit<RouteConfig, 'tags'>>(spec: R, isMember = false) {
	return createRoute({
		...spec,
		tags: ['Portals (visitor)'],
		// A member's token, which no /dashboard route accepts (a scheme of its own in the document).
		...(isMember ? { security: [{ portalBearer: [] }] } : {}),
	})
}

const routes = {
	magicLink: route({
		method: 'post',
		path: `${base}/magic_link`,
		summary:
			'Mail a 30-minute sign-in link to the address if it is a member; the answer is the same either way (no enumeration)',
		request: { params: slugParams, body: jsonBody(portalMagicLinkInputSchema) },
		responses: { 404: noPortal, 202: jsonResponse(linkSentSchema, 'Accepted'), 400: bad, 429: rateLimited },
	}),
	verify: route({
		method: 'post',
		path: `${base}/verify`,
		summary: 'Spend a sign-in link (once): a session for this portal only',
		request: { params: slugParams, body: jsonBody(portalVerifyInputSchema) },
		responses: {
			404: noPortal,
			200: jsonResponse(portalSessionSchema, 'Signed in'),
			400: problemResponse('Unknown, used, expired, or for another portal (INVALID_TOKEN), or invalid input'),
		},
	}),
	password: route({
		method: 'post',
		path: `${base}/password`,
		summary: "Sign in with the password the member set (when the portal's access allows passwords)",
		request: { params: slugParams, body: jsonBody(portalPasswordSignInSchema) },
		responses: {
			404: noPortal,
			200: jsonResponse(portalSessionSchema, 'Signed in'),
			400: bad,
			401: problemResponse('Wrong e-mail address or password (INVALID_CREDENTIALS)'),
			403: problemResponse('This portal signs in by link only'),
			429: rateLimited,
		},
	}),
	setPassword: route(
		{
			method: 'post',
			path: `${base}/set_password`,
			summary: "Set or change the signed-in member's password; their other sessions end",
			request: { params: slugParams, body: jsonBody(portalSetPasswordSchema) },
			responses: { 404: noPortal, 200: jsonResponse(okSchema, 'Set'), 400: bad, 401: unauthenticated },
		},
		true,
	),
	signOut: route(
		{
			method: 'post',
			path: `${base}/sign_out`,
			summary: "End the member's current session",
			request: { params: slugParams },
			responses: { 404: noPortal, 204: { description: 'Signed out' }, 401: unauthenticated },
		},
		true,
	),
}

/**
 * The portal (and member) are read in the handler, after the request passed its schema: bad
 * input is a 400 naming the field before any 404 or 401 (app.bad-input.int.test.ts). A portal
 * router mounted earlier on the same path may have read them already.
 */
function resolvers(deps: PortalsDeps) {
	const portalGuard = requirePortal(deps)
	const memberGuard = requirePortalMember(deps)
	const done = async () => {}
	return {
		portal: async (c: Context<PortalMemberEnv>) => {
			if (!c.var.portal) {
				await portalGuard(c as unknown as Context<PortalEnv>, done)
			}
			return c.var.portal
		},
		member: async (c: Context<PortalMemberEnv>) => {
			if (!c.var.portal) {
				await portalGuard(c as unknown as Context<PortalEnv>, done)
			}
			if (!c.var.portalMember) {
				await memberGuard(c, done)
			}
			return c.var.portalMember
		},
	}
}

export function createPortalAuthRoutes(options: { portals: PortalsDeps }) {
	const deps = options.portals
	const router = createRouter<PortalMemberEnv>()
	const resolve = resolvers(deps)
	router.openAPIRegistry.registerComponent('securitySchemes', 'portalBearer', {
		type: 'http',
		scheme: 'bearer',
		description: "A portal member's session (from verify or password), accepted by that portal's API only",
	})

	router.openapi(routes.magicLink, async (c) => {
		await requestMagicLink(deps, await resolve.portal(c), c.req.valid('json').email, c.var.clientIp)
		return c.json(linkSent, 202)
	})
	router.openapi(routes.verify, async (c) =>
		c.json(await verifyMagicLink(deps, await resolve.portal(c), c.req.valid('json').token), 200),
	)
	router.openapi(routes.password, async (c) =>
		c.json(await signInWithPassword(deps, await resolve.portal(c), c.req.valid('json'), c.var.clientIp), 200),
	)
	router.openapi(routes.setPassword, async (c) => {
		await setPortalPassword(deps, await resolve.member(c), c.req.valid('json').password)
		return c.json({ success: true as const }, 200)
	})
	router.openapi(routes.signOut, async (c) => {
		await signOutOfPortal(deps, await resolve.member(c))
		return c.body(null, 204)
	})
	return router
}
