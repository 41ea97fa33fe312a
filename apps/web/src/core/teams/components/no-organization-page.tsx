import { Button } from '#src/components/ui/button.tsx'
import { api } from '#src/lib/api-client.ts'
import { useSession, useSessionStore } from '#src/lib/session-context.tsx'
import CreateOrganizationForm from './create-organization-form.tsx'

/**
 * What the dashboard shows instead of its modules when the account belongs to no organization
 * (its own chunk): the last one was deleted, or its owners removed the person. The account is
 * still there; the ways on are a new organization, an invitation's e-mailed link, or signing out.
 */
export default function NoOrganizationPage() {
	const { user } = useSession()
	const session = useSessionStore()
	return (
		<div className="flex min-h-dvh flex-col items-center bg-muted/40 px-4 py-10">
			<main id="main" className="grid w-full max-w-md gap-6 rounded-xl border bg-card p-6 shadow-sm sm:p-8">
				<div className="grid gap-2 text-center">
					<h1 className="font-semibold text-xl tracking-tight">You're not in an organization any more</h1>
					<p className="text-muted-foreground text-sm">
						The organization you worked in was deleted, or you were removed from it. Your account
						{user ? ` (${user.email})` : ''} is still here: create an organization to start again, with its own data,
						members and plan.
					</p>
				</div>
				<CreateOrganizationForm submitLabel="Create an organization" />
				<p className="border-t pt-4 text-muted-foreground text-sm">
					Invited to a team? Open the invitation from its e-mail to join it: the link brings you in.
				</p>
				<Button
					variant="ghost"
					onClick={async () => {
						// auth/api/account.ts's signOut, spelled out as on the deletion page (the same reason).
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
