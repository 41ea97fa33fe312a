import { formatBytes } from '@blocksmith/contracts/form-files.ts'
import { isContentKind } from '@blocksmith/contracts/form-kinds.ts'
import type { Form, FormField, SubmissionDetail } from '@blocksmith/contracts/forms.ts'
import { hashKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Download, ExternalLink, Paperclip, RotateCcw, Trash2 } from 'lucide-react'
import { type ReactNode, useId, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card } from '#src/components/ui/card.tsx'
import { Checkbox } from '#src/components/ui/checkbox.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import { errorMessage } from '#src/lib/api-client.ts'
import { formatDateTime, relativeTime } from '#src/workspaces/lib/values.ts'
import { formKeys, retrySubmission } from '../api/forms.ts'
import { deleteSubmission, submissionDetailQuery } from '../api/submissions.ts'
import { useAnswerLookups } from '../hooks/use-answer-lookups.ts'
import { type AnswerLookups, formatAnswer } from '../lib/answers.ts'

// One answer in full: every question with its answer (content left out), its files, its
// delivery into the database with every attempt, its webhook deliveries, "Open row" and Delete.

type DetailFile = SubmissionDetail['files'][number]
type State = SubmissionDetail['delivery']['state']

const deliveryStates: Record<
	State,
	{ label: string; variant: 'neutral' | 'success' | 'warning' | 'error' | 'outline' }
> = {
	pending: { label: 'Pending', variant: 'neutral' },
	delivered: { label: 'Delivered', variant: 'success' },
	failed: { label: 'Failed', variant: 'warning' },
	dead: { label: 'Dead', variant: 'error' },
	spam: { label: 'Spam', variant: 'outline' },
}

function StateBadge({ state }: { state: State }) {
	const { label, variant } = deliveryStates[state]
	return (
		<Badge variant={variant}>
			{state === 'pending' ? <Spinner size="sm" /> : null}
			{label}
		</Badge>
	)
}

/** The answer of `submissionId` to `form`; `backTo` is the list it was opened from (with its filters). */
export function SubmissionDetailView({
	form,
	submissionId,
	backTo,
}: {
	form: Form
	submissionId: string
	backTo: string
}) {
	const detail = useQuery(submissionDetailQuery(form.id, submissionId))
	const lookups = useAnswerLookups(form)
	if (detail.isPending) {
		return (
			<SkeletonGroup label="Loading the answer…">
				<Skeleton className="h-48 w-full" />
				<Skeleton className="h-24 w-full" />
			</SkeletonGroup>
		)
	}
	if (detail.isError) {
		return (
			<Alert variant="error" title="This answer could not be loaded">
				{errorMessage(detail.error)}{' '}
				<Link to={backTo} className="text-link underline">
					Back to the submissions
				</Link>
			</Alert>
		)
	}
	const submission = detail.data
	return (
		<div className="grid gap-5">
			<SubmissionSummary form={form} submission={submission} backTo={backTo} />
			<Section title="Answers">
				<Answers form={form} submission={submission} lookups={lookups} />
			</Section>
			<Section title="Delivery to the database">
				<Delivery form={form} submission={submission} />
			</Section>
			<Section title="Webhook deliveries">
				<Webhooks submission={submission} />
			</Section>
		</div>
	)
}

function Section({ title, children }: { title: string; children: ReactNode }) {
	const id = useId()
	return (
		<section aria-labelledby={id} className="grid gap-3">
			<h2 id={id} className="font-semibold text-base">
				{title}
			</h2>
			{children}
		</section>
	)
}

function SubmissionSummary({ form, submission, backTo }: { form: Form; submission: SubmissionDetail; backTo: string }) {
	return (
		<div className="flex flex-wrap items-center justify-between gap-3">
			<p className="flex flex-wrap items-center gap-2 text-sm">
				<span className="text-muted-foreground">Submitted</span>
				<time dateTime={submission.createdAt} title={relativeTime(submission.createdAt)}>
					{formatDateTime(submission.createdAt)}
				</time>
				<StateBadge state={submission.delivery.state} />
			</p>
			<div className="flex flex-wrap items-center gap-2">
				{submission.delivery.rowUrl ? <OpenRow url={submission.delivery.rowUrl} /> : null}
				<DeleteSubmission form={form} submission={submission} backTo={backTo} />
			</div>
		</div>
	)
}

/**
 * A Notion row opens its page in Notion. A built-in row opens its database's table here: the
 * table has no address for one row yet, so the link says it is the database.
 */
function OpenRow({ url }: { url: string }) {
	if (/^https?:\/\//i.test(url)) {
		return (
			<Button asChild variant="outline" size="sm">
				<a href={url} target="_blank" rel="noreferrer">
					Open row <ExternalLink aria-hidden />
				</a>
			</Button>
		)
	}
	return (
		<Button asChild variant="outline" size="sm">
			<Link to={url} title="Built-in rows have no page of their own yet: this opens the table the row is in.">
				Open row in its table
			</Link>
		</Button>
	)
}

function Answers({ form, submission, lookups }: { form: Form; submission: SubmissionDetail; lookups: AnswerLookups }) {
	const questions = form.fields.filter((field) => !isContentKind(field.kind))
	if (questions.length === 0) {
		return <p className="text-muted-foreground text-sm">This form has no questions now.</p>
	}
	return (
		<Card className="gap-0 py-0">
			<dl className="divide-y">
				{questions.map((field) => (
					<div key={field.id} className="grid gap-1 px-4 py-3 sm:grid-cols-[minmax(0,14rem)_1fr] sm:gap-4">
						<dt className="font-medium text-muted-foreground text-sm">{field.label}</dt>
						<dd className="min-w-0 text-sm">
							<AnswerValue
								field={field}
								value={submission.answers[field.id]}
								files={submission.files.filter((file) => file.fieldId === field.id)}
								lookups={lookups}
							/>
						</dd>
					</div>
				))}
			</dl>
		</Card>
	)
}

function AnswerValue({
	field,
	value,
	files,
	lookups,
}: {
	field: FormField
	value: unknown
	files: DetailFile[]
	lookups: AnswerLookups
}) {
	const isEmpty = value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)
	if (isEmpty && field.kind !== 'checkbox') {
		return <span className="text-muted-foreground">No answer</span>
	}
	switch (field.kind) {
		case 'files':
			return <FileList files={files} />
		case 'signature': {
			const [signature] = files
			return signature ? (
				<figure className="grid w-fit gap-2">
					{/* White behind the ink, so a dark theme does not hide a dark signature. */}
					<img
						src={signature.url}
						alt={`Signature for ${field.label}`}
						className="max-h-40 max-w-full rounded-md border bg-white p-2"
					/>
					<FileList files={files} />
				</figure>
			) : (
				<span className="text-muted-foreground">The signature file is no longer stored.</span>
			)
		}
		case 'ranking':
			return Array.isArray(value) ? (
				<ol className="list-decimal pl-5">
					{value.map((choice) => (
						<li key={String(choice)}>{String(choice)}</li>
					))}
				</ol>
			) : null
		case 'matrix':
			return value && typeof value === 'object' && !Array.isArray(value) ? (
				<ul className="grid gap-0.5">
					{(field.matrix?.rows ?? Object.keys(value)).map((row) => {
						const chosen = (value as Record<string, unknown>)[row]
						return (
							<li key={row}>
								<span className="text-muted-foreground">{row}:</span>{' '}
								{Array.isArray(chosen) ? chosen.join(', ') : chosen === undefined ? '—' : String(chosen)}
							</li>
						)
					})}
				</ul>
			) : null
		case 'rating':
		case 'scale':
		case 'nps': {
			const max = field.kind === 'nps' ? 10 : (field.scale?.max ?? 5)
			return (
				<span className="tabular-nums">
					{String(value)} <span className="text-muted-foreground">out of {max}</span>
				</span>
			)
		}
		case 'calculated':
			return (
				<span className="tabular-nums">
					{field.calculation?.prefix ?? ''}
					{typeof value === 'number'
						? // As many decimals as the calculation keeps: €149.70, not €149.7.
							new Intl.NumberFormat(undefined, {
								minimumFractionDigits: field.calculation?.decimals ?? 0,
								maximumFractionDigits: 6,
							}).format(value)
						: String(value)}
					{field.calculation?.suffix ?? ''}
				</span>
			)
		case 'long_text':
			return <p className="whitespace-pre-wrap break-words">{String(value)}</p>
		default:
			return <span className="break-words">{formatAnswer(field, value, lookups)}</span>
	}
}

function FileList({ files }: { files: DetailFile[] }) {
	if (files.length === 0) {
		return <span className="text-muted-foreground">The files are no longer stored.</span>
	}
	return (
		<ul className="grid gap-1.5">
			{files.map((file) => (
				<li key={file.url} className="flex flex-wrap items-center gap-x-3 gap-y-1">
					<span className="inline-flex min-w-0 items-center gap-1.5">
						<Paperclip aria-hidden className="size-3.5 shrink-0 text-muted-foreground" />
						<span className="truncate">{file.name}</span>
						<span className="text-muted-foreground text-xs">{formatBytes(file.byteSize)}</span>
					</span>
					<span className="inline-flex gap-3 text-sm">
						<a href={file.url} target="_blank" rel="noreferrer" className="text-link hover:underline">
							Open <span className="sr-only">{file.name}</span>
						</a>
						<a
							href={file.url}
							download={file.name}
							className="inline-flex items-center gap-1 text-link hover:underline"
						>
							<Download aria-hidden className="size-3.5" />
							Download <span className="sr-only">{file.name}</span>
						</a>
					</span>
				</li>
			))}
		</ul>
	)
}

function Delivery({ form, submission }: { form: Form; submission: SubmissionDetail }) {
	const queryClient = useQueryClient()
	const { delivery } = submission
	const retry = useMutation({
		mutationFn: retrySubmission,
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: formKeys.submissions(form.id) })
			toast.success('The delivery is queued again.')
		},
		onError: (error) => toast.error(errorMessage(error)),
	})
	if (delivery.state === 'spam') {
		return <p className="text-muted-foreground text-sm">Caught by the spam trap: kept here, never delivered.</p>
	}
	return (
		<div className="grid gap-3">
			<p className="flex flex-wrap items-center gap-2 text-sm">
				<StateBadge state={delivery.state} />
				{delivery.state === 'delivered' && delivery.deliveredAt ? (
					<span className="text-muted-foreground">
						into {form.databaseName},{' '}
						<time dateTime={delivery.deliveredAt}>{formatDateTime(delivery.deliveredAt)}</time>
					</span>
				) : delivery.state === 'pending' ? (
					<span className="text-muted-foreground">Waiting for its first attempt; this page updates by itself.</span>
				) : delivery.state === 'failed' ? (
					<span className="text-muted-foreground">Retrying by itself.</span>
				) : delivery.state === 'dead' ? (
					<span className="text-muted-foreground">Retries used up.</span>
				) : null}
				{delivery.state === 'failed' || delivery.state === 'dead' ? (
					<Button
						variant="outline"
						size="sm"
						isLoading={retry.isPending}
						onClick={() => retry.mutate({ formId: form.id, submissionId: submission.id })}
					>
						{retry.isPending ? null : <RotateCcw aria-hidden />} Retry now
					</Button>
				) : null}
			</p>
			{submission.attempts.length === 0 ? (
				<p className="text-muted-foreground text-sm">No attempt yet.</p>
			) : (
				<AttemptList
					label="Attempts at writing the row"
					attempts={submission.attempts.map((attempt) => ({ ...attempt, status: null }))}
				/>
			)}
		</div>
	)
}

type Attempt = { at: string; ms: number | null; error: string | null; status: number | null }

function AttemptList({ label, attempts }: { label: string; attempts: Attempt[] }) {
	return (
		<ol aria-label={label} className="grid gap-1.5 border-l pl-4 text-sm">
			{attempts.map((attempt, index) => (
				// biome-ignore lint/suspicious/noArrayIndexKey: the log only grows at its end (and drops its oldest): a position names one attempt
				<li key={`${attempt.at}-${index}`} className="grid gap-0.5">
					<span className="flex flex-wrap items-center gap-2">
						<span className="sr-only">Attempt {index + 1}:</span>
						<time dateTime={attempt.at}>{formatDateTime(attempt.at)}</time>
						{attempt.error ? (
							<Badge variant="warning">{attempt.status ? `Failed (${attempt.status})` : 'Failed'}</Badge>
						) : (
							<Badge variant="success">{attempt.status ? `OK (${attempt.status})` : 'OK'}</Badge>
						)}
						{attempt.ms === null ? null : (
							<span className="text-muted-foreground text-xs tabular-nums">{attempt.ms.toLocaleString()} ms</span>
						)}
					</span>
					{attempt.error ? <span className="break-words text-error text-xs">{attempt.error}</span> : null}
				</li>
			))}
		</ol>
	)
}

function Webhooks({ submission }: { submission: SubmissionDetail }) {
	const canSee = useIsOwnerOrAdmin()
	if (canSee === undefined) {
		// The role is still loading: saying "no webhook" now could be untrue for an owner.
		return null
	}
	if (!canSee) {
		return (
			<p className="text-muted-foreground text-sm">
				Webhook deliveries show to owners and admins only: a webhook’s address is often a secret.
			</p>
		)
	}
	if (submission.webhooks.length === 0) {
		return <p className="text-muted-foreground text-sm">This answer was sent to no webhook.</p>
	}
	return (
		<ul className="grid gap-3">
			{submission.webhooks.map((delivery) => (
				<li key={delivery.id} className="grid gap-2 rounded-lg border p-3">
					<p className="flex flex-wrap items-center gap-2 text-sm">
						<StateBadge state={delivery.state} />
						<span className="break-all font-mono text-xs">{delivery.url}</span>
					</p>
					{delivery.attempts.length === 0 ? (
						<p className="text-muted-foreground text-sm">Not sent yet.</p>
					) : (
						<AttemptList label={`Attempts at ${delivery.url}`} attempts={delivery.attempts} />
					)}
				</li>
			))}
		</ul>
	)
}

/** Whether the answer made a row, or may still make one, that "also delete the row" can reach. */
function hasRow(submission: SubmissionDetail): boolean {
	const { state, rowId } = submission.delivery
	return rowId !== null || state === 'pending' || state === 'failed'
}

function DeleteSubmission({ form, submission, backTo }: { form: Form; submission: SubmissionDetail; backTo: string }) {
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const [deleteRow, setDeleteRow] = useState(false)
	const remove = useMutation({
		mutationFn: deleteSubmission,
		onSuccess: async (_result, input) => {
			toast.success(input.deleteRow ? 'The answer is deleted; its row follows shortly.' : 'The answer is deleted.')
			const deleted = submissionDetailQuery(form.id, submission.id).queryKey
			await navigate(backTo)
			// The lists and the form's count, not the answer just deleted: this page may still be
			// mounted for a moment, and asking for the answer again would only meet a 404.
			await Promise.all([
				queryClient.invalidateQueries({
					queryKey: formKeys.submissions(form.id),
					predicate: (query) => query.queryHash !== hashKey(deleted),
				}),
				queryClient.invalidateQueries({ queryKey: formKeys.detail(form.id) }),
			])
		},
		onError: (error) => toast.error(errorMessage(error)),
	})
	const canDeleteRow = hasRow(submission)
	return (
		<ConfirmDialog
			title="Delete this answer?"
			description={
				deleteRow
					? `The answer, its files and its webhook deliveries are deleted, and its row in ${form.databaseName} too. This cannot be undone.`
					: `The answer, its files and its webhook deliveries are deleted. This cannot be undone. The row in ${form.databaseName} stays, with the files it shows.`
			}
			confirmLabel="Delete answer"
			isDestructive
			onOpenChange={(open) => (open ? setDeleteRow(false) : undefined)}
			onConfirm={() => remove.mutateAsync({ formId: form.id, submissionId: submission.id, deleteRow })}
			trigger={
				<Button variant="outline" size="sm">
					<Trash2 aria-hidden /> Delete
				</Button>
			}
		>
			{canDeleteRow ? (
				<Field label={`Also delete the row in ${form.databaseName}`} orientation="horizontal">
					<Checkbox checked={deleteRow} onCheckedChange={(checked) => setDeleteRow(checked === true)} />
				</Field>
			) : null}
		</ConfirmDialog>
	)
}
