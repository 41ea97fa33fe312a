import { lazy, Suspense } from 'react'
import { Link, Navigate, useSearchParams } from 'react-router'
import { useAppConfig } from '#src/app/app-config-context.tsx'
import { AuthLayout } from '#src/app/layouts/auth-layout.tsx'
import { paths, safeNext } from '#src/app/paths.ts'
import { SignInForm } from '#src/core/auth/components/sign-in-form.tsx'
import { useSession } from '#src/lib/session-context.tsx'

// Only installs with Notion sign-in load it (the page's first load has a budget, bench/README.md).
const NotionSignInSection = lazy(() =>
	import('#src/core/auth/components/continue-with-notion.tsx').then((module) => ({
		default: module.NotionSignInSection,
	})),
)

export function LoginPage() {
	const { status } = useSession()
	const { isNotionSignInEnabled } = useAppConfig()
	const [params] = useSearchParams()
	// A Notion sign-in that failed comes back here with better-auth's reason.
	const notionError = params.get('error')
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
			<div className="grid gap-4">
				{isNotionSignInEnabled ? (
					// Holds the button's and divider's height while the chunk loads, so the form does not jump.
					<Suspense fallback={<div className="h-[68px]" aria-hidden="true" />}>
						<NotionSignInSection next={next} failure={notionError} />
					</Suspense>
				) : null}
				<SignInForm />
			</div>
		</AuthLayout>
	)
}
