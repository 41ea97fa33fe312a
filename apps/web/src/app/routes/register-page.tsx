import { Link, Navigate, useSearchParams } from 'react-router'
import { AuthLayout } from '#src/app/layouts/auth-layout.tsx'
import { paths, safeNext } from '#src/app/paths.ts'
import { SignUpForm } from '#src/core/auth/components/sign-up-form.tsx'
import { useSession } from '#src/lib/session-context.tsx'

export function RegisterPage() {
	const { status } = useSession()
	const [params] = useSearchParams()
	if (status === 'authenticated') {
		return <Navigate to={safeNext(params.get('next'))} replace />
	}
	return (
		<AuthLayout
			title="Create your account"
			description="Start your free trial. No card needed."
			footer={
				<>
					Already have an account?{' '}
					<Link className="font-medium text-link hover:underline" to={paths.login}>
						Sign in
					</Link>
				</>
			}
		>
			<SignUpForm />
		</AuthLayout>
	)
}
