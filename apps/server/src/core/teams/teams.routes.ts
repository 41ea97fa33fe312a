// Teams: /dashboard/team_invites/*, /dashboard/users/get_org_details, /dashboard/organizations/*
// (signed-in members; each call works in the session's organization), and the invitation
// page's /api/invitations/{id} (public: the id is the secret from the e-mail).

import { idSchema, okSchema } from '@blocksmith/contracts/common.ts'
import {
	acceptInvitationSchema,
	createInvitationSchema,
	createOrganizationSchema,
	invitationPreviewSchema,
	invitationSchema,
	invitationSignUpResultSchema,
	invitationSignUpSchema,
	memberSchema,
	organizationSummarySchema,
	orgDetailsSchema,
	removeMemberSchema,
	updateMemberRoleSchema,
} from '@blocksmith/contracts/teams.ts'
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { Config } from '#src/config.ts'
import { type MemberEnv, requireMember, requireSession, type SessionEnv } from '#src/core/auth/auth.middleware.ts'
import { type Auth, clientIpHeader } from '#src/core/auth/auth.ts'
import type { Subscriptions } from '#src/core/subscriptions/subscriptions.module.ts'
import type { Db } from '#src/db/client.ts'
import { commonProblems, createRouter, jsonBody, jsonResponse, problemResponse } from '#src/lib/openapi.ts'
import {
	type AccountCtx,
	acceptInvitation,
	createInvitation,
	createOrganization,
	getInvitationPreview,
	getOrgDetails,
	leaveOrganization,
	listInvitations,
	listMembers,
	listOrganizations,
	removeMember,
	revokeInvitation,
	signUpWithInvitation,
	switchOrganization,
	type TeamCtx,
	updateMemberRole,
} from './teams.service.ts'

const tags = ['Team']
const security = [{ bearer: [] }]
const idParams = z.object({ id: idSchema })
const forbidden = problemResponse('Your role does not allow this')
const lastOwner = problemResponse('The organization would be left without an owner')

const routes = {
	listInvitations: createRoute({
		method: 'get',
		path: '/dashboard/team_invites',
		tags,
		security,
		summary: 'Pending invitations',
		responses: { 200: jsonResponse(z.array(invitationSchema), 'Pending invitations'), 401: commonProblems[401] },
	}),
	invite: createRoute({
		method: 'post',
		path: '/dashboard/team_invites',
		tags,
		security,
		summary: 'Invite someone by e-mail (owners and admins)',
		request: { body: jsonBody(createInvitationSchema) },
		responses: {
			201: jsonResponse(invitationSchema, 'Invitation sent'),
			400: commonProblems[400],
			403: forbidden,
			409: problemResponse('Already a member'),
		},
	}),
	revoke: createRoute({
		method: 'delete',
		path: '/dashboard/team_invites/{id}',
		tags,
		security,
		summary: 'Revoke a pending invitation (owners and admins)',
		request: { params: idParams },
		responses: { 200: jsonResponse(okSchema, 'Revoked'), 403: forbidden, 404: commonProblems[404] },
	}),
	members: createRoute({
		method: 'get',
		path: '/dashboard/team_invites/all_members',
		tags,
		security,
		summary: 'Members with their roles',
		responses: { 200: jsonResponse(z.array(memberSchema), 'Members'), 401: commonProblems[401] },
	}),
	remove: createRoute({
		method: 'post',
		path: '/dashboard/team_invites/remove_team_member',
		tags,
		security,
		summary: 'Remove a member (owners and admins; never the last owner)',
		request: { body: jsonBody(removeMemberSchema) },
		responses: { 200: jsonResponse(okSchema, 'Removed'), 403: forbidden, 404: commonProblems[404], 409: lastOwner },
	}),
	updateRole: createRoute({
		method: 'post',
		path: '/dashboard/team_invites/update_member_role',
		tags,
		security,
		summary: "Change a member's role",
		request: { body: jsonBody(updateMemberRoleSchema) },
		responses: { 200: jsonResponse(okSchema, 'Changed'), 403: forbidden, 404: commonProblems[404], 409: lastOwner },
	}),
	orgDetails: createRoute({
		method: 'get',
		path: '/dashboard/users/get_org_details',
		tags,
		security,
		summary: 'The current organization, your role in it, and its plan',
		responses: { 200: jsonResponse(orgDetailsSchema, 'Organization'), 401: commonProblems[401] },
	}),
	organizations: createRoute({
		method: 'get',
		path: '/dashboard/organizations',
		tags,
		security,
		summary: 'Organizations you belong to',
		responses: { 200: jsonResponse(z.array(organizationSummarySchema), 'Organizations') },
	}),
	createOrganization: createRoute({
		method: 'post',
		path: '/dashboard/organizations',
		tags,
		security,
		summary: 'Create an organization (you become its owner and switch to it)',
		request: { body: jsonBody(createOrganizationSchema) },
		responses: { 201: jsonResponse(organizationSummarySchema, 'Created'), 400: commonProblems[400] },
	}),
	switchOrganization: createRoute({
		method: 'post',
		path: '/dashboard/organizations/{id}/switch',
		tags,
		security,
		summary: 'Work in another of your organizations',
		request: { params: idParams },
		responses: { 200: jsonResponse(okSchema, 'Switched'), 404: commonProblems[404] },
	}),
	leave: createRoute({
		method: 'post',
		path: '/dashboard/organizations/leave',
		tags,
		security,
		summary: 'Leave the current organization (not as its last owner)',
		responses: { 200: jsonResponse(okSchema, 'Left'), 409: lastOwner },
	}),
	previewInvitation: createRoute({
		method: 'get',
		path: '/api/invitations/{id}',
		tags,
		summary: 'What an invitation link is for',
		request: { params: idParams },
		responses: {
			200: jsonResponse(invitationPreviewSchema, 'The invitation'),
			410: problemResponse('Accepted, revoked or expired'),
		},
	}),
	signUpWithInvitation: createRoute({
		method: 'post',
		path: '/api/invitations/{id}/sign_up',
		tags,
		summary: 'Create an account from an invitation link and join the team in the same step',
		description:
			'The address is the invited one, confirmed by the link token; no confirmation mail is sent and no organization of your own is made. Answers with a bearer token.',
		request: { params: idParams, body: jsonBody(invitationSignUpSchema) },
		responses: {
			201: jsonResponse(invitationSignUpResultSchema, 'Signed up and joined'),
			400: commonProblems[400],
			403: problemResponse('The link token is not this invitation’s'),
			409: problemResponse('The invited address already has an account: sign in to accept'),
			410: problemResponse('Accepted, revoked or expired'),
		},
	}),
	acceptInvitation: createRoute({
		method: 'post',
		path: '/dashboard/invitations/{id}/accept',
		tags,
		security,
		summary: 'Accept an invitation sent to your e-mail address',
		request: { params: idParams, body: jsonBody(acceptInvitationSchema) },
		responses: {
			200: jsonResponse(z.object({ organizationId: z.string() }), 'Joined'),
			403: problemResponse(
				'The invitation is for another address, or the address is unconfirmed and the link token is missing',
			),
			410: problemResponse('Accepted, revoked or expired'),
		},
	}),
}

export function createTeamRoutes(deps: { auth: Auth; db: Db; config: Config; subscriptions: Subscriptions }) {
	const { auth, db, config, subscriptions } = deps
	const router = createRouter<MemberEnv>()
	const session = requireSession(auth)
	const member = requireMember(db)
	for (const path of ['/dashboard/team_invites', '/dashboard/team_invites/*', '/dashboard/users/get_org_details']) {
		router.use(path, session, member)
	}
	// Listing and creating one's organizations need only a session: someone whose last
	// organization was deleted, or who was removed from it, has no membership and must still be
	// able to see that (an empty list) and make a new one. Switching and leaving need one.
	// (Hono's '/dashboard/organizations/*' would match the bare path too, so each is named.)
	router.use('/dashboard/organizations', session)
	router.use('/dashboard/organizations/leave', session, member)
	router.use('/dashboard/organizations/:id/switch', session, member)
	router.use('/dashboard/invitations/*', session)

	const ctx = (c: Context<MemberEnv>): TeamCtx => ({
		db,
		auth,
		config,
		headers: c.var.authHeaders(),
		member: c.var.member,
		subscriptions,
	})

	router.openapi(routes.listInvitations, async (c) => c.json(await listInvitations(ctx(c)), 200))
	router.openapi(routes.invite, async (c) => c.json(await createInvitation(ctx(c), c.req.valid('json')), 201))
	router.openapi(routes.revoke, async (c) => {
		await revokeInvitation(ctx(c), c.req.valid('param').id)
		return c.json({ success: true as const }, 200)
	})
	router.openapi(routes.members, async (c) => c.json(await listMembers(ctx(c)), 200))
	router.openapi(routes.remove, async (c) => {
		await removeMember(ctx(c), c.req.valid('json').memberId)
		return c.json({ success: true as const }, 200)
	})
	router.openapi(routes.updateRole, async (c) => {
		await updateMemberRole(ctx(c), c.req.valid('json'))
		return c.json({ success: true as const }, 200)
	})
	router.openapi(routes.orgDetails, async (c) => c.json(await getOrgDetails(ctx(c)), 200))
	// The router's env promises a member; these routes read the session alone (no member there).
	const accountCtx = (c: { var: SessionEnv['Variables'] }): AccountCtx => ({
		db,
		auth,
		headers: c.var.authHeaders(),
		userId: c.var.session.user.id,
		activeOrganizationId: c.var.session.membership?.organizationId ?? null,
	})
	router.openapi(routes.organizations, async (c) => c.json(await listOrganizations(accountCtx(c)), 200))
	router.openapi(routes.createOrganization, async (c) =>
		c.json(await createOrganization(accountCtx(c), c.req.valid('json').name), 201),
	)
	router.openapi(routes.leave, async (c) => {
		await leaveOrganization(ctx(c))
		return c.json({ success: true as const }, 200)
	})
	router.openapi(routes.switchOrganization, async (c) => {
		await switchOrganization(ctx(c), c.req.valid('param').id)
		return c.json({ success: true as const }, 200)
	})
	router.openapi(routes.previewInvitation, async (c) =>
		c.json(await getInvitationPreview(db, c.req.valid('param').id), 200),
	)
	router.openapi(routes.signUpWithInvitation, async (c) => {
		// A fresh account: no bearer token the browser may still hold is passed on.
		const headers = new Headers({ [clientIpHeader]: c.var.clientIp })
		const userAgent = c.req.header('user-agent')
		if (userAgent) {
			headers.set('user-agent', userAgent)
		}
		const result = await signUpWithInvitation(
			{ db, auth, config, headers },
			c.req.valid('param').id,
			c.req.valid('json'),
		)
		return c.json(result, 201)
	})
	router.openapi(routes.acceptInvitation, async (c) => {
		const { user } = c.var.session
		const result = await acceptInvitation(
			{
				db,
				auth,
				config,
				headers: c.var.authHeaders(),
				userId: user.id,
				email: user.email,
				emailVerified: user.emailVerified,
			},
			c.req.valid('param').id,
			c.req.valid('json').token,
		)
		return c.json(result, 200)
	})
	return router
}
