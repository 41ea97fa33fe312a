import { isContentKind } from '@blocksmith/contracts/form-kinds.ts'
import type { Form, Submission } from '@blocksmith/contracts/forms.ts'
import type { FileValue } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ChevronLeft, ChevronRight, Download, ExternalLink, Inbox, Paperclip, RotateCcw, SearchX } from 'lucide-react'
import { useCallback } from 'react'
import { Link, useLocation, useParams, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { blobUrl } from '#src/workspaces/api/workspaces.ts'
import { formatDateTime, isFileList, relativeTime } from '#src/workspaces/lib/values.ts'
import { formKeys, retryFailedSubmissions, retrySubmission, type SubmissionState } from '../api/forms.ts'
import { downloadFilteredCsv, filteredSubmissionsQuery, type SubmissionFilters } from '../api/submissions.ts'
import { FormGate, FormHeader } from '../components/form-frame.tsx'
import { FieldFilter, SubmissionSearch } from '../components/submission-filters.tsx'
import { useAnswerLookups } from '../hooks/use-answer-lookups.ts'
import { type AnswerLookups, formatAnswer } from '../lib/answers.ts'
import { formPaths } from '../lib/form-paths.ts'

const pageSize = 25
const numberFormat = new Intl.NumberFormat()

const states: {
	value: SubmissionState
	label: string
	variant: 'neutral' | 'success' | 'warning' | 'error' | 'outline'
}[] = [
	{ value: 'pending', label: 'Pending', variant: 'neutral' },
	{ value: 'delivered', label: 'Delivered', variant: 'success' },
	{ value: 'failed', label: 'Failed', variant: 'warning' },
	{ value: 'dead', label: 'Dead', variant: 'error' },
	{ value: 'spam', label: 'Spam', variant: 'outline' },
]

/** /forms/:id/submissions: every answer with its delivery into the database. */
export function FormSubmissionsPage() {
	const { id = '' } = useParams()
	return (
		<FormGate id={id}>
			{(form) => (
				<div className="grid grid-cols-1 gap-5">
					<FormHeader form={form} />
					<Submissions form={form} />
				</div>
			)}
		</FormGate>
	)
}

/**
 * The list's state, search, field filter and page, kept in the address: an answer opened from
 * the list and the way back keep them, and a filtered list can be linked.
 */
function useListParams() {
	const [params, setParams] = useSearchParams()
	const state = states.find((candidate) => candidate.value === params.get('state'))?.value
	const filters: SubmissionFilters = {
		state,
		q: params.get('q') ?? undefined,
		field: params.get('field') ?? undefined,
		value: params.get('value') ?? undefined,
	}
	const offset = Math.max(0, Number.parseInt(params.get('offset') ?? '0', 10) || 0)
	/** Changes the filters (back to the first page), or only the page when `changes` is an offset. */
	const update = useCallback(
		(changes: Partial<SubmissionFilters> | { offset: number }) => {
			setParams(
				(current) => {
					const next = new URLSearchParams(current)
					if ('offset' in changes) {
						next.set('offset', String(changes.offset))
					} else {
						next.delete('offset')
						for (const [key, value] of Object.entries(changes)) {
							if (value) {
								next.set(key, value)
							} else {
								next.delete(key)
							}
						}
					}
					if (next.get('offset') === '0') {
						next.delete('offset')
					}
					return next
				},
				// Typing in the search box must not fill the history with one entry per pause.
				{ replace: !('offset' in changes) && 'q' in changes },
			)
		},
		[setParams],
	)
	return { filters, offset, update }
}

function Submissions({ form }: { form: Form }) {
	const queryClient = useQueryClient()
	const { search } = useLocation()
	const { filters, offset, update } = useListParams()
	const page = useQuery(filteredSubmissionsQuery(form.id, { ...filters, limit: pageSize, offset }))
	const lookups = useAnswerLookups(form)
	const questions = form.fields.filter((field) => !isContentKind(field.kind))

	const invalidate = () => queryClient.invalidateQueries({ queryKey: formKeys.submissions(form.id) })
	const retry = useMutation({
		mutationFn: retrySubmission,
		onSuccess: async () => {
			await invalidate()
			toast.success('The delivery is queued again.')
		},
	})
	const retryAll = useMutation({
		mutationFn: retryFailedSubmissions,
		onSuccess: async (count) => {
			await invalidate()
			toast.success(
				count === 0
					? 'Nothing was waiting for a retry.'
					: `${count} ${count === 1 ? 'delivery is' : 'deliveries are'} queued again.`,
			)
		},
	})
	const exportCsv = useMutation({
		mutationFn: downloadFilteredCsv,
		onError: (error) => toast.error(errorMessage(error)),
	})

	const counts = page.data?.counts ?? {}
	const allCount = Object.values(counts).reduce((sum, count) => sum + count, 0)
	const failedCount = (counts.failed ?? 0) + (counts.dead ?? 0)
	const total = page.data?.total ?? 0
	const lastOffset = total > 0 ? Math.floor((total - 1) / pageSize) * pageSize : 0
	const isSearched = Boolean(filters.q || (filters.field && filters.value))
	const filterError =
		page.error instanceof ApiError
			? page.error.fieldErrors.find((error) => error.field === 'value')?.message
			: undefined
	const fieldLabel = questions.find((field) => field.id === filters.field)?.label
	const detailPath = (submission: Submission) =>
		`${formPaths.submissions(form.id)}/${encodeURIComponent(submission.id)}${search}`

	return (
		<div className="grid gap-4">
			{/* Filters of zeros and an export of nothing only crowd the empty state. */}
			{allCount > 0 || isSearched || form.submissionsCount > 0 ? (
				<div className="grid gap-3">
					<div className="flex flex-wrap items-end justify-between gap-3">
						<SubmissionSearch q={filters.q ?? ''} onSearch={(q) => update({ q })} />
						<FieldFilter
							form={form}
							filters={filters}
							error={filterError}
							onApply={(next) => update({ field: next.field, value: next.value })}
						/>
					</div>
					<div className="flex flex-wrap items-center justify-between gap-3">
						<fieldset className="flex flex-wrap gap-1.5">
							<legend className="sr-only">Show submissions by delivery state</legend>
							<FilterButton
								isPressed={filters.state === undefined}
								onClick={() => update({ state: undefined })}
								label="All"
								count={allCount}
							/>
							{states.map((candidate) => (
								<FilterButton
									key={candidate.value}
									isPressed={filters.state === candidate.value}
									onClick={() => update({ state: candidate.value })}
									label={candidate.label}
									count={counts[candidate.value] ?? 0}
								/>
							))}
						</fieldset>
						<div className="flex flex-wrap gap-2">
							{failedCount > 0 ? (
								<Button
									variant="outline"
									size="sm"
									isLoading={retryAll.isPending}
									onClick={() => retryAll.mutate(form.id)}
								>
									{retryAll.isPending ? null : <RotateCcw aria-hidden />} Retry all failed
								</Button>
							) : null}
							<Button
								variant="outline"
								size="sm"
								isLoading={exportCsv.isPending}
								onClick={() => exportCsv.mutate({ formId: form.id, name: form.name, filters })}
							>
								{exportCsv.isPending ? null : <Download aria-hidden />}{' '}
								{isSearched || filters.state ? 'Export these as CSV' : 'Export CSV'}
							</Button>
						</div>
					</div>
				</div>
			) : null}

			{(counts.pending ?? 0) > 0 ? (
				<p className="flex items-center gap-2 text-muted-foreground text-sm" role="status">
					<Spinner size="sm" /> {numberFormat.format(counts.pending ?? 0)} waiting for delivery; this list updates by
					itself.
				</p>
			) : null}

			{page.isPending ? (
				<SkeletonGroup label="Loading submissions…">
					<Skeleton className="h-64 w-full" />
				</SkeletonGroup>
			) : page.isError ? (
				<Alert variant="error" title="The submissions could not be loaded">
					{errorMessage(page.error)}
				</Alert>
			) : page.data.submissions.length === 0 ? (
				isSearched ? (
					<EmptyState
						icon={SearchX}
						title={
							filters.q && !filters.field
								? `No answers match “${filters.q}”`
								: `No answers match ${[filters.q ? `“${filters.q}”` : null, fieldLabel && filters.value ? `${fieldLabel}: “${filters.value}”` : null].filter(Boolean).join(' and ')}`
						}
						description={
							filters.state
								? `Among the ${states.find((s) => s.value === filters.state)?.label.toLowerCase()} submissions. Try other words, another state, or clear the search.`
								: 'Try other words, or clear the search and the filter.'
						}
						action={
							<Button variant="outline" onClick={() => update({ q: undefined, field: undefined, value: undefined })}>
								Clear search and filter
							</Button>
						}
					/>
				) : (
					<EmptyState
						icon={Inbox}
						title={
							filters.state
								? `No ${states.find((s) => s.value === filters.state)?.label.toLowerCase()} submissions`
								: 'No submissions yet'
						}
						description={
							filters.state
								? 'Choose another state to see more.'
								: form.published
									? 'Share the form’s link. Each answer shows here as it arrives, with its delivery into the database.'
									: 'Publish the form and share its link. Each answer shows here as it arrives.'
						}
					/>
				)
			) : (
				<div className={cn(page.isPlaceholderData && 'opacity-60 transition-opacity')}>
					<Table aria-label={`Submissions to ${form.name}`}>
						<TableHeader>
							<TableRow>
								<TableHead>Submitted</TableHead>
								<TableHead>Delivery</TableHead>
								{questions.map((field) => (
									<TableHead key={field.id}>{field.label}</TableHead>
								))}
								<TableHead>
									<span className="sr-only">Actions</span>
								</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{page.data.submissions.map((submission) => (
								<SubmissionRow
									key={submission.id}
									form={form}
									submission={submission}
									detailPath={detailPath(submission)}
									lookups={lookups}
									isRetrying={retry.isPending && retry.variables?.submissionId === submission.id}
									onRetry={() => retry.mutate({ formId: form.id, submissionId: submission.id })}
								/>
							))}
						</TableBody>
					</Table>
				</div>
			)}

			{page.data && total > pageSize ? (
				<nav aria-label="Pages" className="flex flex-wrap items-center justify-between gap-3 text-sm">
					<p className="text-muted-foreground tabular-nums" aria-live="polite">
						{numberFormat.format(offset + 1)}–{numberFormat.format(offset + page.data.submissions.length)} of{' '}
						{numberFormat.format(total)}
					</p>
					<div className="flex items-center gap-1">
						<Button
							variant="outline"
							size="sm"
							disabled={offset === 0}
							onClick={() => update({ offset: Math.max(0, offset - pageSize) })}
						>
							<ChevronLeft aria-hidden /> Newer
						</Button>
						<Button
							variant="outline"
							size="sm"
							disabled={offset >= lastOffset}
							onClick={() => update({ offset: Math.min(lastOffset, offset + pageSize) })}
						>
							Older <ChevronRight aria-hidden />
						</Button>
					</div>
				</nav>
			) : null}
		</div>
	)
}

function FilterButton({
	label,
	count,
	isPressed,
	onClick,
}: {
	label: string
	count: number
	isPressed: boolean
	onClick: () => void
}) {
	return (
		<Button variant={isPressed ? 'secondary' : 'ghost'} size="sm" aria-pressed={isPressed} onClick={onClick}>
			{label}
			<span className="rounded-full bg-background/70 px-1.5 text-muted-foreground text-xs tabular-nums">
				{numberFormat.format(count)}
			</span>
		</Button>
	)
}

function SubmissionRow({
	form,
	submission,
	detailPath,
	lookups,
	isRetrying,
	onRetry,
}: {
	form: Form
	submission: Submission
	/** The answer's own page, with the list's filters to come back to. */
	detailPath: string
	lookups: AnswerLookups
	isRetrying: boolean
	onRetry: () => void
}) {
	const { delivery } = submission
	const badge = states.find((candidate) => candidate.value === delivery.state) ?? states[0]
	const canRetry = delivery.state === 'failed' || delivery.state === 'dead'
	return (
		<TableRow>
			<TableCell>
				<Link to={detailPath} className="text-link hover:underline">
					<time dateTime={submission.createdAt} title={relativeTime(submission.createdAt)}>
						{formatDateTime(submission.createdAt)}
					</time>
				</Link>
			</TableCell>
			<TableCell className="whitespace-normal">
				<div className="grid min-w-36 gap-1">
					<span className="flex flex-wrap items-center gap-2">
						<Badge variant={badge?.variant}>
							{delivery.state === 'pending' ? <Spinner size="sm" /> : null}
							{badge?.label}
						</Badge>
						{delivery.state === 'delivered' && delivery.rowUrl ? <RowLink url={delivery.rowUrl} /> : null}
					</span>
					{delivery.state === 'failed' || delivery.state === 'dead' ? (
						<span className="grid gap-0.5 text-xs">
							{delivery.error ? (
								<span className="line-clamp-3 max-w-72 text-error" title={delivery.error}>
									{delivery.error}
								</span>
							) : null}
							<span className="text-muted-foreground">
								{delivery.attempts} {delivery.attempts === 1 ? 'attempt' : 'attempts'}
								{delivery.state === 'dead' ? ', retries used up' : ', retrying by itself'}
							</span>
						</span>
					) : delivery.state === 'spam' ? (
						<span className="text-muted-foreground text-xs">Caught by the spam trap; not delivered.</span>
					) : null}
				</div>
			</TableCell>
			{form.fields.map((field) => {
				if (isContentKind(field.kind)) {
					return null
				}
				const value = submission.answers[field.id]
				const text = formatAnswer(field, value, lookups)
				return (
					<TableCell key={field.id} className="max-w-64 truncate" title={text.length > 40 ? text : undefined}>
						{(field.kind === 'files' || field.kind === 'signature') && isFileList(value) && value.length > 0 ? (
							<AnswerFiles files={value} />
						) : text ? (
							text
						) : (
							<span className="text-muted-foreground/60">—</span>
						)}
					</TableCell>
				)
			})}
			<TableCell className="text-right">
				<span className="inline-flex gap-1.5">
					{canRetry ? (
						<Button variant="outline" size="sm" isLoading={isRetrying} onClick={onRetry}>
							Retry
						</Button>
					) : null}
					<Button asChild variant="ghost" size="sm">
						<Link to={detailPath}>
							Open <span className="sr-only">the answer of {formatDateTime(submission.createdAt)}</span>
						</Link>
					</Button>
				</span>
			</TableCell>
		</TableRow>
	)
}

/** An answer's files, each opening through a short-lived signed link. */
function AnswerFiles({ files }: { files: FileValue[] }) {
	async function open(file: FileValue): Promise<void> {
		try {
			const url = file.url ?? (file.blobId ? await blobUrl(file.blobId) : null)
			if (url) {
				window.open(url, '_blank', 'noopener')
			}
		} catch (error) {
			toast.error(errorMessage(error))
		}
	}
	return (
		<span className="flex flex-col items-start gap-0.5">
			{files.map((file) => (
				<button
					key={`${file.blobId ?? file.url}-${file.name}`}
					type="button"
					className="inline-flex max-w-full items-center gap-1 text-link hover:underline"
					onClick={() => void open(file)}
				>
					<Paperclip aria-hidden className="size-3.5 shrink-0" />
					<span className="truncate">{file.name}</span>
				</button>
			))}
		</span>
	)
}

/** A Notion row opens in Notion; a row of a built-in database, in its table here (rows have no address of their own yet). */
function RowLink({ url }: { url: string }) {
	const classes = 'inline-flex items-center gap-1 text-link text-xs hover:underline'
	return /^https?:\/\//i.test(url) ? (
		<a href={url} target="_blank" rel="noreferrer" className={classes}>
			Open row <ExternalLink aria-hidden className="size-3" />
		</a>
	) : (
		<Link to={url} className={classes} title="Opens the table the row is in">
			Open row
		</Link>
	)
}
