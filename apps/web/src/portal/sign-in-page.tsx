import type { PortalSession } from '@blocksmith/contracts/portals.ts'
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { setTitle } from './branding.ts'
import { PortalApiError, portalRequest } from './portal-api.ts'
import { usePortal } from './portal-context.tsx'
import { navigate } from './router.tsx'
import { buttonClasses, cardClasses, inputClasses, linkClasses, Notice } from './ui.tsx'

// The member's way in: a magic link by e-mail (the answer is the same whatever the address, so
// the page never tells who is a member), a password when the portal allows them, and the landing
// of a mailed link (`/sign-in?token=…`), verified once and removed from the address bar and the
// history before anything else.

type Mode = 'link' | 'password'

function errorText(error: unknown): string {
	if (error instanceof PortalApiError) {
		if (error.status === 429) {
			return 'Too many attempts. Wait a few minutes, then try again.'
		}
		return error.message
	}
	return 'Something went wrong. Try again.'
}

export function SignInPage({ token, notice = null }: { token: string | null; notice?: string | null }) {
	const { slug, basePath, info, signIn } = usePortal()
	const [mode, setMode] = useState<Mode>('link')
	const [email, setEmail] = useState('')
	const [password, setPassword] = useState('')
	const [sentTo, setSentTo] = useState<string | null>(null)
	const [busy, setBusy] = useState(false)
	const [error, setError] = useState<string | null>(null)
	const [linkState, setLinkState] = useState<'none' | 'verifying' | 'invalid'>(token ? 'verifying' : 'none')
	const verified = useRef<string | null>(null)
	const emailId = useId()
	const passwordId = useId()

	useEffect(() => setTitle('Sign in', info.name), [info.name])

	useEffect(() => {
		if (!token || verified.current === token) {
			return
		}
		// Once per token, even when React runs effects twice: a second verify would find it used.
		verified.current = token
		// Out of the address bar and the history at once: a link left there could be read by
		// whoever uses the browser next (it is single use, but it must not be found either).
		window.history.replaceState(null, '', `${basePath}/sign-in`)
		portalRequest<PortalSession>(slug, '/auth/verify', { json: { token } }).then(
			(session) => {
				signIn(session)
				navigate(`${basePath}/`, { replace: true })
			},
			(failure: unknown) => {
				if (failure instanceof PortalApiError && failure.code === 'INVALID_TOKEN') {
					setLinkState('invalid')
					return
				}
				// Not the link's fault (offline, rate limited, a server error): it may still work.
				setLinkState('none')
				setError(`${errorText(failure)} Open the link in your e-mail again, or get a new one here.`)
			},
		)
	}, [token, slug, basePath, signIn])

	const submit = async (event: FormEvent) => {
		event.preventDefault()
		setBusy(true)
		setError(null)
		try {
			if (mode === 'link') {
				await portalRequest(slug, '/auth/magic_link', { json: { email } })
				setSentTo(email)
			} else {
				const session = await portalRequest<PortalSession>(slug, '/auth/password', { json: { email, password } })
				signIn(session)
				navigate(`${basePath}/`, { replace: true })
			}
		} catch (failure) {
			setError(
				failure instanceof PortalApiError && failure.status === 401
					? 'That e-mail and password do not match. Try again, or get a sign-in link instead.'
					: errorText(failure),
			)
		} finally {
			setBusy(false)
		}
	}

	if (linkState === 'verifying') {
		return (
			<Frame>
				<p role="status" className="text-sm text-muted-foreground">
					Signing you in…
				</p>
			</Frame>
		)
	}

	return (
		<Frame>
			{info.welcome ? <p className="mb-4 whitespace-pre-line text-sm text-muted-foreground">{info.welcome}</p> : null}
			{notice && linkState === 'none' && !sentTo ? (
				<div className="mb-4">
					<Notice>{notice}</Notice>
				</div>
			) : null}
			{linkState === 'invalid' ? (
				<div className="mb-4">
					<Notice tone="error">
						This sign-in link has expired or was already used. Enter your e-mail to get a new one.
					</Notice>
				</div>
			) : null}
			{sentTo ? (
				<div className="space-y-3" role="status">
					<h2 className="text-lg font-semibold">Check your inbox</h2>
					<p className="text-sm text-muted-foreground">
						If <strong className="text-foreground">{sentTo}</strong> has access to this portal, we have sent it a
						sign-in link. The link works once and expires in 30 minutes.
					</p>
					<button type="button" className={linkClasses} onClick={() => setSentTo(null)}>
						Use another e-mail
					</button>
				</div>
			) : (
				<form onSubmit={submit} className="space-y-4">
					<div className="space-y-1.5">
						<label htmlFor={emailId} className="block text-sm font-medium">
							E-mail
						</label>
						<input
							id={emailId}
							type="email"
							required
							autoComplete="email"
							value={email}
							onChange={(event) => setEmail(event.target.value)}
							className={inputClasses}
						/>
					</div>
					{mode === 'password' ? (
						<div className="space-y-1.5">
							<label htmlFor={passwordId} className="block text-sm font-medium">
								Password
							</label>
							<input
								id={passwordId}
								type="password"
								required
								autoComplete="current-password"
								value={password}
								onChange={(event) => setPassword(event.target.value)}
								className={inputClasses}
							/>
						</div>
					) : null}
					{error ? <Notice tone="error">{error}</Notice> : null}
					<button type="submit" className={`${buttonClasses} w-full`} disabled={busy}>
						{mode === 'link' ? (busy ? 'Sending…' : 'Send me a sign-in link') : busy ? 'Signing in…' : 'Sign in'}
					</button>
					{info.allowPasswords ? (
						<button
							type="button"
							className={`${linkClasses} text-sm`}
							onClick={() => {
								setMode(mode === 'link' ? 'password' : 'link')
								setError(null)
							}}
						>
							{mode === 'link' ? 'Sign in with a password instead' : 'E-mail me a sign-in link instead'}
						</button>
					) : null}
				</form>
			)}
		</Frame>
	)
}

function Frame({ children }: { children: ReactNode }) {
	const { info } = usePortal()
	return (
		<main className="flex min-h-dvh items-start justify-center px-4 py-12 sm:items-center">
			<div className={`${cardClasses} w-full max-w-sm p-6 shadow-sm`}>
				<div className="mb-6 flex items-center gap-3">
					{info.logoUrl ? <img src={info.logoUrl} alt="" className="h-10 w-10 rounded object-contain" /> : null}
					<h1 className="text-xl font-semibold">Sign in to {info.name}</h1>
				</div>
				{children}
			</div>
		</main>
	)
}
