import { useEffect } from 'react'
import { Link, useSearchParams } from 'react-router'
import { AuthLayout } from '#src/app/layouts/auth-layout.tsx'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { confirmEmail } from '#src/core/auth/api/account.ts'
import { useSession, useSessionStore } from '#src/lib/session-context.tsx'
import { useAsyncAction } from '#src/lib/use-async-action.ts'

/** The link from a confirmation e-mail (sign-up, or a change of address) lands here. */
export function ConfirmPage() {
	const [params] = useSearchParams()
	const token = params.get('token') ?? ''
	const { status } = useSession()
	const session = useSessionStore()
	const { run, ...action } = useAsyncAction(confirmEmail, {
		// The user's e-mail or its confirmed flag changed: read the user again.
		onSuccess: () => session.refresh(),
	})

	useEffect(() => {
		if (token) {
			void run(token)
		}
	}, [token, run])

	const next = status === 'authenticated' ? paths.home : paths.login
	return (
		<AuthLayout title="Confirm your e-mail address">
			{!token || action.isError ? (
				<Alert variant="error" title="This link can't be used">
					It may have expired. Sign in and ask for a new confirmation e-mail from your settings.
				</Alert>
			) : action.isSuccess && action.data?.next ? (
				// A subscription bought before having an account: its account is ready, a password comes next.
				<div className="grid gap-4">
					<Alert variant="success">{action.data.message}</Alert>
					<Button asChild className="w-full">
						<Link to={action.data.next}>{action.data.next === paths.login ? 'Sign in' : 'Choose a password'}</Link>
					</Button>
				</div>
			) : action.isSuccess ? (
				<div className="grid gap-4">
					<Alert variant="success">Your e-mail address is confirmed.</Alert>
					<Button asChild className="w-full">
						<Link to={next}>{status === 'authenticated' ? 'Continue' : 'Sign in'}</Link>
					</Button>
				</div>
			) : (
				<div className="flex items-center gap-3 text-muted-foreground text-sm">
					<Spinner /> Confirming…
				</div>
			)}
		</AuthLayout>
	)
}
