import type { Portal, PortalMember } from '@blocksmith/contracts/portals.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Mail, Pencil, Trash2, Users } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog, Dialog, DialogContent, DialogFooter } from '#src/components/ui/dialog.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { membersQuery, portalKeys, removeMember, resendInvitation, updateMember } from '../api/portals.ts'
import { formatWhen } from '../lib/format.ts'
import { Section } from './branding-section.tsx'

/** The portal's members: company, status, last visit; resend, edit, remove (their sessions and links stop at once). */
export function MembersList({ portal }: { portal: Portal }) {
	const members = useQuery({ ...membersQuery(portal.tool, portal.id), meta: { isErrorShownInPage: true } })
	const [editing, setEditing] = useState<PortalMember | null>(null)
	return (
		<Section id="members" title="Members">
			{members.isPending ? (
				<Skeleton className="h-32 w-full" />
			) : members.isError ? (
				<Alert variant="error" title="The members could not be read">
					{errorMessage(members.error)}
				</Alert>
			) : members.data.length === 0 ? (
				<EmptyState
					icon={Users}
					headingLevel={3}
					title="No member yet"
					description="Invite your clients above: each gets a link by e-mail to sign in."
				/>
			) : (
				<ul aria-label="Members" className="grid divide-y rounded-lg border">
					{members.data.map((member) => (
						<MemberRow key={member.id} portal={portal} member={member} onEdit={() => setEditing(member)} />
					))}
				</ul>
			)}
			{editing ? <EditMemberDialog portal={portal} member={editing} onClose={() => setEditing(null)} /> : null}
		</Section>
	)
}

function MemberRow({ portal, member, onEdit }: { portal: Portal; member: PortalMember; onEdit: () => void }) {
	const queryClient = useQueryClient()
	const refresh = async () => {
		await queryClient.invalidateQueries({ queryKey: portalKeys.members(portal.tool, portal.id) })
		await queryClient.invalidateQueries({ queryKey: portalKeys.setup })
	}
	const resend = useMutation({
		mutationFn: () => resendInvitation(portal.tool, member.id),
		onSuccess: () => toast.success(`A new sign-in link went to ${member.email}`),
	})
	const remove = useMutation({
		mutationFn: () => removeMember(portal.tool, member.id),
		onSuccess: async () => {
			await refresh()
			toast.success(`${member.email} removed`)
		},
	})
	const who = member.name ?? member.email
	return (
		<li className="flex flex-wrap items-center gap-x-4 gap-y-2 px-3 py-2.5">
			<div className="grid min-w-0 flex-1 basis-48 gap-0.5">
				<span className="truncate font-medium text-sm">{who}</span>
				{member.name ? <span className="truncate text-muted-foreground text-xs">{member.email}</span> : null}
			</div>
			<div className="grid min-w-0 basis-44 gap-0.5 text-sm">
				<span className="truncate">
					{member.companyName ?? <span className="text-muted-foreground">No company</span>}
				</span>
				<span className="text-muted-foreground text-xs">
					{member.lastSeenAt
						? `Last visit ${formatWhen(member.lastSeenAt)}`
						: `Invited ${formatWhen(member.invitedAt)}`}
				</span>
			</div>
			<Badge variant={member.status === 'active' ? 'success' : 'neutral'}>
				{member.status === 'active' ? 'Active' : 'Invited'}
			</Badge>
			<div className="ml-auto flex gap-1">
				<Button
					variant="ghost"
					size="icon-sm"
					aria-label={`Resend the invitation to ${member.email}`}
					isLoading={resend.isPending}
					onClick={() => resend.mutate()}
				>
					<Mail aria-hidden />
				</Button>
				<Button variant="ghost" size="icon-sm" aria-label={`Edit ${member.email}`} onClick={onEdit}>
					<Pencil aria-hidden />
				</Button>
				<ConfirmDialog
					title={`Remove ${who}?`}
					description="They are signed out at once and their sign-in links stop working. Their rows in your databases stay."
					confirmLabel="Remove member"
					isDestructive
					onConfirm={() => remove.mutateAsync()}
					trigger={
						<Button variant="ghost" size="icon-sm" aria-label={`Remove ${member.email}`}>
							<Trash2 aria-hidden />
						</Button>
					}
				/>
			</div>
		</li>
	)
}

function EditMemberDialog({ portal, member, onClose }: { portal: Portal; member: PortalMember; onClose: () => void }) {
	const queryClient = useQueryClient()
	const [name, setName] = useState(member.name ?? '')
	const [company, setCompany] = useState(member.companyName ?? '')
	const save = useMutation({
		mutationFn: () =>
			updateMember(portal.tool, member.id, {
				name: name.trim() || null,
				// Unchanged: not sent, so a company found by its row id is not looked up again by its title.
				...(company.trim() === (member.companyName ?? '') ? {} : { company: company.trim() || null }),
			}),
		meta: { isErrorShownInPage: true },
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: portalKeys.members(portal.tool, portal.id) })
			toast.success(`${member.email} saved`)
			onClose()
		},
	})
	const fieldError = (field: string) =>
		save.error instanceof ApiError ? save.error.fieldErrors.find((one) => one.field === field)?.message : undefined
	return (
		<Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
			<DialogContent title={`Edit ${member.email}`} description="Their company decides which rows they see.">
				<form
					className="grid gap-4"
					noValidate
					onSubmit={(event) => {
						event.preventDefault()
						save.mutate()
					}}
				>
					<Field label="Name" error={fieldError('name')}>
						<Input value={name} onChange={(event) => setName(event.target.value)} />
					</Field>
					<Field
						label="Company"
						description="The client’s name as in your companies database; empty for none."
						error={fieldError('company')}
					>
						<Input value={company} onChange={(event) => setCompany(event.target.value)} />
					</Field>
					{save.isError && !fieldError('name') && !fieldError('company') ? (
						<Alert variant="error">{errorMessage(save.error)}</Alert>
					) : null}
					<DialogFooter>
						<Button variant="outline" onClick={onClose}>
							Cancel
						</Button>
						<Button type="submit" isLoading={save.isPending}>
							Save
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
