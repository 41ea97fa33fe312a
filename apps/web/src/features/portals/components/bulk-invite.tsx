import type { BulkInviteResult, Portal } from '@blocksmith/contracts/portals.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { FileUp, Send } from 'lucide-react'
import { useId, useMemo, useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Field } from '#src/components/ui/field.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { bulkInvite, portalKeys } from '../api/portals.ts'
import { invitees, maxInvitees, parseInvitees } from '../lib/bulk-invite.ts'
import { Section } from './branding-section.tsx'

/**
 * Many members at once: pasted lines or a CSV read in the browser, previewed line by line with
 * what is wrong before anything is sent; then the server's answer, with the lines it refused
 * and why (an unknown company, over the plan's member limit).
 */
export function BulkInvite({ portal }: { portal: Portal }) {
	const queryClient = useQueryClient()
	const fileId = useId()
	const [text, setText] = useState('')
	const [sendEmails, setSendEmails] = useState(true)
	const [fileProblem, setFileProblem] = useState<string | null>(null)
	const [result, setResult] = useState<BulkInviteResult | null>(null)
	const lines = useMemo(() => parseInvitees(text), [text])
	const ready = lines.filter((line) => line.error === null)
	const withErrors = lines.length - ready.length
	const isTooMany = ready.length > maxInvitees
	/** Why the server refused an address last time: said on its line, which stays in the box to fix. */
	const refusedReasons = new Map(result?.refused.map((one) => [one.email.toLowerCase(), one.reason]))

	const invite = useMutation({
		mutationFn: () => bulkInvite(portal.tool, { portalId: portal.id, members: invitees(lines), sendEmails }),
		onSuccess: async (answer) => {
			setResult(answer)
			// What was refused stays in the box to fix and send again (with the header, if any); the rest is done.
			const refused = new Set(answer.refused.map((one) => ready[one.index]?.line))
			setText(
				text
					.replace(/\r\n?/g, '\n')
					.split('\n')
					.filter((_, index) => refused.has(index + 1) || (refused.size > 0 && index + 1 < (lines[0]?.line ?? 1)))
					.join('\n'),
			)
			await queryClient.invalidateQueries({ queryKey: portalKeys.members(portal.tool, portal.id) })
			await queryClient.invalidateQueries({ queryKey: portalKeys.setup })
		},
	})

	async function readFile(file: File | undefined): Promise<void> {
		if (!file) {
			return
		}
		if (file.size > 1024 * 1024) {
			setFileProblem('Choose a CSV file under 1 MB (500 members at a time).')
			return
		}
		setFileProblem(null)
		setResult(null)
		setText(await file.text())
	}

	return (
		<Section
			id="invite"
			title="Invite members"
			description="One member per line: e-mail, name, company. The company is the client’s name as written in your companies database. Name and company may be left out."
		>
			<Field label="Members to invite" description="Paste from a spreadsheet or type; commas, semicolons or tabs.">
				<Textarea
					rows={5}
					value={text}
					spellCheck={false}
					placeholder={'ana@northwind.com, Ana Lima, Northwind\nben@contoso.com, Ben Ode, Contoso'}
					className="font-mono text-[13px]"
					onChange={(event) => setText(event.target.value)}
				/>
			</Field>
			<div className="flex flex-wrap items-center gap-3">
				<Button variant="outline" size="sm" asChild>
					<label htmlFor={fileId} className="cursor-pointer">
						<FileUp aria-hidden /> Upload a CSV
					</label>
				</Button>
				<input
					id={fileId}
					type="file"
					accept=".csv,text/csv,text/plain"
					className="sr-only"
					aria-label="CSV file"
					onChange={(event) => {
						void readFile(event.target.files?.[0])
						event.target.value = ''
					}}
				/>
				{fileProblem ? <p className="text-[13px] text-error">{fileProblem}</p> : null}
			</div>
			{lines.length > 0 ? (
				<div className="grid gap-2">
					<p aria-live="polite" className="text-sm">
						{ready.length} ready to invite
						{withErrors > 0 ? (
							<span className="text-error">
								, {withErrors} {withErrors === 1 ? 'line needs' : 'lines need'} a look
							</span>
						) : null}
					</p>
					<div className="max-h-72 overflow-auto rounded-md border">
						<table aria-label="Preview of the members to invite" className="w-full text-sm">
							<thead className="sticky top-0 bg-muted text-left text-muted-foreground text-xs">
								<tr>
									<th className="px-2 py-1.5 font-medium">Line</th>
									<th className="px-2 py-1.5 font-medium">E-mail</th>
									<th className="hidden px-2 py-1.5 font-medium sm:table-cell">Name</th>
									<th className="px-2 py-1.5 font-medium">Company</th>
								</tr>
							</thead>
							<tbody>
								{lines.map((line) => (
									<tr
										key={line.line}
										className={cn('border-t', (line.error ?? refusedReasons.get(line.email)) && 'bg-error/5')}
									>
										<td className="px-2 py-1.5 text-muted-foreground tabular-nums">{line.line}</td>
										<td className="break-all px-2 py-1.5">
											{line.email || '—'}
											{(line.error ?? refusedReasons.get(line.email)) ? (
												<span className="block text-error text-xs">{line.error ?? refusedReasons.get(line.email)}</span>
											) : null}
										</td>
										<td className="hidden px-2 py-1.5 sm:table-cell">{line.name ?? '—'}</td>
										<td className="px-2 py-1.5">{line.company ?? '—'}</td>
									</tr>
								))}
							</tbody>
						</table>
					</div>
				</div>
			) : null}
			{isTooMany ? <Alert variant="warning">At most {maxInvitees} members at a time: split the list.</Alert> : null}
			<Field orientation="horizontal" label="Send the invitation e-mails now" description="Each with a sign-in link.">
				<Switch checked={sendEmails} onCheckedChange={setSendEmails} />
			</Field>
			<Button
				className="w-fit"
				isLoading={invite.isPending}
				disabled={ready.length === 0 || isTooMany}
				onClick={() => invite.mutate()}
			>
				{invite.isPending ? null : <Send aria-hidden />}
				{ready.length === 0
					? 'Invite members'
					: ready.length === 1
						? 'Invite 1 member'
						: `Invite ${ready.length} members`}
			</Button>
			{result ? <InviteResult answer={result} sendEmails={sendEmails} /> : null}
		</Section>
	)
}

function InviteResult({ answer, sendEmails }: { answer: BulkInviteResult; sendEmails: boolean }) {
	const invited = answer.invited.length
	const parts = [
		`${invited} ${invited === 1 ? 'member' : 'members'} ${sendEmails ? 'invited by e-mail' : 'added'}`,
		answer.existing.length > 0 ? `${answer.existing.length} already members (left as they were)` : null,
		answer.refused.length > 0 ? `${answer.refused.length} refused: they stay in the box above, with why` : null,
	].filter(Boolean)
	return (
		<div className="grid gap-2" aria-live="polite">
			<Alert
				variant={answer.refused.length > 0 ? 'warning' : 'success'}
				title={invited > 0 ? 'Invitations sent' : 'No one was invited'}
			>
				{parts.join(', ')}.
			</Alert>
			{answer.refused.length > 0 ? (
				<ul aria-label="Refused" className="grid gap-1 text-sm">
					{answer.refused.map((one) => (
						<li key={`${one.index}-${one.email}`}>
							<span className="font-medium">{one.email}</span> — {one.reason}
						</li>
					))}
				</ul>
			) : null}
		</div>
	)
}
