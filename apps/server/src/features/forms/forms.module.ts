import { and, count, eq, gte, isNull, lt, sql } from 'drizzle-orm'
import type { Context } from 'hono'
import type { Meter } from '#src/core/subscriptions/subscriptions.usage.ts'
import { AppError } from '#src/lib/errors.ts'
import type { PageRender } from '#src/lib/page-render.ts'
import type { Workspaces } from '#src/workspaces/workspaces.module.ts'
import { createViewCounter } from './forms.analytics.ts'
import type { FormsDeps } from './forms.deps.ts'
import { createUploadSweepQueue } from './forms.files.ts'
import { formGrant } from './forms.grant.ts'
import { renderHead } from './forms.head.ts'
import { findPublicForm, publicFormData } from './forms.public.ts'
import { formSubmissions, forms } from './forms.schema.ts'
import { labelForms } from './forms.sources.ts'
import { createWebhookQueues } from './forms.webhooks.ts'

/**
 * Builds the forms module: its view counter, the public scope its published forms grant
 * (relation and people choices), and the server-written page at /forms/{id}.
 */
export function createForms(options: Omit<FormsDeps, 'workspaces'> & { workspaces: Workspaces }) {
	const deps: FormsDeps = { ...options, workspaces: options.workspaces.deps }
	options.workspaces.registerPublicScope('form', (_db, scope, request) => formGrant(deps, scope, request))
	options.workspaces.registerSourceLabels('form', labelForms)
	const views = createViewCounter(deps)
	const webhookQueues = createWebhookQueues(() => deps)
	for (const queue of Object.values(webhookQueues)) {
		options.jobs.register(queue as Parameters<FormsDeps['jobs']['register']>[0])
	}
	options.jobs.register(createUploadSweepQueue(() => deps))
	options.subscriptions.registerMeter('forms', countForms)
	options.subscriptions.registerMeter('submissionsPerMonth', countMonthSubmissions)

	/** /forms/{id}: the head and page data written into the HTML, so the form renders at once. */
	async function renderPage(c: Context): Promise<PageRender> {
		const idOrSlug = c.req.param('id') ?? ''
		try {
			const { form, database, isOldSlug } = await findPublicForm(deps, idOrSlug)
			if (isOldSlug && form.slug) {
				const query = new URL(c.req.url).search
				return { redirect: `/forms/${encodeURIComponent(form.slug)}${query}` }
			}
			const data = await publicFormData(deps, form, database, null)
			const pageUrl = `${deps.publicUrl}/forms/${form.slug ?? form.id}`
			return { status: 200, head: renderHead(data, pageUrl), data: { form: data } }
		} catch (error) {
			if (!(error instanceof AppError)) {
				throw error
			}
			return {
				status: error.status,
				head: renderHead(null, ''),
				data: { error: { status: error.status, code: error.code, detail: error.detail } },
			}
		}
	}

	return { deps, views, webhookQueues, renderPage }
}

export type Forms = ReturnType<typeof createForms>

/** Forms the plan counts: a deleted form (kept for its answers) no longer does. */
const countForms: Meter = async (db, organizationId) => {
	const [row] = await db
		.select({ count: count() })
		.from(forms)
		.where(and(eq(forms.organizationId, organizationId), isNull(forms.deletedAt)))
	return row?.count ?? 0
}

/**
 * Answers taken this month, spam left out. Read on the index of the organization's answers by
 * time (form_submissions_organization_month_idx); the spam test is written as the index's
 * predicate is, so the planner can use it.
 */
const countMonthSubmissions: Meter = async (db, organizationId, month) => {
	const [row] = await db
		.select({ count: count() })
		.from(formSubmissions)
		.where(
			and(
				eq(formSubmissions.organizationId, organizationId),
				gte(formSubmissions.createdAt, month.start),
				lt(formSubmissions.createdAt, month.end),
				sql`${formSubmissions.spam} = false`,
			),
		)
	return row?.count ?? 0
}
