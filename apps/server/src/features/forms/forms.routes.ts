// Forms: the builder's API under /dashboard/forms (CRUD, custom address, duplicate,
// submissions with delivery state, CSV, analytics) and the public side under /api (page
// data, unlock, page images, submissions, view beacons).

import { idSchema, okSchema } from '@blocksmith/contracts/common.ts'
import {
	analyticsQuerySchema,
	analyticsSchema,
	createFormSchema,
	createWebhookSchema,
	formSchema,
	formUploadSchema,
	formWebhookSchema,
	maxWebhooksPerForm,
	publicFormSchema,
	submissionSchema,
	submissionsPageSchema,
	submissionsQuerySchema,
	submitResultSchema,
	submitSchema,
	unlockFormSchema,
	unlockResultSchema,
	updateFormSchema,
	updateUrlSchema,
	updateWebhookSchema,
	type ViewsBeacon,
	viewsSchema,
	webhookDeliverySchema,
} from '@blocksmith/contracts/forms.ts'
import { directUploadResponseSchema } from '@blocksmith/contracts/uploads.ts'
import { createRoute, z } from '@hono/zod-openapi'
import type { Context } from 'hono'
import { type MemberEnv, requireMember, requireSession } from '#src/core/auth/auth.middleware.ts'
import type { Auth } from '#src/core/auth/auth.ts'
import type { FastRoute } from '#src/lib/fast-routes.ts'
import { commonProblems, createRouter, jsonBody, jsonResponse, problemResponse } from '#src/lib/openapi.ts'
import type { ViewCounter } from './forms.analytics.ts'
import { formAnalytics } from './forms.analytics.ts'
import type { FormsCtx, FormsDeps } from './forms.deps.ts'
import { findPublicForm, openPageAsset, publicFormData, unlockForm } from './forms.public.ts'
import {
	authorizeFormAction,
	createForm,
	deleteForm,
	duplicateForm,
	getForm,
	listForms,
	updateForm,
	updateUrl,
} from './forms.service.ts'
import { createSubmissionRoutes, exportQuerySchema } from './forms.submission-routes.ts'
import { exportSubmissionsCsv, listSubmissions, retryFailedSubmissions, retrySubmission } from './forms.submissions.ts'
import { submit } from './forms.submit.ts'
import { createFormUpload } from './forms.uploads.ts'
import {
	createWebhook,
	deleteWebhook,
	listDeliveries,
	listWebhooks,
	retryDelivery,
	updateWebhook,
	type WebhookQueues,
} from './forms.webhooks.ts'

const tags = ['Forms']
const publicTags = ['Forms (public)']
const security = [{ bearer: [] }]
const idParams = z.object({ id: idSchema })
/** A form is reached by its id or by any slug it has had. */
const publicIdParams = z.object({ id: z.string().min(1).max(100) })
const webhookParams = z.object({ id: idSchema, webhookId: idSchema })
const notFound = commonProblems[404]
const bad = commonProblems[400]
const forbidden = problemResponse('Owners and admins only')
const planRefused = problemResponse('The plan has no room for another form, or the subscription is not active')
/** A published form whose organization's subscription is not active (nothing of billing is said). */
const unavailable = problemResponse('Unavailable right now (UNAVAILABLE)')

const routes = {
	list: createRoute({
		method: 'get',
		path: '/dashboard/forms',
		tags,
		security,
		summary: 'Forms of the organization, most recently edited first',
		responses: { 200: jsonResponse(z.array(formSchema), 'Forms'), 401: commonProblems[401] },
	}),
	create: createRoute({
		method: 'post',
		path: '/dashboard/forms',
		tags,
		security,
		summary: 'Create a form on a database: every askable property becomes a field',
		request: { body: jsonBody(createFormSchema) },
		responses: { 201: jsonResponse(formSchema, 'Created'), 400: bad, 402: planRefused },
	}),
	get: createRoute({
		method: 'get',
		path: '/dashboard/forms/{id}',
		tags,
		security,
		summary: 'One form',
		request: { params: idParams },
		responses: { 200: jsonResponse(formSchema, 'The form'), 404: notFound },
	}),
	update: createRoute({
		method: 'patch',
		path: '/dashboard/forms/{id}',
		tags,
		security,
		summary: 'Change fields, page settings, messages, publishing, password',
		request: { params: idParams, body: jsonBody(updateFormSchema) },
		responses: { 200: jsonResponse(formSchema, 'Saved'), 400: bad, 404: notFound, 409: problemResponse('Conflict') },
	}),
	delete: createRoute({
		method: 'delete',
		path: '/dashboard/forms/{id}',
		tags,
		security,
		summary: 'Delete a form: its page answers "deleted"; rows it wrote stay in the database (owners and admins)',
		request: { params: idParams },
		responses: { 200: jsonResponse(okSchema, 'Deleted'), 403: forbidden, 404: notFound },
	}),
	analytics: createRoute({
		method: 'get',
		path: '/dashboard/forms/{id}/analytics',
		tags,
		security,
		summary: 'Views, starts, submissions, completion rate and a daily series for a range (last 30 days by default)',
		request: { params: idParams, query: analyticsQuerySchema },
		responses: { 200: jsonResponse(analyticsSchema, 'Analytics'), 400: bad, 404: notFound },
	}),
	updateUrl: createRoute({
		method: 'post',
		path: '/dashboard/forms/{id}/update_url',
		tags,
		security,
		summary: 'Set the custom address /forms/{slug}; earlier slugs keep redirecting',
		request: { params: idParams, body: jsonBody(updateUrlSchema) },
		responses: { 200: jsonResponse(formSchema, 'Saved'), 400: bad, 404: notFound, 409: problemResponse('Taken') },
	}),
	duplicate: createRoute({
		method: 'post',
		path: '/dashboard/forms/{id}/duplicate',
		tags,
		security,
		summary: 'Copy a form (unpublished, without its address and answers)',
		request: { params: idParams },
		responses: { 201: jsonResponse(formSchema, 'The copy'), 402: planRefused, 404: notFound },
	}),
	submissions: createRoute({
		method: 'get',
		path: '/dashboard/forms/{id}/submissions',
		tags,
		security,
		summary: "Answers, newest first, each with its delivery's state",
		request: { params: idParams, query: submissionsQuerySchema },
		responses: { 200: jsonResponse(submissionsPageSchema, 'Submissions'), 400: bad, 404: notFound },
	}),
	exportCsv: createRoute({
		method: 'get',
		path: '/dashboard/forms/{id}/submissions/export.csv',
		tags,
		security,
		summary: 'Every answer as CSV (UTF-8 with a BOM), narrowed as the list is (state, q, field and value)',
		request: { params: idParams, query: exportQuerySchema },
		responses: {
			200: { content: { 'text/csv': { schema: z.string() } }, description: 'CSV' },
			400: bad,
			404: notFound,
		},
	}),
	retry: createRoute({
		method: 'post',
		path: '/dashboard/forms/{id}/submissions/{submissionId}/retry',
		tags,
		security,
		summary: 'Retry a failed delivery now',
		request: { params: z.object({ id: idSchema, submissionId: idSchema }) },
		responses: {
			200: jsonResponse(submissionSchema, 'Queued again'),
			404: notFound,
			409: problemResponse('Not failed'),
		},
	}),
	retryFailed: createRoute({
		method: 'post',
		path: '/dashboard/forms/{id}/submissions/retry_failed',
		tags,
		security,
		summary: 'Retry every failed delivery of the form now',
		request: { params: idParams },
		responses: { 200: jsonResponse(z.object({ retried: z.number().int() }), 'Queued again'), 404: notFound },
	}),
	webhooks: createRoute({
		method: 'get',
		path: '/dashboard/forms/{id}/webhooks',
		tags,
		security,
		summary: 'Webhooks of a form, with their signing secrets (owners and admins, as every webhook route)',
		request: { params: idParams },
		responses: { 200: jsonResponse(z.array(formWebhookSchema), 'Webhooks'), 403: forbidden, 404: notFound },
	}),
	createWebhook: createRoute({
		method: 'post',
		path: '/dashboard/forms/{id}/webhooks',
		tags,
		security,
		summary: `Add a URL that receives each submission, signed (at most ${maxWebhooksPerForm} per form)`,
		request: { params: idParams, body: jsonBody(createWebhookSchema) },
		responses: {
			201: jsonResponse(formWebhookSchema, 'Added'),
			400: bad,
			403: forbidden,
			404: notFound,
			409: problemResponse('Too many'),
		},
	}),
	updateWebhook: createRoute({
		method: 'patch',
		path: '/dashboard/forms/{id}/webhooks/{webhookId}',
		tags,
		security,
		summary: 'Turn a webhook on or off',
		request: { params: webhookParams, body: jsonBody(updateWebhookSchema) },
		responses: { 200: jsonResponse(formWebhookSchema, 'Saved'), 403: forbidden, 404: notFound },
	}),
	deleteWebhook: createRoute({
		method: 'delete',
		path: '/dashboard/forms/{id}/webhooks/{webhookId}',
		tags,
		security,
		summary: 'Remove a webhook (and its deliveries)',
		request: { params: webhookParams },
		responses: { 200: jsonResponse(okSchema, 'Removed'), 403: forbidden, 404: notFound },
	}),
	deliveries: createRoute({
		method: 'get',
		path: '/dashboard/forms/{id}/webhooks/{webhookId}/deliveries',
		tags,
		security,
		summary: "A webhook's deliveries, newest first, with every attempt's answer",
		request: {
			params: webhookParams,
			query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
		},
		responses: { 200: jsonResponse(z.array(webhookDeliverySchema), 'Deliveries'), 403: forbidden, 404: notFound },
	}),
	retryDelivery: createRoute({
		method: 'post',
		path: '/dashboard/forms/{id}/webhooks/{webhookId}/deliveries/{deliveryId}/retry',
		tags,
		security,
		summary: 'Send a failed delivery again now',
		request: { params: webhookParams.extend({ deliveryId: idSchema }) },
		responses: {
			200: jsonResponse(webhookDeliverySchema, 'Queued'),
			403: forbidden,
			404: notFound,
			409: problemResponse('Not failed'),
		},
	}),
	publicForm: createRoute({
		method: 'get',
		path: '/api/forms/{id}',
		tags: publicTags,
		summary: 'Page data of a published form, by id or slug (fields only once unlocked, for a protected form)',
		request: { params: publicIdParams, query: z.object({ unlockToken: z.string().max(300).optional() }) },
		responses: {
			200: jsonResponse(publicFormSchema, 'Page data'),
			404: problemResponse('Not published'),
			409: unavailable,
			410: problemResponse('Deleted'),
		},
	}),
	unlock: createRoute({
		method: 'post',
		path: '/api/forms/{id}/unlock_form',
		tags: publicTags,
		summary: 'Unlock a password-protected form: a short-lived token the submission carries',
		request: { params: publicIdParams, body: jsonBody(unlockFormSchema) },
		responses: {
			200: jsonResponse(unlockResultSchema, 'Unlocked'),
			403: problemResponse('Wrong password'),
			404: notFound,
			429: commonProblems[429],
		},
	}),
	upload: createRoute({
		method: 'post',
		path: '/api/forms/{id}/uploads',
		tags: publicTags,
		summary:
			"Announce a visitor's file for a file field: a signed URL to PUT it to (then PUT /api/uploads/{id}); the answer names the blob",
		request: { params: publicIdParams, body: jsonBody(formUploadSchema) },
		responses: {
			201: jsonResponse(directUploadResponseSchema, 'Upload URL'),
			400: bad,
			403: problemResponse('Password required'),
			404: problemResponse('Not published'),
			409: problemResponse('Closed, or the form takes no files right now (UNAVAILABLE)'),
			413: problemResponse("Larger than the field's limit"),
			415: problemResponse('A type the field does not take'),
			429: commonProblems[429],
		},
	}),
	asset: createRoute({
		method: 'get',
		path: '/api/forms/{id}/assets/{asset}',
		tags: publicTags,
		summary: "A published form's thumbnail, favicon, logo or cover (raster images; SVGs are inlined in the page)",
		request: { params: publicIdParams.extend({ asset: z.enum(['thumbnail', 'favicon', 'logo', 'cover']) }) },
		responses: { 200: { description: 'The image' }, 404: notFound },
	}),
	fieldImage: createRoute({
		method: 'get',
		path: '/api/forms/{id}/assets/fields/{fieldId}',
		tags: publicTags,
		summary: "The picture of a published form's image item (raster images; SVGs are inlined in the page data)",
		request: {
			params: publicIdParams.extend({ fieldId: z.string().min(1).max(64) }),
			query: z.object({ unlockToken: z.string().max(300).optional() }),
		},
		responses: {
			200: { description: 'The image' },
			403: problemResponse("Password required: a protected form's pictures need its unlock token"),
			404: notFound,
		},
	}),
	submit: createRoute({
		method: 'post',
		path: '/api/submissions',
		tags: publicTags,
		summary: 'Submit answers to a published form (validated, spam-checked, idempotent by idempotencyKey)',
		request: { body: jsonBody(submitSchema) },
		responses: {
			201: jsonResponse(submitResultSchema, 'Stored; delivery to the database follows'),
			200: jsonResponse(submitResultSchema, 'Already stored under this idempotency key'),
			400: bad,
			403: problemResponse('Password required'),
			404: problemResponse('Not published'),
			409: problemResponse('Closed (FORM_CLOSED), or unavailable right now (UNAVAILABLE)'),
			410: problemResponse('Deleted'),
			422: problemResponse('Too fast'),
			429: commonProblems[429],
		},
	}),
	views: createRoute({
		method: 'post',
		path: '/api/views',
		tags: publicTags,
		summary: 'View beacon: counts page views and starts (no cookies, nothing about the visitor is kept)',
		request: { body: jsonBody(viewsSchema) },
		responses: { 202: jsonResponse(z.object({ accepted: z.number().int() }), 'Counted'), 400: bad },
	}),
}

export function createFormRoutes(deps: {
	auth: Auth
	forms: FormsDeps
	views: ViewCounter
	webhookQueues: WebhookQueues
}) {
	const f = deps.forms
	const router = createRouter<MemberEnv>()
	const session = requireSession(deps.auth)
	const member = requireMember(f.db)
	router.use('/dashboard/forms', session, member)
	router.use('/dashboard/forms/*', session, member)
	const ctx = (c: Context<MemberEnv>): FormsCtx => ({
		...f,
		orgId: c.var.member.orgId,
		userId: c.var.member.userId,
		role: c.var.member.role,
	})
	const id = (c: Context<MemberEnv>) => c.req.param('id') as string
	// Every webhook route, listing included (secrets), present and future: owners and admins only.
	for (const path of ['/dashboard/forms/:id/webhooks', '/dashboard/forms/:id/webhooks/*']) {
		router.use(path, async (c, next) => {
			await authorizeFormAction(ctx(c), id(c), 'manageWebhooks')
			await next()
		})
	}

	router.openapi(routes.list, async (c) => c.json(await listForms(ctx(c)), 200))
	router.openapi(routes.create, async (c) => c.json(await createForm(ctx(c), c.req.valid('json')), 201))
	router.openapi(routes.get, async (c) => c.json(await getForm(ctx(c), id(c)), 200))
	router.openapi(routes.update, async (c) => c.json(await updateForm(ctx(c), id(c), c.req.valid('json')), 200))
	router.openapi(routes.delete, async (c) => {
		await deleteForm(ctx(c), id(c))
		return c.json({ success: true as const }, 200)
	})
	router.openapi(routes.analytics, async (c) => c.json(await formAnalytics(ctx(c), id(c), c.req.valid('query')), 200))
	router.openapi(routes.updateUrl, async (c) => c.json(await updateUrl(ctx(c), id(c), c.req.valid('json').slug), 200))
	router.openapi(routes.duplicate, async (c) => c.json(await duplicateForm(ctx(c), id(c)), 201))
	router.openapi(routes.submissions, async (c) =>
		c.json(await listSubmissions(ctx(c), id(c), c.req.valid('query')), 200),
	)
	router.openapi(routes.exportCsv, async (c) => {
		const csv = await exportSubmissionsCsv(ctx(c), id(c), c.req.valid('query'))
		return c.body(csv.body, 200, {
			'content-type': 'text/csv; charset=utf-8',
			'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(csv.filename)}`,
		}) as never
	})
	router.openapi(routes.retry, async (c) => {
		const { submissionId } = c.req.valid('param')
		return c.json(await retrySubmission(ctx(c), id(c), submissionId), 200)
	})
	router.openapi(routes.retryFailed, async (c) => c.json(await retryFailedSubmissions(ctx(c), id(c)), 200))
	// After export.csv, which the detail's {submissionId} would otherwise take.
	router.route('/', createSubmissionRoutes(ctx))

	router.openapi(routes.webhooks, async (c) => c.json(await listWebhooks(ctx(c), id(c)), 200))
	router.openapi(routes.createWebhook, async (c) =>
		c.json(await createWebhook(ctx(c), id(c), c.req.valid('json').url), 201),
	)
	router.openapi(routes.updateWebhook, async (c) => {
		const { webhookId } = c.req.valid('param')
		return c.json(await updateWebhook(ctx(c), id(c), webhookId, c.req.valid('json')), 200)
	})
	router.openapi(routes.deleteWebhook, async (c) => {
		await deleteWebhook(ctx(c), id(c), c.req.valid('param').webhookId)
		return c.json({ success: true as const }, 200)
	})
	router.openapi(routes.deliveries, async (c) => {
		const { webhookId } = c.req.valid('param')
		return c.json(await listDeliveries(ctx(c), id(c), webhookId, c.req.valid('query').limit), 200)
	})
	router.openapi(routes.retryDelivery, async (c) => {
		const { webhookId, deliveryId } = c.req.valid('param')
		return c.json(await retryDelivery(ctx(c), deps.webhookQueues, id(c), webhookId, deliveryId), 200)
	})

	router.openapi(routes.publicForm, async (c) => {
		const { form, database } = await findPublicForm(f, c.req.valid('param').id)
		c.header('cache-control', 'no-store')
		return c.json(await publicFormData(f, form, database, c.req.valid('query').unlockToken ?? null), 200)
	})
	router.openapi(routes.unlock, async (c) =>
		c.json(await unlockForm(f, c.req.valid('param').id, c.req.valid('json').password, c.var.clientIp), 200),
	)
	router.openapi(routes.upload, async (c) =>
		c.json(await createFormUpload(f, c.req.valid('param').id, c.req.valid('json'), c.var.clientIp), 201),
	)
	const image = (file: Awaited<ReturnType<typeof openPageAsset>>) => ({
		'content-type': file.contentType,
		'content-length': String(file.byteSize),
		'cache-control': file.isPrivate ? 'private, max-age=300' : 'public, max-age=300',
		'x-content-type-options': 'nosniff',
	})
	router.openapi(routes.asset, async (c) => {
		const { id: formId, asset } = c.req.valid('param')
		const file = await openPageAsset(f, formId, asset)
		return c.body(file.body, 200, image(file)) as never
	})
	router.openapi(routes.fieldImage, async (c) => {
		const { id: formId, fieldId } = c.req.valid('param')
		const file = await openPageAsset(f, formId, `fields/${fieldId}`, c.req.valid('query').unlockToken)
		return c.body(file.body, 200, image(file)) as never
	})
	router.openapi(routes.submit, async (c) => {
		const result = await submit(f, deps.webhookQueues, c.req.valid('json'), c.var.clientIp)
		return c.json(result, result.duplicate ? 200 : 201)
	})
	router.openapi(routes.views, async (c) => c.json(countViews(deps.views, c.req.valid('json')), 202))
	return router
}

function countViews(views: ViewCounter, beacon: ViewsBeacon) {
	views.record(beacon)
	return { accepted: beacon.events.length }
}

/**
 * The view beacon, sent on every page load of a published form, answered before the app when it
 * is valid (decision 041): the same contract schema and the same answer as `routes.views`, which
 * answers everything else.
 */
export function viewsFastRoute(views: ViewCounter): FastRoute {
	return {
		path: routes.views.path,
		answer: (body) => {
			const beacon = viewsSchema.safeParse(body)
			return beacon.success ? { status: 202, body: countViews(views, beacon.data) } : null
		},
	}
}
