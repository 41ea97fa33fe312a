import { type FormEvent, useState } from 'react'
import { Link } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { useSessionStore } from '#src/lib/session-context.tsx'
import { useAsyncAction } from '#src/lib/use-async-action.ts'
import { signIn } from '../api/account.ts'

type Errors = { email?: string; password?: string }

function validate(email: string, password: string): Errors {
	const errors: Errors = {}
	if (!email) {
		errors.email = 'Enter your e-mail address.'
	} else if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
		errors.email = 'Enter a valid e-mail address.'
	}
	if (!password) {
		errors.password = 'Enter your password.'
	}
	return errors
}

/**
 * E-mail and password. On success the session holds the token; the page decides where to go.
 * Two fields need no form library: this is the page most visitors load first, so it carries
 * as little code as it can (bench/web-bundle holds it under 120 KB).
 */
export function SignInForm({ defaultEmail, onSignedIn }: { defaultEmail?: string; onSignedIn?: () => void }) {
	const session = useSessionStore()
	const [errors, setErrors] = useState<Errors>({})
	const action = useAsyncAction(signIn, {
		onSuccess: ({ token, user }) => {
			session.signIn(token, user)
			onSignedIn?.()
		},
	})

	function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault()
		const data = new FormData(event.currentTarget)
		const email = String(data.get('email') ?? '').trim()
		const password = String(data.get('password') ?? '')
		const found = validate(email, password)
		setErrors(found)
		if (found.email || found.password) {
			event.currentTarget.querySelector<HTMLInputElement>(`[name="${found.email ? 'email' : 'password'}"]`)?.focus()
			return
		}
		void action.run({ email, password })
	}

	return (
		<form className="grid gap-4" noValidate onSubmit={submit}>
			{/* A wrong password, a rate limit, a server down: said in the form, where the user is looking. */}
			{action.isError ? (
				<p role="alert" className="rounded-lg border border-error/25 bg-error/5 px-3 py-2.5 text-error text-sm">
					{errorMessage(action.error)}
				</p>
			) : null}
			<Field label="E-mail" error={errors.email}>
				<Input name="email" type="email" autoComplete="email" defaultValue={defaultEmail} autoFocus={!defaultEmail} />
			</Field>
			<Field
				label="Password"
				error={errors.password}
				labelAside={
					<Link className="text-link hover:underline" to={paths.forgotPassword}>
						Forgot password?
					</Link>
				}
			>
				<Input name="password" type="password" autoComplete="current-password" autoFocus={Boolean(defaultEmail)} />
			</Field>
			<Button type="submit" className="mt-2 w-full" isLoading={action.isPending}>
				Sign in
			</Button>
		</form>
	)
}
