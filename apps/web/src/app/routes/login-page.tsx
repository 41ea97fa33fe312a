import { Link, Navigate, useSearchParams } from 'react-router'
import { AuthLayout } from '#src/app/layouts/auth-layout.tsx'
import { paths, safeNext } from '#src/app/paths.ts'
import { SignInForm } from '#src/core/auth/components/sign-in-form.tsx'
import { useSession } from '#src/lib/session-context.tsx'

export function LoginPage() {
	const { status } = useSession()
	const [params] = useSearchParams()
	const next = safeNext(params.get('next'))
	// Signed in (here or in another tab): go on to where the user was headed.
	if (status === 'authenticated') {
		return <Navigate to={next} replace />
	}
	const registerLink = params.get('next') ? `${paths.register}?next=${encodeURIComponent(next)}` : paths.register
	return (
		<AuthLayout
			title="Sign in"
			description="Welcome back. Sign in to your workspace."
			footer={
				<>
					New to Blocksmith?{' '}
					<Link className="font-medium text-link hover:underline" to={registerLink}>
						Create an account
					</Link>
				</>
			}
		>
			<SignInForm />
		</AuthLayout>
	)
}
