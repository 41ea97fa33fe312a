import { useEffect, useRef, useState } from 'react'
import { Link, Navigate, useSearchParams } from 'react-router'
import { AuthLayout } from '#src/app/layouts/auth-layout.tsx'
import { paths, safeNext } from '#src/app/paths.ts'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { finishNotionSignIn, notionSignInErrorMessage } from '#src/core/auth/api/notion-sign-in.ts'
import { ApiError } from '#src/lib/api-client.ts'
import { useSessionStore } from '#src/lib/session-context.tsx'

/** The one-time token the server put in the fragment (never sent to a server, never in a log). */
function tokenInFragment(): string | null {
	return new URLSearchParams(window.location.hash.slice(1)).get('token')
}

/**
 * Where "Continue with Notion" comes back: trades the one-time token for the bearer token,
 * stores it as a password sign-in does, and goes on to where the person was headed.
 */
export function NotionSignInPage() {
	const session = useSessionStore()
	const [params] = useSearchParams()
	const next = safeNext(params.get('next'))
	const [oneTimeToken] = useState(tokenInFragment)
	const [problem, setProblem] = useState<string | null>(
		oneTimeToken ? null : notionSignInErrorMessage('session_not_found'),
	)
	const [isSignedIn, setSignedIn] = useState(false)
	const hasStarted = useRef(false)

	useEffect(() => {
		if (!oneTimeToken || hasStarted.current) {
			return
		}
		hasStarted.current = true
		// The token works once: out of the address bar and the history at once.
		window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}`)
		finishNotionSignIn(oneTimeToken).then(
			({ token, user }) => {
				session.signIn(token, user)
				setSignedIn(true)
			},
			(error: unknown) =>
				setProblem(
					error instanceof ApiError && error.status < 500
						? notionSignInErrorMessage('session_not_found')
						: 'Signing in with Notion did not finish. Try again.',
				),
		)
	}, [oneTimeToken, session])

	if (isSignedIn) {
		return <Navigate to={next} replace />
	}
	return (
		<AuthLayout
			title={problem ? 'Not signed in' : 'Signing you in…'}
			description={problem ? undefined : 'Notion said yes.'}
		>
			{problem ? (
				<div className="grid gap-4">
					<p role="alert" className="rounded-lg border border-error/25 bg-error/5 px-3 py-2.5 text-error text-sm">
						{problem}
					</p>
					<Link className="font-medium text-link text-sm hover:underline" to={paths.login}>
						Back to sign in
					</Link>
				</div>
			) : (
				<p role="status" className="flex items-center gap-2 text-muted-foreground text-sm">
					<Spinner /> Opening your workspace…
				</p>
			)}
		</AuthLayout>
	)
}
