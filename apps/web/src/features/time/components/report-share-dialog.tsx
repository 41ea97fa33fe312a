import type { TimeShare } from '@blocksmith/contracts/time-reports.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Copy, Share2 } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { formatDateTime, relativeTime } from '#src/workspaces/lib/values.ts'
import { createShare, reportKeys, revokeShare, sharesQuery, type ToolView } from '../api/reports.ts'

// Read-only links to a view: anyone with one sees its figures (never its rows) until it expires
// or is revoked. A link's address holds its token, which is shown once, when it is made.

function stateOf(share: TimeShare, now: number): { label: string; variant: 'success' | 'neutral' | 'warning' } {
	if (share.revokedAt) {
		return { label: 'Revoked', variant: 'neutral' }
	}
	if (share.expiresAt && Date.parse(share.expiresAt) <= now) {
		return { label: 'Expired', variant: 'warning' }
	}
	return { label: 'Active', variant: 'success' }
}

async function copy(text: string): Promise<void> {
	try {
		await navigator.clipboard.writeText(text)
		toast.success('The link is copied.')
	} catch {
		toast.error('The link could not be copied: select it and copy it yourself.')
	}
}

export function ReportShareDialog({ view }: { view: ToolView }) {
	const [isOpen, setIsOpen] = useState(false)
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button variant="outline">
					<Share2 aria-hidden /> Share
				</Button>
			</DialogTrigger>
			<DialogContent
				size="lg"
				title="Share this report"
				description="A read-only link: whoever opens it sees this report's figures and chart, signed out, until the link expires or you revoke it."
			>
				{isOpen ? <ShareLinks view={view} /> : null}
			</DialogContent>
		</Dialog>
	)
}

function ShareLinks({ view }: { view: ToolView }) {
	const queryClient = useQueryClient()
	const shares = useQuery(sharesQuery(view))
	const [expiry, setExpiry] = useState('')
	const [created, setCreated] = useState<TimeShare | null>(null)
	const create = useMutation({
		mutationFn: createShare,
		meta: { isErrorShownInPage: true },
		onSuccess: async (share) => {
			setCreated(share)
			setExpiry('')
			await queryClient.invalidateQueries({ queryKey: reportKeys.shares(view.id) })
		},
	})
	const revoke = useMutation({
		mutationFn: revokeShare,
		onSuccess: async () => {
			toast.success('The link is revoked: it no longer opens the report.')
			await queryClient.invalidateQueries({ queryKey: reportKeys.shares(view.id) })
		},
	})
	const now = Date.now()

	function submit(event: FormEvent): void {
		event.preventDefault()
		// The link works through the chosen day, to its last second in this browser's time zone.
		const expiresAt = expiry ? new Date(`${expiry}T23:59:59`).toISOString() : null
		create.mutate({ view, share: { expiresAt } })
	}

	return (
		<div className="grid gap-5">
			<form className="flex flex-wrap items-end gap-3" onSubmit={submit}>
				<Field label="Expires on" description="Leave empty for a link that works until revoked." className="grow">
					<Input type="date" value={expiry} onChange={(event) => setExpiry(event.target.value)} />
				</Field>
				<Button type="submit" isLoading={create.isPending}>
					Create link
				</Button>
			</form>
			{create.isError ? (
				<Alert variant="error" title="The link was not created">
					{errorMessage(create.error)}
				</Alert>
			) : null}
			{created?.url ? (
				<div className="grid gap-2 rounded-lg border bg-muted/40 p-3">
					<p className="text-sm">Your new link. Copy it now: it is shown only once.</p>
					<div className="flex gap-2">
						<Input
							readOnly
							value={created.url}
							aria-label="New link"
							onFocus={(event) => event.currentTarget.select()}
						/>
						<Button variant="outline" onClick={() => void copy(created.url ?? '')}>
							<Copy aria-hidden /> Copy
						</Button>
					</div>
				</div>
			) : null}
			{shares.isPending ? (
				<Skeleton className="h-24 w-full" />
			) : shares.isError ? (
				<Alert variant="error" title="The links could not be loaded">
					{errorMessage(shares.error)}
				</Alert>
			) : shares.data.length === 0 ? (
				<p className="text-muted-foreground text-sm">No links yet.</p>
			) : (
				<Table aria-label="Links">
					<TableHeader>
						<TableRow>
							<TableHead>Created</TableHead>
							<TableHead>Expires</TableHead>
							<TableHead>Last opened</TableHead>
							<TableHead>State</TableHead>
							<TableHead>
								<span className="sr-only">Actions</span>
							</TableHead>
						</TableRow>
					</TableHeader>
					<TableBody>
						{shares.data.map((share) => {
							const state = stateOf(share, now)
							return (
								<TableRow key={share.id}>
									<TableCell title={formatDateTime(share.createdAt)}>{relativeTime(share.createdAt)}</TableCell>
									<TableCell>{share.expiresAt ? formatDateTime(share.expiresAt) : 'Never'}</TableCell>
									<TableCell>{share.lastOpenedAt ? relativeTime(share.lastOpenedAt) : 'Not yet'}</TableCell>
									<TableCell>
										<Badge variant={state.variant}>{state.label}</Badge>
									</TableCell>
									<TableCell className="text-right">
										{share.revokedAt ? null : (
											<Button
												variant="ghost"
												size="sm"
												isLoading={revoke.isPending && revoke.variables?.shareId === share.id}
												onClick={() => revoke.mutate({ view, shareId: share.id })}
											>
												Revoke
											</Button>
										)}
									</TableCell>
								</TableRow>
							)
						})}
					</TableBody>
				</Table>
			)}
		</div>
	)
}
