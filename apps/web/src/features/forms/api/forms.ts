import {
	analyticsSchema,
	type CreateForm,
	type Form,
	type FormAnalytics,
	type FormWebhook,
	formSchema,
	formWebhookSchema,
	type Submission,
	submissionSchema,
	type UpdateForm,
	type WebhookDelivery,
	webhookDeliverySchema,
} from '@blocksmith/contracts/forms.ts'
import { type BlobWithUrl, blobWithUrlSchema } from '@blocksmith/contracts/uploads.ts'
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { z } from 'zod'
import { ApiError, api } from '#src/lib/api-client.ts'
import { readToken } from '#src/lib/token-store.ts'

// The builder's API: forms, their submissions with delivery state, CSV export and analytics.

export type SubmissionState = 'pending' | 'delivered' | 'failed' | 'dead' | 'spam'

export type AnalyticsRange = { from: string; to: string; timeZone: string }

export const formKeys = {
	all: ['forms'] as const,
	list: ['forms', 'list'] as const,
	detail: (id: string) => ['forms', 'detail', id] as const,
	submissions: (id: string) => ['forms', 'submissions', id] as const,
	analytics: (id: string, range: AnalyticsRange) => ['forms', 'analytics', id, range] as const,
	blob: (id: string) => ['forms', 'blob', id] as const,
	webhooks: (id: string) => ['forms', 'webhooks', id] as const,
	deliveries: (id: string, webhookId: string) => ['forms', 'webhooks', id, webhookId, 'deliveries'] as const,
}

const encode = encodeURIComponent

export const formsQuery = queryOptions({
	queryKey: formKeys.list,
	queryFn: ({ signal }): Promise<Form[]> => api('/dashboard/forms', { schema: z.array(formSchema), signal }),
})

export function formQuery(id: string) {
	return queryOptions({
		queryKey: formKeys.detail(id),
		queryFn: ({ signal }): Promise<Form> => api(`/dashboard/forms/${encode(id)}`, { schema: formSchema, signal }),
	})
}

export function analyticsQuery(id: string, range: AnalyticsRange) {
	return queryOptions({
		queryKey: formKeys.analytics(id, range),
		queryFn: ({ signal }): Promise<FormAnalytics> =>
			api(`/dashboard/forms/${encode(id)}/analytics`, { query: range, schema: analyticsSchema, signal }),
		placeholderData: keepPreviousData,
	})
}

/** An uploaded page image: its file name and a short-lived URL to show it. */
export function blobQuery(id: string) {
	return queryOptions({
		queryKey: formKeys.blob(id),
		queryFn: ({ signal }): Promise<BlobWithUrl> =>
			api(`/dashboard/active_storage/blobs/${encode(id)}`, { schema: blobWithUrlSchema, signal }),
		// The URL is signed for an hour; a fresh one is fetched well before.
		staleTime: 30 * 60_000,
	})
}

// ---- forms --------------------------------------------------------------------------------

export async function createForm(input: CreateForm): Promise<Form> {
	return api('/dashboard/forms', { json: input, schema: formSchema })
}

export async function updateForm(input: { id: string; changes: UpdateForm }): Promise<Form> {
	return api(`/dashboard/forms/${encode(input.id)}`, { method: 'PATCH', json: input.changes, schema: formSchema })
}

export async function deleteForm(id: string): Promise<void> {
	await api(`/dashboard/forms/${encode(id)}`, { method: 'DELETE' })
}

export async function duplicateForm(id: string): Promise<Form> {
	return api(`/dashboard/forms/${encode(id)}/duplicate`, { json: {}, schema: formSchema })
}

/** 409 when another form has (or had) the address. */
export async function updateFormUrl(input: { id: string; slug: string }): Promise<Form> {
	return api(`/dashboard/forms/${encode(input.id)}/update_url`, { json: { slug: input.slug }, schema: formSchema })
}

// ---- submissions --------------------------------------------------------------------------

export async function retrySubmission(input: { formId: string; submissionId: string }): Promise<Submission> {
	return api(`/dashboard/forms/${encode(input.formId)}/submissions/${encode(input.submissionId)}/retry`, {
		json: {},
		schema: submissionSchema,
	})
}

export async function retryFailedSubmissions(formId: string): Promise<number> {
	const result = await api(`/dashboard/forms/${encode(formId)}/submissions/retry_failed`, {
		json: {},
		schema: z.object({ retried: z.number() }),
	})
	return result.retried
}

/**
 * The CSV export, fetched with the bearer header (a token never goes into a URL) and saved
 * through a blob link.
 */
export async function downloadSubmissionsCsv(input: { formId: string; name: string }): Promise<void> {
	const headers = new Headers({ accept: 'text/csv' })
	const token = readToken()
	if (token) {
		headers.set('authorization', `Bearer ${token}`)
	}
	const response = await fetch(`/dashboard/forms/${encode(input.formId)}/submissions/export.csv`, { headers })
	if (!response.ok) {
		throw new ApiError({ status: response.status, code: 'EXPORT_FAILED', detail: 'The export failed. Try again.' })
	}
	const blob = await response.blob()
	const url = URL.createObjectURL(blob)
	const link = document.createElement('a')
	link.href = url
	link.download = `${input.name.replace(/[\\/:*?"<>|]+/g, '-') || 'submissions'} submissions.csv`
	document.body.append(link)
	link.click()
	link.remove()
	setTimeout(() => URL.revokeObjectURL(url), 1000)
}

// ---- webhooks -----------------------------------------------------------------------------

export function webhooksQuery(formId: string) {
	return queryOptions({
		queryKey: formKeys.webhooks(formId),
		queryFn: ({ signal }): Promise<FormWebhook[]> =>
			api(`/dashboard/forms/${encode(formId)}/webhooks`, { schema: z.array(formWebhookSchema), signal }),
	})
}

/** The recent deliveries of a webhook; polled while any waits for an attempt, like the submissions. */
export function deliveriesQuery(formId: string, webhookId: string, limit = 20) {
	return queryOptions({
		queryKey: formKeys.deliveries(formId, webhookId),
		queryFn: ({ signal }): Promise<WebhookDelivery[]> =>
			api(`/dashboard/forms/${encode(formId)}/webhooks/${encode(webhookId)}/deliveries`, {
				query: { limit },
				schema: z.array(webhookDeliverySchema),
				signal,
			}),
		refetchInterval: (query) =>
			query.state.data?.some((delivery) => delivery.state === 'pending' || delivery.state === 'failed') ? 5000 : false,
	})
}

export async function createWebhook(input: { formId: string; url: string }): Promise<FormWebhook> {
	return api(`/dashboard/forms/${encode(input.formId)}/webhooks`, {
		json: { url: input.url },
		schema: formWebhookSchema,
	})
}

export async function updateWebhook(input: {
	formId: string
	webhookId: string
	enabled: boolean
}): Promise<FormWebhook> {
	return api(`/dashboard/forms/${encode(input.formId)}/webhooks/${encode(input.webhookId)}`, {
		method: 'PATCH',
		json: { enabled: input.enabled },
		schema: formWebhookSchema,
	})
}

export async function deleteWebhook(input: { formId: string; webhookId: string }): Promise<void> {
	await api(`/dashboard/forms/${encode(input.formId)}/webhooks/${encode(input.webhookId)}`, { method: 'DELETE' })
}

export async function retryWebhookDelivery(input: {
	formId: string
	webhookId: string
	deliveryId: string
}): Promise<void> {
	await api(
		`/dashboard/forms/${encode(input.formId)}/webhooks/${encode(input.webhookId)}/deliveries/${encode(input.deliveryId)}/retry`,
		{ json: {} },
	)
}
