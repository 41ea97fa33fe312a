import { passwordSchema } from '@blocksmith/contracts/common.ts'
import { zodResolver } from '@hookform/resolvers/zod'
import { useForm } from 'react-hook-form'
import { z } from 'zod'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { showFieldErrors } from '#src/components/ui/form-errors.ts'
import { Input } from '#src/components/ui/input.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { useSessionStore } from '#src/lib/session-context.tsx'
import { useAsyncAction } from '#src/lib/use-async-action.ts'
import { signUp, signUpFromInvitation } from '../api/account.ts'

const signUpSchema = z.object({
	name: z.string().trim().min(1, 'Tell us your name.').max(100),
	email: z.email('Enter a valid e-mail address.'),
	password: passwordSchema,
})
type SignUpValues = z.infer<typeof signUpSchema>

/** An invitation link's: the invited address, fixed, and the token that proves it. */
type InvitationLink = { id: string; token: string; email: string }

/**
 * Name, e-mail, password. With `invitation` the address is the invited one and cannot change,
 * and the account is made in the team in the same step (no organization of its own).
 * `onSignedUp` runs just before the new session is signed in.
 */
export function SignUpForm({ invitation, onSignedUp }: { invitation?: InvitationLink; onSignedUp?: () => void }) {
	const session = useSessionStore()
	const form = useForm<SignUpValues>({
		resolver: zodResolver(signUpSchema),
		defaultValues: { name: '', email: invitation?.email ?? '', password: '' },
	})
	const action = useAsyncAction(
		(values: SignUpValues) => (invitation ? signUpFromInvitation(invitation, values) : signUp(values)),
		{
			onSuccess: ({ token, user }) => {
				// Told first, so the page knows why the session is about to change.
				onSignedUp?.()
				session.signIn(token, user)
			},
			onError: (error) => {
				if (error instanceof ApiError) {
					if (error.code === 'EMAIL_TAKEN') {
						form.setError('email', { type: 'server', message: 'An account with this e-mail address already exists.' })
						return
					}
					showFieldErrors(error, form.setError, ['name', 'email', 'password'])
				}
			},
		},
	)
	// What no field can show (a rate limit, a server down) is said above the form.
	const error =
		action.isError &&
		!(action.error instanceof ApiError && (action.error.fieldErrors.length > 0 || action.error.code === 'EMAIL_TAKEN'))
			? errorMessage(action.error)
			: null

	return (
		<form className="grid gap-4" noValidate onSubmit={form.handleSubmit((values) => action.run(values))}>
			{error ? <Alert variant="error">{error}</Alert> : null}
			<Field label="Name" error={form.formState.errors.name}>
				<Input autoComplete="name" autoFocus {...form.register('name')} />
			</Field>
			<Field label="E-mail" error={form.formState.errors.email}>
				<Input type="email" autoComplete="email" readOnly={Boolean(invitation)} {...form.register('email')} />
			</Field>
			{/* The hint, or the error that says the same: one of them. */}
			<Field
				label="Password"
				description={form.formState.errors.password ? undefined : 'At least 8 characters.'}
				error={form.formState.errors.password}
			>
				<Input type="password" autoComplete="new-password" {...form.register('password')} />
			</Field>
			<Button type="submit" className="mt-2 w-full" isLoading={action.isPending}>
				Create account
			</Button>
		</form>
	)
}
