import { Link, Navigate, useSearchParams } from 'react-router'
import { useAppConfig } from '#src/app/app-config-context.tsx'
import { AuthLayout } from '#src/app/layouts/auth-layout.tsx'
import { paths, safeNext } from '#src/app/paths.ts'
import { ContinueWithNotion } from '#src/core/auth/components/continue-with-notion.tsx'
import { SignUpForm } from '#src/core/auth/components/sign-up-form.tsx'
import { useSession } from '#src/lib/session-context.tsx'

export function RegisterPage() {
	const { status } = useSession()
	const { isNotionSignInEnabled } = useAppConfig()
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
					<span className="mt-2 block">
						<Link className="font-medium text-link hover:underline" to={paths.pricing}>
							Plans and pricing
						</Link>
					</span>
				</>
			}
		>
			{isNotionSignInEnabled ? (
				<div className="mb-4">
					<ContinueWithNotion next={safeNext(params.get('next'))} />
				</div>
			) : null}
			<SignUpForm />
		</AuthLayout>
	)
}
