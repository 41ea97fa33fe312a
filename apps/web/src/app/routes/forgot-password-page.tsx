import { zodResolver } from '@hookform/resolvers/zod'
import { MailCheck } from 'lucide-react'
import { useForm } from 'react-hook-form'
import { Link } from 'react-router'
import { z } from 'zod'
import { AuthLayout } from '#src/app/layouts/auth-layout.tsx'
import { paths } from '#src/app/paths.ts'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { requestPasswordReset } from '#src/core/auth/api/account.ts'
import { errorMessage } from '#src/lib/api-client.ts'
import { useAsyncAction } from '#src/lib/use-async-action.ts'

const schema = z.object({ email: z.email('Enter your e-mail address.') })

export function ForgotPasswordPage() {
	const form = useForm<z.infer<typeof schema>>({ resolver: zodResolver(schema), defaultValues: { email: '' } })
	const action = useAsyncAction((values: z.infer<typeof schema>) => requestPasswordReset(values.email))
	const back = (
		<Link className="font-medium text-link hover:underline" to={paths.login}>
			Back to sign in
		</Link>
	)
	return (
		<AuthLayout
			title="Reset your password"
			description="Enter the e-mail address of your account and we'll send you a link to choose a new password."
			footer={back}
		>
			{action.isSuccess ? (
				<Alert variant="success" title="Check your inbox">
					<span className="inline-flex items-start gap-2">
						<MailCheck aria-hidden className="mt-0.5 size-4 shrink-0" />
						{action.data}
					</span>
				</Alert>
			) : (
				<form className="grid gap-4" noValidate onSubmit={form.handleSubmit((values) => action.run(values))}>
					{action.isError ? <Alert variant="error">{errorMessage(action.error)}</Alert> : null}
					<Field label="E-mail" error={form.formState.errors.email}>
						<Input type="email" autoComplete="email" autoFocus {...form.register('email')} />
					</Field>
					<Button type="submit" className="w-full" isLoading={action.isPending}>
						Send reset link
					</Button>
				</form>
			)}
		</AuthLayout>
	)
}
