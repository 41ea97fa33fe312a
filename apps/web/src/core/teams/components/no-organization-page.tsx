import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { api } from '#src/lib/api-client.ts'
import { useSession, useSessionStore } from '#src/lib/session-context.tsx'
import { createOrganization } from '../api/teams.ts'

/**
 * What the dashboard shows instead of its modules when the account belongs to no organization
 * (its own chunk): the last one was deleted, or its owners removed the person. The account is
 * still there; the ways on are a new organization, an invitation's e-mailed link, or signing out.
 */
export default function NoOrganizationPage() {
	const { user } = useSession()
	const session = useSessionStore()
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const [name, setName] = useState('')
	const create = useMutation({
		mutationFn: createOrganization,
		onSuccess: async (organization) => {
			await session.refresh()
			// Everything read so far was refused for want of an organization: read it all again.
			await queryClient.invalidateQueries()
			toast.success(`Created ${organization.name}.`)
			await navigate('/')
		},
	})

	return (
		<div className="flex min-h-dvh flex-col items-center bg-muted/40 px-4 py-10">
			<main id="main" className="grid w-full max-w-md gap-6 rounded-xl border bg-card p-6 shadow-sm sm:p-8">
				<div className="grid gap-2 text-center">
					<h1 className="font-semibold text-xl tracking-tight">You're not in an organization any more</h1>
					<p className="text-muted-foreground text-sm">
						The organization you worked in was deleted, or you were removed from it. Your account
						{user ? ` (${user.email})` : ''} is still here: create an organization to start again.
					</p>
				</div>
				<form
					className="grid gap-4"
					onSubmit={(event) => {
						event.preventDefault()
						if (name.trim()) {
							create.mutate(name.trim())
						}
					}}
				>
					<Field label="Organization name" description="A fresh start: its own data, members and plan.">
						<Input value={name} onChange={(event) => setName(event.target.value)} maxLength={100} autoFocus />
					</Field>
					<Button type="submit" isLoading={create.isPending} disabled={!name.trim()}>
						Create an organization
					</Button>
				</form>
				<p className="border-t pt-4 text-muted-foreground text-sm">
					Invited to a team? Open the invitation from its e-mail to join it: the link brings you in.
				</p>
				<Button
					variant="ghost"
					onClick={async () => {
						// auth/api/account.ts's signOut, spelled out as on the deletion page: the shell's
						// bundle has no room for what importing it here would split out.
						await api('/api/auth/sign-out', { json: {}, isCredentialCheck: true }).catch(() => {})
						session.clear()
					}}
				>
					Sign out
				</Button>
			</main>
		</div>
	)
}
