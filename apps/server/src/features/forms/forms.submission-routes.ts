// One answer of a form: opened in full, or deleted (with its row when asked). Mounted by the
// forms router (forms.routes.ts), whose session and membership checks cover these paths.

import { idSchema, okSchema } from '@blocksmith/contracts/common.ts'
import {
	deleteSubmissionQuerySchema,
	submissionDetailSchema,
	submissionsQuerySchema,
} from '@blocksmith/contracts/forms.ts'
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import type { MemberEnv } from '#src/core/auth/auth.middleware.ts'
import { commonProblems, createRouter, jsonResponse, problemResponse } from '#src/lib/openapi.ts'
import type { FormsCtx } from './forms.deps.ts'
import { deleteSubmission, getSubmissionDetail } from './forms.submission-detail.ts'

const tags = ['Forms']
const security = [{ bearer: [] }]
const params = z.object({ id: idSchema, submissionId: idSchema })

/** The CSV export's filters: the list's, without its paging. */
export const exportQuerySchema = submissionsQuerySchema.omit({ limit: true, offset: true })

const routes = {
	detail: createRoute({
		method: 'get',
		path: '/dashboard/forms/{id}/submissions/{submissionId}',
		tags,
		security,
		summary:
			'One answer in full: every answer, its files (short-lived links), each delivery attempt, and its webhook deliveries (owners and admins)',
		request: { params },
		responses: { 200: jsonResponse(submissionDetailSchema, 'The submission'), 404: commonProblems[404] },
	}),
	delete: createRoute({
		method: 'delete',
		path: '/dashboard/forms/{id}/submissions/{submissionId}',
		tags,
		security,
		summary:
			'Delete an answer, its webhook deliveries and the files only it holds; with deleteRow=true the row it made is deleted too (queued after its delivery)',
		request: { params, query: deleteSubmissionQuerySchema },
		responses: {
			200: jsonResponse(okSchema, 'Deleted'),
			400: commonProblems[400],
			404: commonProblems[404],
			409: problemResponse('deleteRow asked of an answer that made no row'),
		},
	}),
}

export function createSubmissionRoutes(ctx: (c: Context<MemberEnv>) => FormsCtx) {
	const router = createRouter<MemberEnv>()
	router.openapi(routes.detail, async (c) => {
		const { id, submissionId } = c.req.valid('param')
		return c.json(await getSubmissionDetail(ctx(c), id, submissionId), 200)
	})
	router.openapi(routes.delete, async (c) => {
		const { id, submissionId } = c.req.valid('param')
		await deleteSubmission(ctx(c), id, submissionId, c.req.valid('query'))
		return c.json({ success: true as const }, 200)
	})
	return router
}
