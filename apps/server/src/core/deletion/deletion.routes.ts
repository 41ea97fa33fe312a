// Deleting an organization (decision 040): POST /dashboard/organization/delete schedules it,
// confirmed by typing its name; POST /dashboard/organization/restore undoes it until the purge.
// Owners only. While it is scheduled the dashboard answers ORGANIZATION_DELETING except on the
// paths auth.middleware.ts keeps open (restore among them).

import { okSchema } from '@blocksmith/contracts/common.ts'
import { deleteOrganizationResultSchema, deleteOrganizationSchema } from '@blocksmith/contracts/data.ts'
import { eq } from 'drizzle-orm'
import type { Context } from 'hono'
import { type MemberEnv, requireMemberOnce } from '#src/core/auth/auth.middleware.ts'
import { organizations, users } from '#src/core/auth/auth.schema.ts'
import type { Auth } from '#src/core/auth/auth.ts'
import { AppError, found } from '#src/lib/errors.ts'
import { bearerRoute, commonProblems, createRouter, jsonBody, jsonResponse, problemResponse } from '#src/lib/openapi.ts'
import { type DeletionDeps, restoreOrganization, scheduleOrganizationDeletion } from './deletion.service.ts'

const tag = 'Organization'
const forbidden = problemResponse('Only an owner can do this')

const routes = {
	delete: bearerRoute('/dashboard/organization', tag, {
		method: 'post',
		path: '/delete',
		summary:
			'Delete the organization, confirmed by typing its name: its public pages stop at once, its subscription ends, and everything of it is purged after the grace period (restorable until then)',
		request: { body: jsonBody(deleteOrganizationSchema) },
		responses: {
			200: jsonResponse(deleteOrganizationResultSchema, 'Scheduled'),
			400: commonProblems[400],
			403: forbidden,
			409: problemResponse('Already scheduled for deletion (ORGANIZATION_DELETING)'),
		},
	}),
	restore: bearerRoute('/dashboard/organization', tag, {
		method: 'post',
		path: '/restore',
		summary:
			'Undo the scheduled deletion. The subscription it ended stays ended: an owner subscribes again from Billing',
		responses: {
			200: jsonResponse(okSchema, 'Restored'),
			403: forbidden,
			409: problemResponse('The organization is not scheduled for deletion'),
		},
	}),
}

export function createDeletionRoutes(deps: { auth: Auth; deletion: () => DeletionDeps }) {
	const router = createRouter<MemberEnv>()
	const deletion = () => deps.deletion()
	const guard = requireMemberOnce(deps.auth, deletion().db)
	router.use('/dashboard/organization/delete', guard)
	router.use('/dashboard/organization/restore', guard)
	const assertOwner = (c: Context<MemberEnv>) => {
		if (c.var.member.role !== 'owner') {
			throw new AppError('FORBIDDEN', { detail: 'Only an owner can delete or restore the organization.' })
		}
	}

	router.openapi(routes.delete, async (c) => {
		assertOwner(c)
		const { db } = deletion()
		const { orgId, userId } = c.var.member
		const [organization] = await db
			.select({ name: organizations.name })
			.from(organizations)
			.where(eq(organizations.id, orgId))
		// Exactly its name (spaces around it aside): a near miss is how the wrong one gets deleted.
		if (c.req.valid('json').name.trim() !== found(organization).name.trim()) {
			throw new AppError('VALIDATION_FAILED', {
				errors: [{ field: 'name', message: 'Type the organization’s name exactly as it is shown.' }],
			})
		}
		const [user] = await db.select({ name: users.name }).from(users).where(eq(users.id, userId))
		const scheduled = await scheduleOrganizationDeletion(deletion(), {
			organizationId: orgId,
			requestedBy: { id: userId, name: user?.name ?? '' },
			reason: 'requested',
		})
		return c.json({ deletion: scheduled }, 200)
	})

	router.openapi(routes.restore, async (c) => {
		assertOwner(c)
		if (!(await restoreOrganization(deletion(), c.var.member.orgId))) {
			throw new AppError('CONFLICT', { detail: 'This organization is not scheduled for deletion.' })
		}
		return c.json({ success: true as const }, 200)
	})
	return router
}
