import type { Context } from 'hono'
import { AppError } from '#src/lib/errors.ts'
import type { PageRender } from '#src/lib/page-render.ts'
import type { Workspaces } from '#src/workspaces/workspaces.module.ts'
import { createViewCounter } from './forms.analytics.ts'
import type { FormsDeps } from './forms.deps.ts'
import { createUploadSweepQueue } from './forms.files.ts'
import { renderHead } from './forms.head.ts'
import { findPublicForm, formGrant, publicFormData } from './forms.public.ts'
import { labelForms } from './forms.sources.ts'
import { createWebhookQueues } from './forms.webhooks.ts'

/**
 * Builds the forms module: its view counter, the public scope its published forms grant
 * (relation and people choices), and the server-written page at /forms/{id}.
 */
export function createForms(options: Omit<FormsDeps, 'workspaces'> & { workspaces: Workspaces }) {
	const deps: FormsDeps = { ...options, workspaces: options.workspaces.deps }
	options.workspaces.registerPublicScope('form', (_db, scope) => formGrant(deps, scope))
	options.workspaces.registerSourceLabels('form', labelForms)
	const views = createViewCounter(deps)
	const webhookQueues = createWebhookQueues(() => deps)
	for (const queue of Object.values(webhookQueues)) {
		options.jobs.register(queue as Parameters<FormsDeps['jobs']['register']>[0])
	}
	options.jobs.register(createUploadSweepQueue(() => deps))

	/** /forms/{id}: the head and page data written into the HTML, so the form renders at once. */
	async function renderPage(c: Context): Promise<PageRender> {
		const idOrSlug = c.req.param('id') ?? ''
		try {
			const { form, database, isOldSlug } = await findPublicForm(deps, idOrSlug)
			if (isOldSlug && form.slug) {
				const query = new URL(c.req.url).search
				return { redirect: `/forms/${encodeURIComponent(form.slug)}${query}` }
			}
			const data = await publicFormData(deps, form, database, { unlocked: false })
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
