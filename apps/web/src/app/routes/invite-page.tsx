import { hashKey, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Users } from 'lucide-react'
import { useEffect, useState } from 'react'
import { Link, useNavigate, useParams, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { AuthLayout } from '#src/app/layouts/auth-layout.tsx'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { signOut } from '#src/core/auth/api/account.ts'
import { SignInForm } from '#src/core/auth/components/sign-in-form.tsx'
import { SignUpForm } from '#src/core/auth/components/sign-up-form.tsx'
import { acceptInvitation, invitationPreviewQuery } from '#src/core/teams/api/teams.ts'
import { useSession, useSessionStore } from '#src/lib/session-context.tsx'

/** The link from an invitation e-mail: sign in or sign up as the invited address, then join. */
export function InvitePage() {
	const { id = '' } = useParams()
	const [params] = useSearchParams()
	const linkToken = params.get('token')
	const session = useSession()
	const sessionStore = useSessionStore()
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const preview = useQuery(invitationPreviewQuery(id))
	const [mode, setMode] = useState<'sign-in' | 'sign-up' | null>(null)
	// Signed up from the link, and so already in the team: straight home, no "Join" step.
	const [hasSignedUp, setHasSignedUp] = useState(false)
	const isSignedIn = session.status === 'authenticated'
	const organizationName = preview.data?.organizationName
	useEffect(() => {
		if (hasSignedUp && isSignedIn) {
			toast.success(`You joined ${organizationName ?? 'the team'}.`)
			void navigate(paths.home, { replace: true })
		}
	}, [hasSignedUp, isSignedIn, organizationName, navigate])
	const accept = useMutation({
		mutationFn: () => acceptInvitation(id, linkToken),
		onSuccess: async () => {
			await sessionStore.refresh()
			// Everything else belongs to the new organization now. Not the invitation itself: it is
			// used up, so reading it again fails (410) and would toast an error over the welcome.
			const previewHash = hashKey(invitationPreviewQuery(id).queryKey)
			await queryClient.invalidateQueries({ predicate: (query) => query.queryHash !== previewHash })
			toast.success(`You joined ${preview.data?.organizationName ?? 'the team'}.`)
			await navigate(paths.home)
		},
	})

	if (preview.isPending || hasSignedUp) {
		return (
			<AuthLayout title="Invitation">
				<Skeleton className="h-24" />
			</AuthLayout>
		)
	}
	if (preview.isError) {
		// Said here, once (the query keeps out of the error toasts), with the way in.
		return (
			<AuthLayout title="Invitation">
				<div className="grid gap-4">
					<Alert variant="warning" title="This invitation link can no longer be used">
						It was already accepted, or it was revoked or expired.{' '}
						{isSignedIn
							? 'If you accepted it, the team is in your organization menu.'
							: 'If you accepted it, sign in to reach the team; if not, ask whoever invited you for a new link.'}
					</Alert>
					<Button asChild className="w-full">
						{isSignedIn ? <Link to={paths.home}>Go to Blocksmith</Link> : <Link to={paths.login}>Sign in</Link>}
					</Button>
				</div>
			</AuthLayout>
		)
	}

	const invitation = preview.data
	const heading = `Join ${invitation.organizationName}`
	const who = invitation.inviterName ? `${invitation.inviterName} invited you` : 'You are invited'
	const description = `${who} to join ${invitation.organizationName} on Blocksmith as ${roleWithArticle[invitation.role]}.`

	if (session.status === 'authenticated' && session.user) {
		const isRecipient = session.user.email.toLowerCase() === invitation.email.toLowerCase()
		return (
			<AuthLayout title={heading} description={description}>
				{isRecipient ? (
					<Button className="w-full" isLoading={accept.isPending} onClick={() => accept.mutate()}>
						<Users aria-hidden /> Join {invitation.organizationName}
					</Button>
				) : (
					<div className="grid gap-4">
						<Alert variant="warning">
							You are signed in as {session.user.email}, but this invitation is for {invitation.email}.
						</Alert>
						<Button
							variant="outline"
							className="w-full"
							onClick={async () => {
								await signOut()
								sessionStore.clear()
							}}
						>
							Sign out and continue as {invitation.email}
						</Button>
					</div>
				)}
			</AuthLayout>
		)
	}

	const current = mode ?? (invitation.hasAccount ? 'sign-in' : 'sign-up')
	const switchTo = (next: 'sign-in' | 'sign-up', label: string) => (
		<button type="button" className="font-medium text-link hover:underline" onClick={() => setMode(next)}>
			{label}
		</button>
	)
	return (
		<AuthLayout
			title={heading}
			description={description}
			footer={
				current === 'sign-in' ? (
					<>No account yet? {switchTo('sign-up', 'Create one')}</>
				) : (
					<>Already have an account? {switchTo('sign-in', 'Sign in')}</>
				)
			}
		>
			{current === 'sign-in' ? (
				<>
					<p className="mb-4 text-muted-foreground text-sm">
						Sign in as <span className="font-medium text-foreground">{invitation.email}</span> to accept.
					</p>
					<SignInForm defaultEmail={invitation.email} />
				</>
			) : linkToken ? (
				<>
					<p className="mb-4 text-muted-foreground text-sm">
						Create your account as <span className="font-medium text-foreground">{invitation.email}</span>: you join{' '}
						{invitation.organizationName} as you do.
					</p>
					<SignUpForm
						invitation={{ id, token: linkToken, email: invitation.email }}
						onSignedUp={() => setHasSignedUp(true)}
					/>
				</>
			) : (
				<Alert variant="warning">
					This link is missing part of the address from the e-mail. Open the invitation from the e-mail we sent to{' '}
					{invitation.email}.
				</Alert>
			)}
			<p className="mt-4 text-center text-muted-foreground text-xs">
				<Link to={paths.home} className="hover:underline">
					Not now
				</Link>
			</p>
		</AuthLayout>
	)
}

const roleWithArticle = { owner: 'an owner', admin: 'an admin', member: 'a member' } as const
