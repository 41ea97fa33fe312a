import type { PublicForm } from '@blocksmith/contracts/forms.ts'
import { type FormEvent, useId, useState } from 'react'
import { controlClasses } from '#src/components/ui/control-classes.ts'
import { FormCard, primaryButtonClasses } from '../components/form-parts.tsx'
import { PublicApiError, unlockPublicForm } from './public-api.ts'
import { writeUnlock } from './unlock-storage.ts'

// The password screen of a protected form: loaded only by forms that have one (form-page.tsx),
// since the public page has a budget of 100 KB.

export function PasswordScreen({
	form,
	message,
	onUnlocked,
}: {
	form: PublicForm
	message: string | null
	onUnlocked: (form: PublicForm, unlockToken: string) => void
}) {
	const id = useId()
	const [password, setPassword] = useState('')
	const [error, setError] = useState<string | null>(null)
	const [isBusy, setIsBusy] = useState(false)

	const unlock = async (event: FormEvent) => {
		event.preventDefault()
		if (!password) {
			setError('Enter the password.')
			document.getElementById(id)?.focus()
			return
		}
		setIsBusy(true)
		setError(null)
		try {
			const result = await unlockPublicForm(form.id, password)
			writeUnlock(form.id, { token: result.unlockToken, expiresAt: result.expiresAt })
			onUnlocked(result.form, result.unlockToken)
		} catch (caught) {
			setIsBusy(false)
			if (caught instanceof PublicApiError && caught.status === 429) {
				const wait = caught.retryAfterSeconds ? `${Math.ceil(caught.retryAfterSeconds / 60)} minutes` : 'a while'
				setError(`Too many tries. Try again in ${wait}.`)
			} else if (caught instanceof PublicApiError && caught.status !== 0 && caught.status < 500) {
				setError(caught.fieldErrors.find((item) => item.field === 'password')?.message ?? caught.detail)
			} else {
				setError("Couldn't check the password. Check your connection and try again.")
			}
			document.getElementById(id)?.focus()
		}
	}

	return (
		<FormCard>
			<form noValidate onSubmit={unlock} className="grid gap-5">
				<div className="grid gap-1.5">
					{/* The size of the form's own title, which replaces it once the password is right. */}
					<h1 className="font-semibold text-foreground text-xl tracking-tight sm:text-2xl">
						{form.pageTitle || form.name}
					</h1>
					<p className="text-muted-foreground text-sm">
						{message ?? 'This form is password-protected. Enter the password you were given to open it.'}
					</p>
				</div>
				<div className="grid gap-2">
					<label htmlFor={id} className="font-medium text-foreground text-sm">
						Password
					</label>
					<input
						id={id}
						type="password"
						autoComplete="current-password"
						value={password}
						aria-invalid={error ? true : undefined}
						aria-describedby={error ? `${id}-error` : undefined}
						className={`${controlClasses} h-10 py-1 sm:h-9 pointer-coarse:h-10`}
						onChange={(event) => setPassword(event.target.value)}
					/>
					{error ? (
						<p id={`${id}-error`} role="alert" className="text-[13px] text-error">
							{error}
						</p>
					) : null}
				</div>
				<button
					type="submit"
					className={`${primaryButtonClasses} w-full sm:w-auto sm:justify-self-start`}
					disabled={isBusy}
					aria-busy={isBusy || undefined}
				>
					{isBusy ? 'Checking…' : 'Open the form'}
				</button>
			</form>
		</FormCard>
	)
}
