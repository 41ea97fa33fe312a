import type { ExportStatus, OrganizationExport } from '@blocksmith/contracts/data.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Download, PackageOpen } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#src/components/ui/card.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { formatBytes } from '#src/core/billing/lib/billing-format.ts'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { dataKeys, exportQuery, exportsQuery, isExportRunning, startExport } from '../api/data.ts'

/** What the archive holds, one line per part (decision 040). */
const parts = [
	'Databases, as CSV',
	'Forms with every answer and their files',
	'Charts and dashboards',
	'Time entries and reports',
	'Invoices as PDF and e-invoice XML',
	'Portals',
	'Uploaded files: logos, images, files in databases',
	'Members',
]

const historyLength = 5

export const formatDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' })
const formatDateTime = (iso: string) =>
	new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })

/**
 * Settings → Data, and the page of an organization scheduled for deletion: start an export of
 * everything, follow its progress, download it. Owners and admins only (the caller checks).
 */
export function ExportCard() {
	const queryClient = useQueryClient()
	const list = useQuery(exportsQuery)
	// The export being watched: the one just started, else the newest of the list.
	const [startedId, setStartedId] = useState<string | null>(null)
	const newest = list.data?.[0]
	const currentId = startedId ?? newest?.id ?? null
	const current = useQuery({
		...exportQuery(currentId ?? ''),
		enabled: currentId !== null,
		initialData: () => list.data?.find((item) => item.id === currentId),
	})
	const latest = current.data
	const isRunning = latest ? isExportRunning(latest) : false
	// Once it finishes, the list (the history) is read again to show it as it is now.
	const wasRunning = useRef(false)
	useEffect(() => {
		if (wasRunning.current && !isRunning) {
			void queryClient.invalidateQueries({ queryKey: dataKeys.exports, exact: true })
		}
		wasRunning.current = isRunning
	}, [isRunning, queryClient])
	const start = useMutation({
		mutationFn: startExport,
		meta: { isErrorShownInPage: true },
		onSuccess: (started) => {
			queryClient.setQueryData(dataKeys.export(started.id), started)
			setStartedId(started.id)
			void queryClient.invalidateQueries({ queryKey: dataKeys.exports, exact: true })
		},
		// One already being built (409): show that one.
		onError: (error) => {
			if (error instanceof ApiError && error.status === 409) {
				setStartedId(null)
				void queryClient.invalidateQueries({ queryKey: dataKeys.exports, exact: true })
			}
		},
	})
	const history = (list.data ?? []).filter((item) => item.id !== latest?.id).slice(0, historyLength)

	return (
		<Card>
			<CardHeader>
				<CardTitle>Export everything</CardTitle>
				<CardDescription>One ZIP archive of everything this organization has:</CardDescription>
			</CardHeader>
			<CardContent className="grid gap-5">
				<ul className="grid list-disc gap-0.5 pl-5 text-sm">
					{parts.map((part) => (
						<li key={part}>{part}</li>
					))}
				</ul>
				{list.isPending ? <Skeleton className="h-16" /> : null}
				{list.isError ? <Alert variant="error">{errorMessage(list.error)}</Alert> : null}
				{latest ? <LatestExport item={latest} /> : null}
				{start.isError ? (
					<Alert variant="error" title="The export did not start">
						{errorMessage(start.error)}
					</Alert>
				) : null}
				{history.length > 0 ? <ExportHistory items={history} /> : null}
			</CardContent>
			<CardFooter className="flex-wrap">
				<Button isLoading={start.isPending} disabled={isRunning} onClick={() => start.mutate()}>
					<PackageOpen aria-hidden /> Export everything
				</Button>
				<span className="text-muted-foreground text-sm">We'll also e-mail you a link when it's ready.</span>
			</CardFooter>
		</Card>
	)
}

function LatestExport({ item }: { item: OrganizationExport }) {
	if (isExportRunning(item)) {
		const { done, total, step } = item.progress
		const count = `${done} of ${total}`
		return (
			<div className="grid gap-2 rounded-lg border p-3">
				{/* The step is read out as it changes, without interrupting. */}
				<div aria-live="polite" className="flex justify-between gap-3 text-sm">
					<span className="font-medium">{item.status === 'queued' ? 'Waiting to start…' : (step ?? 'Preparing…')}</span>
					<span className="text-muted-foreground tabular-nums">{count}</span>
				</div>
				<div
					role="progressbar"
					aria-label="Export progress"
					aria-valuemin={0}
					aria-valuemax={total}
					aria-valuenow={done}
					aria-valuetext={step ? `${step}: ${count}` : count}
					className="h-2 overflow-hidden rounded-full bg-muted"
				>
					<div
						className="h-full rounded-full bg-primary transition-[width] duration-300"
						style={{ width: `${total > 0 ? (done * 100) / total : 0}%` }}
					/>
				</div>
			</div>
		)
	}
	if (item.status === 'ready' && item.downloadUrl) {
		return (
			<Alert variant="success" title="Your export is ready" action={<DownloadButton item={item} variant="primary" />}>
				{item.byteSize === null ? null : `${formatBytes(item.byteSize)} · `}
				{item.expiresAt ? `The link works until ${formatDateTime(item.expiresAt)}.` : null}
			</Alert>
		)
	}
	if (item.status === 'failed') {
		return (
			<Alert variant="error" title="The export failed">
				{item.error ?? 'Something went wrong while building it. Try again.'}
			</Alert>
		)
	}
	return null
}

function DownloadButton({
	item,
	variant,
	label,
}: {
	item: OrganizationExport
	variant: 'primary' | 'outline'
	label?: string
}) {
	// The server marks it expired within the hour; the link stops at `expiresAt` already.
	if (!item.downloadUrl || (item.expiresAt && Date.parse(item.expiresAt) <= Date.now())) {
		return null
	}
	return (
		<Button asChild variant={variant} size="sm">
			{/* A signed link that works without the session's token: a plain download. */}
			<a href={item.downloadUrl} download aria-label={label}>
				<Download aria-hidden /> Download
			</a>
		</Button>
	)
}

const statusBadges: Record<ExportStatus, { label: string; variant: 'neutral' | 'primary' | 'success' | 'error' }> = {
	queued: { label: 'Waiting', variant: 'neutral' },
	running: { label: 'Running', variant: 'primary' },
	ready: { label: 'Ready', variant: 'success' },
	failed: { label: 'Failed', variant: 'error' },
	expired: { label: 'Expired', variant: 'neutral' },
}

function ExportHistory({ items }: { items: OrganizationExport[] }) {
	return (
		<section aria-labelledby="export-history" className="grid gap-2">
			<h4 id="export-history" className="font-medium text-sm">
				Recent exports
			</h4>
			<Table>
				<TableHeader>
					<TableRow>
						<TableHead>Status</TableHead>
						<TableHead>Started</TableHead>
						<TableHead>By</TableHead>
						<TableHead>Size</TableHead>
						<TableHead>
							<span className="sr-only">Download</span>
						</TableHead>
					</TableRow>
				</TableHeader>
				<TableBody>
					{items.map((item) => (
						<TableRow key={item.id}>
							<TableCell>
								<Badge variant={statusBadges[item.status].variant}>{statusBadges[item.status].label}</Badge>
								{item.status === 'failed' && item.error ? (
									<span className="block text-muted-foreground text-xs">{item.error}</span>
								) : null}
							</TableCell>
							<TableCell className="text-muted-foreground">{formatDateTime(item.createdAt)}</TableCell>
							<TableCell className="text-muted-foreground">{item.requestedBy?.name ?? '—'}</TableCell>
							<TableCell className="text-muted-foreground">
								{item.byteSize === null ? '—' : formatBytes(item.byteSize)}
							</TableCell>
							<TableCell className="text-right">
								{item.status === 'ready' ? (
									<DownloadButton
										item={item}
										variant="outline"
										label={`Download the export of ${formatDateTime(item.createdAt)}`}
									/>
								) : null}
							</TableCell>
						</TableRow>
					))}
				</TableBody>
			</Table>
		</section>
	)
}
