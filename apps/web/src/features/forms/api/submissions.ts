import {
	type SubmissionDetail,
	type SubmissionsPage,
	submissionDetailSchema,
	submissionsPageSchema,
} from '@blocksmith/contracts/forms.ts'
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import { ApiError, api } from '#src/lib/api-client.ts'
import { readToken } from '#src/lib/token-store.ts'
import { formKeys, type SubmissionState } from './forms.ts'

// One form's answers as the submissions page works with them: searched and filtered (the
// filters live in the page's address), opened one at a time, deleted.

/** What the list is narrowed to; each part is left out of the request when empty. */
export type SubmissionFilters = {
	state?: SubmissionState | undefined
	q?: string | undefined
	field?: string | undefined
	value?: string | undefined
}

const submissionKeys = {
	page: (formId: string, params: SubmissionFilters & { limit: number; offset: number }) =>
		[...formKeys.submissions(formId), 'page', params] as const,
	detail: (formId: string, submissionId: string) => [...formKeys.submissions(formId), 'one', submissionId] as const,
}

const encode = encodeURIComponent

/** The query string of the filters that are set (a field filter only with both its halves). */
function filterQuery(filters: SubmissionFilters): Record<string, string> {
	const query: Record<string, string> = {}
	if (filters.state) {
		query.state = filters.state
	}
	if (filters.q) {
		query.q = filters.q
	}
	if (filters.field && filters.value) {
		query.field = filters.field
		query.value = filters.value
	}
	return query
}

/** Polled while any answer waits for its delivery, so "pending" turns into "delivered" without a reload. */
export function filteredSubmissionsQuery(
	formId: string,
	params: SubmissionFilters & { limit: number; offset: number },
) {
	return queryOptions({
		queryKey: submissionKeys.page(formId, params),
		queryFn: ({ signal }): Promise<SubmissionsPage> =>
			api(`/dashboard/forms/${encode(formId)}/submissions`, {
				query: { ...filterQuery(params), limit: params.limit, offset: params.offset },
				schema: submissionsPageSchema,
				signal,
			}),
		placeholderData: keepPreviousData,
		refetchInterval: (query) => ((query.state.data?.counts.pending ?? 0) > 0 ? 3000 : false),
	})
}

/** One answer in full; polled while its delivery or a webhook delivery is still under way. */
export function submissionDetailQuery(formId: string, submissionId: string) {
	return queryOptions({
		queryKey: submissionKeys.detail(formId, submissionId),
		queryFn: ({ signal }): Promise<SubmissionDetail> =>
			api(`/dashboard/forms/${encode(formId)}/submissions/${encode(submissionId)}`, {
				schema: submissionDetailSchema,
				signal,
			}),
		refetchInterval: (query) => (isUnderWay(query.state.data) ? 3000 : false),
	})
}

function isUnderWay(detail: SubmissionDetail | undefined): boolean {
	if (!detail) {
		return false
	}
	const open = (state: string) => state === 'pending' || state === 'failed'
	return open(detail.delivery.state) || detail.webhooks.some((delivery) => open(delivery.state))
}

export async function deleteSubmission(input: {
	formId: string
	submissionId: string
	deleteRow: boolean
}): Promise<void> {
	await api(`/dashboard/forms/${encode(input.formId)}/submissions/${encode(input.submissionId)}`, {
		method: 'DELETE',
		query: { deleteRow: input.deleteRow ? 'true' : 'false' },
	})
}

/**
 * The CSV of the answers the filters leave, fetched with the bearer header (a token never goes
 * into a URL) and saved through a blob link.
 */
export async function downloadFilteredCsv(input: {
	formId: string
	name: string
	filters: SubmissionFilters
}): Promise<void> {
	const headers = new Headers({ accept: 'text/csv' })
	const token = readToken()
	if (token) {
		headers.set('authorization', `Bearer ${token}`)
	}
	const search = new URLSearchParams(filterQuery(input.filters)).toString()
	const response = await fetch(
		`/dashboard/forms/${encode(input.formId)}/submissions/export.csv${search ? `?${search}` : ''}`,
		{ headers },
	)
	if (!response.ok) {
		throw new ApiError({ status: response.status, code: 'EXPORT_FAILED', detail: 'The export failed. Try again.' })
	}
	const url = URL.createObjectURL(await response.blob())
	const link = document.createElement('a')
	link.href = url
	link.download = `${input.name.replace(/[\\/:*?"<>|]+/g, '-') || 'submissions'} submissions.csv`
	document.body.append(link)
	link.click()
	link.remove()
	setTimeout(() => URL.revokeObjectURL(url), 1000)
}
