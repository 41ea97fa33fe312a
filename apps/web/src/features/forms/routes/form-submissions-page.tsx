import type { Form, Submission } from '@blocksmith/contracts/forms.ts'
import type { FileValue } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQueries, useQuery, useQueryClient } from '@tanstack/react-query'
import { ChevronLeft, ChevronRight, Download, ExternalLink, Inbox, Paperclip, RotateCcw } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Link, useParams } from 'react-router'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { blobUrl, databaseQuery, rowsQuery, usersQuery } from '#src/workspaces/api/workspaces.ts'
import { formatDateTime, isFileList, relativeTime } from '#src/workspaces/lib/values.ts'
import {
	downloadSubmissionsCsv,
	formKeys,
	retryFailedSubmissions,
	retrySubmission,
	type SubmissionState,
	submissionsQuery,
} from '../api/forms.ts'
import { FormGate, FormHeader } from '../components/form-frame.tsx'
import { type AnswerLookups, formatAnswer } from '../lib/answers.ts'

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

function Submissions({ form }: { form: Form }) {
	const queryClient = useQueryClient()
	const [state, setState] = useState<SubmissionState | undefined>(undefined)
	const [offset, setOffset] = useState(0)
	const page = useQuery(submissionsQuery(form.id, { state, limit: pageSize, offset }))
	const lookups = useAnswerLookups(form)

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
		mutationFn: downloadSubmissionsCsv,
		onError: (error) => toast.error(errorMessage(error)),
	})

	const counts = page.data?.counts ?? {}
	const allCount = Object.values(counts).reduce((sum, count) => sum + count, 0)
	const failedCount = (counts.failed ?? 0) + (counts.dead ?? 0)
	const total = page.data?.total ?? 0
	const lastOffset = total > 0 ? Math.floor((total - 1) / pageSize) * pageSize : 0

	function filter(next: SubmissionState | undefined): void {
		setState(next)
		setOffset(0)
	}

	return (
		<div className="grid gap-4">
			{/* Filters of zeros and an export of nothing only crowd the empty state. */}
			{allCount > 0 ? (
				<div className="flex flex-wrap items-center justify-between gap-3">
					<fieldset className="flex flex-wrap gap-1.5">
						<legend className="sr-only">Show submissions by delivery state</legend>
						<FilterButton
							isPressed={state === undefined}
							onClick={() => filter(undefined)}
							label="All"
							count={allCount}
						/>
						{states.map((candidate) => (
							<FilterButton
								key={candidate.value}
								isPressed={state === candidate.value}
								onClick={() => filter(candidate.value)}
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
							onClick={() => exportCsv.mutate({ formId: form.id, name: form.name })}
						>
							{exportCsv.isPending ? null : <Download aria-hidden />} Export CSV
						</Button>
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
				<EmptyState
					icon={Inbox}
					title={
						state
							? `No ${states.find((s) => s.value === state)?.label.toLowerCase()} submissions`
							: 'No submissions yet'
					}
					description={
						state
							? 'Choose another state to see more.'
							: form.published
								? 'Share the form’s link. Each answer shows here as it arrives, with its delivery into the database.'
								: 'Publish the form and share its link. Each answer shows here as it arrives.'
					}
				/>
			) : (
				<div className={cn(page.isPlaceholderData && 'opacity-60 transition-opacity')}>
					<Table aria-label={`Submissions to ${form.name}`}>
						<TableHeader>
							<TableRow>
								<TableHead>Submitted</TableHead>
								<TableHead>Delivery</TableHead>
								{form.fields.map((field) => (
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
							onClick={() => setOffset(Math.max(0, offset - pageSize))}
						>
							<ChevronLeft aria-hidden /> Newer
						</Button>
						<Button
							variant="outline"
							size="sm"
							disabled={offset >= lastOffset}
							onClick={() => setOffset(Math.min(lastOffset, offset + pageSize))}
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
	lookups,
	isRetrying,
	onRetry,
}: {
	form: Form
	submission: Submission
	lookups: AnswerLookups
	isRetrying: boolean
	onRetry: () => void
}) {
	const { delivery } = submission
	const badge = states.find((candidate) => candidate.value === delivery.state) ?? states[0]
	const canRetry = delivery.state === 'failed' || delivery.state === 'dead'
	return (
		<TableRow>
			<TableCell className="text-muted-foreground">
				<time dateTime={submission.createdAt} title={relativeTime(submission.createdAt)}>
					{formatDateTime(submission.createdAt)}
				</time>
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
				const value = submission.answers[field.id]
				const text = formatAnswer(field, value, lookups)
				return (
					<TableCell key={field.id} className="max-w-64 truncate" title={text.length > 40 ? text : undefined}>
						{field.kind === 'files' && isFileList(value) && value.length > 0 ? (
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
				{canRetry ? (
					<Button variant="outline" size="sm" isLoading={isRetrying} onClick={onRetry}>
						Retry
					</Button>
				) : null}
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

/** A Notion row opens in Notion; a row of a built-in database, in its table here. */
function RowLink({ url }: { url: string }) {
	const classes = 'inline-flex items-center gap-1 text-link text-xs hover:underline'
	return /^https?:\/\//i.test(url) ? (
		<a href={url} target="_blank" rel="noreferrer" className={classes}>
			Open row <ExternalLink aria-hidden className="size-3" />
		</a>
	) : (
		<Link to={url} className={classes}>
			Open row
		</Link>
	)
}

/** Names for people and titles for linked rows, loaded only when the form has such fields. */
function useAnswerLookups(form: Form): AnswerLookups {
	const hasPeople = form.fields.some((field) => field.kind === 'people')
	const hasRelations = form.fields.some((field) => field.kind === 'relation')
	const users = useQuery({
		...usersQuery(form.tool, form.workspaceId),
		enabled: hasPeople && Boolean(form.workspaceId),
	})
	const database = useQuery({
		...databaseQuery(form.tool, form.databaseId),
		enabled: hasRelations && Boolean(form.databaseId),
	})
	const relationFieldProperties = new Set(
		form.fields.filter((field) => field.kind === 'relation').map((field) => field.propertyId),
	)
	const related = [
		...new Set(
			(database.data?.properties ?? []).flatMap((property) =>
				relationFieldProperties.has(property.id) && property.relationDatabaseId ? [property.relationDatabaseId] : [],
			),
		),
	]
	const rows = useQueries({
		queries: related.map((id) => ({ ...rowsQuery(form.tool, id, { offset: 0, limit: 200 }), staleTime: 60_000 })),
	})
	const signature = rows.map((result) => result.dataUpdatedAt).join(',')
	// biome-ignore lint/correctness/useExhaustiveDependencies: rebuilt when any result changes (the signature)
	const titles = useMemo(
		() =>
			new Map(rows.flatMap((result) => (result.data?.rows ?? []).map((row) => [row.externalId, row.title] as const))),
		[signature],
	)
	const people = useMemo(() => new Map((users.data ?? []).map((user) => [user.id, user.name])), [users.data])
	return useMemo(
		() => ({ personName: (id: string) => people.get(id), rowTitle: (id: string) => titles.get(id) || undefined }),
		[people, titles],
	)
}
