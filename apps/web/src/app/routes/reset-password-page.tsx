import { passwordSchema } from '@blocksmith/contracts/common.ts'
import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { Link, useSearchParams } from 'react-router'
import { z } from 'zod'
import { AuthLayout } from '#src/app/layouts/auth-layout.tsx'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { showFieldErrors } from '#src/components/ui/form-errors.ts'
import { Input } from '#src/components/ui/input.tsx'
import { resetPassword } from '#src/core/auth/api/account.ts'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { useAsyncAction } from '#src/lib/use-async-action.ts'

const schema = z
	.object({ password: passwordSchema, confirmation: z.string() })
	.refine((values) => values.password === values.confirmation, {
		path: ['confirmation'],
		message: 'The passwords do not match.',
	})
type Values = z.infer<typeof schema>

export function ResetPasswordPage() {
	const [params] = useSearchParams()
	const token = params.get('token') ?? ''
	// Set by the link that follows a subscription bought before having an account: its first password.
	const isWelcome = params.get('welcome') === '1'
	const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: { password: '', confirmation: '' } })
	const action = useAsyncAction((values: Values) => resetPassword({ token, password: values.password }), {
		onError: (error) => error instanceof ApiError && showFieldErrors(error, form.setError, ['password']),
	})
	const isTokenBad = !token || (action.error instanceof ApiError && action.error.code === 'INVALID_TOKEN')
	const otherError =
		action.isError && !isTokenBad && !(action.error instanceof ApiError && action.error.fieldErrors.length > 0)
			? errorMessage(action.error)
			: null

	if (action.isSuccess) {
		return (
			<AuthLayout
				title={isWelcome ? 'Password saved' : 'Password changed'}
				description={isWelcome ? 'Your account is ready.' : 'Your other sessions were signed out.'}
			>
				<Button asChild className="w-full">
					<Link to={paths.login}>{isWelcome ? 'Sign in' : 'Sign in with your new password'}</Link>
				</Button>
			</AuthLayout>
		)
	}
	return (
		<AuthLayout title={isWelcome ? 'Choose your password' : 'Choose a new password'}>
			{isTokenBad ? (
				<Alert
					variant="error"
					title="This link can't be used"
					action={
						<Button asChild variant="outline" size="sm">
							<Link to={paths.forgotPassword}>Send a new link</Link>
						</Button>
					}
				>
					Reset links work once and for one hour.
				</Alert>
			) : (
				<form className="grid gap-4" noValidate onSubmit={form.handleSubmit((values) => action.run(values))}>
					{otherError ? <Alert variant="error">{otherError}</Alert> : null}
					<Field label="New password" description="At least 8 characters." error={form.formState.errors.password}>
						<Input type="password" autoComplete="new-password" autoFocus {...form.register('password')} />
					</Field>
					<Field label="Repeat the password" error={form.formState.errors.confirmation}>
						<Input type="password" autoComplete="new-password" {...form.register('confirmation')} />
					</Field>
					<Button type="submit" className="w-full" isLoading={action.isPending}>
						Change password
					</Button>
				</form>
			)}
		</AuthLayout>
	)
}
