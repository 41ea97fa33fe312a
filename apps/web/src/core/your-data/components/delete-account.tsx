import type { AccountDeletionPreview } from '@blocksmith/contracts/data.ts'
import { useMutation, useQuery } from '@tanstack/react-query'
import { UserX } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '#src/components/ui/card.tsx'
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { signOut } from '#src/core/auth/api/account.ts'
import { orgDetailsQuery } from '#src/core/teams/api/teams.ts'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { useSessionStore } from '#src/lib/session-context.tsx'
import { accountDeletionQuery, deleteAccount } from '../api/data.ts'

const names = (organizations: { name: string }[]) => organizations.map((organization) => organization.name).join(', ')

/**
 * Settings → Profile's danger zone (its own chunk): what deleting the account does to each of its
 * organizations, and the confirmation.
 */
export default function DeleteAccountCard() {
	const preview = useQuery(accountDeletionQuery)
	return (
		<Card className="border-error/40">
			<CardHeader>
				<CardTitle>Delete account</CardTitle>
				<CardDescription>Your account, your sign-ins and your sessions go for good.</CardDescription>
			</CardHeader>
			{preview.isPending ? (
				<CardContent>
					<Skeleton className="h-12" />
				</CardContent>
			) : preview.isError ? (
				<CardContent>
					<Alert variant="error">{errorMessage(preview.error)}</Alert>
				</CardContent>
			) : (
				<Consequences preview={preview.data} />
			)}
		</Card>
	)
}

function Consequences({ preview }: { preview: AccountDeletionPreview }) {
	// Loaded with the shell: whether the organization to hand over is the one being worked in.
	const org = useQuery(orgDetailsQuery)
	if (preview.blockedBy.length > 0) {
		const isElsewhere = preview.blockedBy.some((blocked) => blocked.id !== org.data?.id)
		return (
			<CardContent>
				<Alert variant="warning" title="Another owner is needed first">
					You are the only owner of {names(preview.blockedBy)}, which {preview.blockedBy.length === 1 ? 'has' : 'have'}{' '}
					other members. Make one of them an owner in <Link to={`${paths.settings}?tab=members`}>Members</Link>
					{isElsewhere ? ' (switch to that organization first)' : ''}, or delete the organization; then you can delete
					your account.
				</Alert>
			</CardContent>
		)
	}
	return (
		<>
			<CardContent>
				<OrganizationsAffected preview={preview} />
			</CardContent>
			<CardFooter>
				<DeleteAccountDialog preview={preview} />
			</CardFooter>
		</>
	)
}

/** What happens to each organization: on the card, and again in the dialog that confirms it. */
function OrganizationsAffected({ preview }: { preview: AccountDeletionPreview }) {
	return (
		<div className="grid gap-1 text-sm">
			{preview.deletesOrganizations.length > 0 ? (
				<p>
					Deleted with it, as you are their only member: <strong>{names(preview.deletesOrganizations)}</strong>.
				</p>
			) : null}
			{preview.leavesOrganizations.length > 0 ? (
				<p>
					You leave <strong>{names(preview.leavesOrganizations)}</strong>; their data stays with the team.
				</p>
			) : null}
		</div>
	)
}

/** The server's refusals, in words that say what to do. */
function describeFailure(error: unknown): string {
	if (error instanceof ApiError && error.code === 'SOLE_OWNER') {
		return `${error.detail} Make another member an owner first.`
	}
	if (error instanceof ApiError && error.code === 'REAUTHENTICATE') {
		return 'For your safety this needs a recent sign-in: sign in again, then delete your account.'
	}
	return errorMessage(error)
}

function DeleteAccountDialog({ preview }: { preview: AccountDeletionPreview }) {
	const session = useSessionStore()
	const navigate = useNavigate()
	const [isOpen, setIsOpen] = useState(false)
	const [password, setPassword] = useState('')
	const remove = useMutation({
		mutationFn: () => deleteAccount(preview.hasPassword ? password : undefined),
		meta: { isErrorShownInPage: true },
		onSuccess: async () => {
			session.clear()
			toast.success('Your account was deleted')
			await navigate(paths.login, { replace: true })
		},
	})
	const error = remove.error
	const passwordError =
		error instanceof ApiError
			? (error.fieldErrors.find((item) => item.field === 'password')?.message ??
				(error.code === 'INVALID_CREDENTIALS' ? 'This is not your password.' : undefined))
			: undefined
	const needsSignIn =
		(!preview.hasPassword && !preview.isRecentSignIn) || (error instanceof ApiError && error.code === 'REAUTHENTICATE')

	async function signInAgain() {
		await signOut()
		session.clear()
		await navigate(paths.login, { replace: true })
	}
	function submit(event: FormEvent) {
		event.preventDefault()
		remove.mutate()
	}

	return (
		<Dialog
			open={isOpen}
			onOpenChange={(open) => {
				setIsOpen(open)
				setPassword('')
				remove.reset()
			}}
		>
			<DialogTrigger asChild>
				<Button variant="destructive">
					<UserX aria-hidden /> Delete account
				</Button>
			</DialogTrigger>
			<DialogContent
				title="Delete your account?"
				description="This cannot be undone. Export anything you need from your organizations first."
			>
				<form className="grid gap-4" noValidate onSubmit={submit}>
					<OrganizationsAffected preview={preview} />
					{preview.hasPassword ? (
						<Field label="Password" error={passwordError}>
							<Input
								type="password"
								autoComplete="current-password"
								value={password}
								onChange={(event) => setPassword(event.target.value)}
							/>
						</Field>
					) : needsSignIn ? (
						<p className="text-sm">
							Your account has no password, so deleting it needs a sign-in of the last few minutes. Sign in again, then
							come back here.
						</p>
					) : (
						<p className="text-sm">You signed in a moment ago: no password is needed.</p>
					)}
					{error && !passwordError ? <Alert variant="error">{describeFailure(error)}</Alert> : null}
					<DialogFooter>
						<DialogClose asChild>
							<Button variant="outline">Cancel</Button>
						</DialogClose>
						{needsSignIn && !preview.hasPassword ? (
							<Button onClick={() => void signInAgain()}>Sign in again</Button>
						) : (
							<Button
								type="submit"
								variant="destructive"
								disabled={preview.hasPassword && !password}
								isLoading={remove.isPending}
							>
								Delete my account
							</Button>
						)}
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}
