import type { Role } from '@blocksmith/contracts/teams.ts'
import { zodResolver } from '@hookform/resolvers/zod'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { MailPlus, Users } from 'lucide-react'
import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { toast } from 'sonner'
import { z } from 'zod'
import { Avatar } from '#src/components/ui/avatar.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import {
	Card,
	CardAction,
	CardContent,
	CardDescription,
	CardFooter,
	CardHeader,
	CardTitle,
} from '#src/components/ui/card.tsx'
import { ConfirmDialog, Dialog, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { showFieldErrors } from '#src/components/ui/form-errors.ts'
import { Input } from '#src/components/ui/input.tsx'
import { Select } from '#src/components/ui/select.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { useSession, useSessionStore } from '#src/lib/session-context.tsx'
import {
	invitationsQuery,
	inviteMember,
	leaveOrganization,
	membersQuery,
	orgDetailsQuery,
	removeMember,
	renameOrganization,
	revokeInvitation,
	teamKeys,
	updateMemberRole,
} from '../api/teams.ts'

const roleOptions = [
	{ value: 'member', label: 'Member' },
	{ value: 'admin', label: 'Admin' },
	{ value: 'owner', label: 'Owner' },
] as const

const roleHelp: Record<Role, string> = {
	owner: 'Everything, including billing and removing owners.',
	admin: 'Manages members, invitations and all modules.',
	member: 'Works with the modules; cannot manage the team.',
}

function canManage(role: Role | undefined): boolean {
	return role === 'owner' || role === 'admin'
}

export function OrganizationSettings() {
	const org = useQuery(orgDetailsQuery)
	const queryClient = useQueryClient()
	const session = useSessionStore()
	const [name, setName] = useState<string | null>(null)
	const rename = useMutation({
		mutationFn: renameOrganization,
		onSuccess: async () => {
			setName(null)
			await queryClient.invalidateQueries({ queryKey: teamKeys.all })
			toast.success('The organization was renamed.')
		},
	})
	const leave = useMutation({
		mutationFn: leaveOrganization,
		onSuccess: async () => {
			await session.refresh()
			await queryClient.invalidateQueries()
			toast.success('You left the organization.')
		},
	})
	if (org.isPending) {
		return <Skeleton className="h-40" />
	}
	if (!org.data) {
		return null
	}
	const details = org.data
	const isManager = canManage(details.role)
	const draft = name ?? details.name

	return (
		<div className="grid gap-6">
			<Card>
				<form
					onSubmit={(event) => {
						event.preventDefault()
						if (draft.trim() && draft.trim() !== details.name) {
							rename.mutate({ organizationId: details.id, name: draft.trim() })
						}
					}}
				>
					<CardHeader>
						<CardTitle>Organization</CardTitle>
						<CardDescription>
							You are {roleWithArticle[details.role]} of this organization · {details.membersCount}{' '}
							{details.membersCount === 1 ? 'member' : 'members'}
						</CardDescription>
					</CardHeader>
					<CardContent className="grid gap-4">
						<Field
							label="Name"
							className="max-w-sm"
							description={isManager ? undefined : 'Only owners and admins can rename the organization.'}
						>
							<Input
								value={draft}
								onChange={(event) => setName(event.target.value)}
								readOnly={!isManager}
								maxLength={100}
							/>
						</Field>
						<div className="flex flex-wrap items-center gap-2 text-sm">
							<span className="text-muted-foreground">Plan</span>
							<Badge variant="outline" className="capitalize">
								{details.planName}
							</Badge>
							{details.trialEndsAt ? (
								<span className="text-muted-foreground">
									Trial ends {new Date(details.trialEndsAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}
								</span>
							) : null}
						</div>
					</CardContent>
					{isManager ? (
						<CardFooter>
							<Button
								type="submit"
								isLoading={rename.isPending}
								disabled={draft.trim() === details.name || !draft.trim()}
							>
								Save
							</Button>
						</CardFooter>
					) : null}
				</form>
			</Card>
			<Card>
				<CardHeader>
					<CardTitle>Leave the organization</CardTitle>
					<CardDescription>
						You lose access to its data. The last owner can't leave: make someone else an owner first.
					</CardDescription>
				</CardHeader>
				<CardFooter>
					<ConfirmDialog
						title={`Leave ${details.name}?`}
						description="You'll need a new invitation to come back."
						confirmLabel="Leave"
						isDestructive
						onConfirm={() => leave.mutateAsync()}
						trigger={<Button variant="outline">Leave organization</Button>}
					/>
				</CardFooter>
			</Card>
		</div>
	)
}

export function MembersPanel() {
	const { user } = useSession()
	const org = useQuery(orgDetailsQuery)
	const members = useQuery(membersQuery)
	const queryClient = useQueryClient()
	const isManager = canManage(org.data?.role)
	const refresh = () => queryClient.invalidateQueries({ queryKey: teamKeys.all })
	const changeRole = useMutation({
		mutationFn: updateMemberRole,
		onSuccess: async () => {
			await refresh()
			toast.success('The role was changed.')
		},
	})
	const remove = useMutation({
		mutationFn: removeMember,
		onSuccess: async () => {
			await refresh()
			toast.success('The member was removed.')
		},
	})

	return (
		<Card>
			<CardHeader>
				<CardTitle>Members</CardTitle>
				<CardDescription>Everyone in this organization and what they may do.</CardDescription>
				{isManager ? (
					<CardAction>
						<InviteDialog />
					</CardAction>
				) : null}
			</CardHeader>
			<CardContent>
				{members.isPending ? (
					<Skeleton className="h-24" />
				) : (
					<Table>
						<TableHeader>
							<TableRow>
								<TableHead>Name</TableHead>
								<TableHead>Role</TableHead>
								<TableHead>
									<span className="sr-only">Actions</span>
								</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{members.data?.map((member) => {
								const isMe = member.userId === user?.id
								const canChange = isManager && !isMe && (org.data?.role === 'owner' || member.role !== 'owner')
								return (
									<TableRow key={member.id}>
										<TableCell>
											<div className="flex items-center gap-3">
												<Avatar name={member.name} size="sm" isDecorative />
												<div className="grid min-w-0">
													<span className="truncate font-medium">
														{member.name}
														{isMe ? <span className="text-muted-foreground"> (you)</span> : null}
													</span>
													<span className="truncate text-muted-foreground text-xs">{member.email}</span>
												</div>
											</div>
										</TableCell>
										<TableCell>
											{canChange ? (
												<Select
													aria-label={`Role of ${member.name}`}
													className="w-32"
													value={member.role}
													options={roleOptions.filter(
														(option) => option.value !== 'owner' || org.data?.role === 'owner',
													)}
													onValueChange={(role) => changeRole.mutate({ memberId: member.id, role: role as Role })}
												/>
											) : (
												<Badge variant="outline" className="capitalize">
													{member.role}
												</Badge>
											)}
										</TableCell>
										<TableCell className="text-right">
											{canChange ? (
												<ConfirmDialog
													title={`Remove ${member.name}?`}
													description={`${member.email} loses access to this organization at once.`}
													confirmLabel="Remove"
													isDestructive
													onConfirm={() => remove.mutateAsync(member.id)}
													trigger={
														<Button variant="ghost" size="sm">
															Remove
														</Button>
													}
												/>
											) : null}
										</TableCell>
									</TableRow>
								)
							})}
						</TableBody>
					</Table>
				)}
			</CardContent>
		</Card>
	)
}

export function InvitationsPanel() {
	const org = useQuery(orgDetailsQuery)
	const invitations = useQuery({ ...invitationsQuery, enabled: canManage(org.data?.role) })
	const queryClient = useQueryClient()
	const revoke = useMutation({
		mutationFn: revokeInvitation,
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: teamKeys.invitations })
			toast.success('The invitation was revoked.')
		},
	})
	if (!canManage(org.data?.role)) {
		return null
	}
	return (
		<Card>
			<CardHeader>
				<CardTitle>Pending invitations</CardTitle>
				<CardDescription>Invitations expire after 7 days.</CardDescription>
			</CardHeader>
			<CardContent>
				{invitations.isPending ? (
					<Skeleton className="h-16" />
				) : invitations.data?.length ? (
					<Table>
						<TableHeader>
							<TableRow>
								<TableHead>E-mail</TableHead>
								<TableHead>Role</TableHead>
								<TableHead>Expires</TableHead>
								<TableHead>
									<span className="sr-only">Actions</span>
								</TableHead>
							</TableRow>
						</TableHeader>
						<TableBody>
							{invitations.data.map((invitation) => (
								<TableRow key={invitation.id}>
									<TableCell className="font-medium">{invitation.email}</TableCell>
									<TableCell className="capitalize">{invitation.role}</TableCell>
									<TableCell className="text-muted-foreground">
										{new Date(invitation.expiresAt).toLocaleDateString(undefined, { dateStyle: 'medium' })}
									</TableCell>
									<TableCell className="text-right">
										<ConfirmDialog
											title="Revoke this invitation?"
											description={`The link sent to ${invitation.email} stops working.`}
											confirmLabel="Revoke"
											isDestructive
											onConfirm={() => revoke.mutateAsync(invitation.id)}
											trigger={
												<Button variant="ghost" size="sm">
													Revoke
												</Button>
											}
										/>
									</TableCell>
								</TableRow>
							))}
						</TableBody>
					</Table>
				) : (
					<EmptyState
						icon={Users}
						headingLevel={3}
						title="No pending invitations"
						description="Invite teammates by e-mail; they can join with or without an account."
					/>
				)}
			</CardContent>
		</Card>
	)
}

const inviteSchema = z.object({
	email: z.email('Enter a valid e-mail address.'),
	role: z.enum(['member', 'admin', 'owner']),
})
type InviteValues = z.infer<typeof inviteSchema>

function InviteDialog() {
	const [isOpen, setIsOpen] = useState(false)
	const org = useQuery(orgDetailsQuery)
	const queryClient = useQueryClient()
	const form = useForm<InviteValues>({
		resolver: zodResolver(inviteSchema),
		defaultValues: { email: '', role: 'member' },
	})
	const invite = useMutation({
		mutationFn: inviteMember,
		meta: { isFormMutation: true },
		onSuccess: async (invitation) => {
			await queryClient.invalidateQueries({ queryKey: teamKeys.invitations })
			toast.success(`Invitation sent to ${invitation.email}.`)
			form.reset()
			setIsOpen(false)
		},
		onError: (error) => error instanceof ApiError && showFieldErrors(error, form.setError, ['email', 'role']),
	})
	const role = form.watch('role')
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			{/* A trigger, not a plain button: Radix gives the focus back to it when the dialog closes. */}
			<DialogTrigger asChild>
				<Button size="sm">
					<MailPlus aria-hidden /> Invite
				</Button>
			</DialogTrigger>
			<DialogContent title="Invite a teammate" description="We e-mail them a link to join this organization.">
				<form className="grid gap-4" noValidate onSubmit={form.handleSubmit((values) => invite.mutate(values))}>
					<Field label="E-mail" error={form.formState.errors.email}>
						<Input type="email" autoComplete="off" autoFocus {...form.register('email')} />
					</Field>
					<Field label="Role" description={roleHelp[role]} error={form.formState.errors.role}>
						<Controller
							control={form.control}
							name="role"
							render={({ field }) => (
								<Select
									name={field.name}
									value={field.value}
									onValueChange={field.onChange}
									onBlur={field.onBlur}
									ref={field.ref}
									options={roleOptions.filter((option) => option.value !== 'owner' || org.data?.role === 'owner')}
								/>
							)}
						/>
					</Field>
					<DialogFooter>
						<Button variant="outline" onClick={() => setIsOpen(false)}>
							Cancel
						</Button>
						<Button type="submit" isLoading={invite.isPending}>
							Send invitation
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}

const roleWithArticle = { owner: 'an owner', admin: 'an admin', member: 'a member' } as const
