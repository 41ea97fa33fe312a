import type { PublicForm } from '@blocksmith/contracts/forms.ts'
import { lazy, type ReactNode, Suspense, useCallback, useEffect, useState } from 'react'
import { FormCard, FormNotice } from '../components/form-parts.tsx'
import { FormView } from '../components/form-view.tsx'
import { ThemeRoot } from '../components/theme-root.tsx'
import { isEmbedded } from './embedded.ts'
import { fetchPublicForm, PublicApiError } from './public-api.ts'
import { readUnlock, writeUnlock } from './unlock-storage.ts'

// Only password-protected forms ask for one: the screen loads with them.
const PasswordScreen = lazy(() => import('./password-screen.tsx').then((m) => ({ default: m.PasswordScreen })))

// The public page of a published form (/forms/{id}): the server writes the page data into the
// HTML; without it (Vite's dev server, a client-side navigation) it is fetched. Around the form:
// the not-found, deleted and closed states, the password screen, and the footer.

/** The JSON block the server writes into form.html (apps/server/src/features/forms/forms.module.ts). */
export type FormPageData =
	| { form: PublicForm }
	| { error: { status: number; code: string; detail: string | undefined } }

type State =
	| { name: 'loading' }
	| { name: 'error'; status: number; code: string; detail: string | undefined }
	| { name: 'locked'; form: PublicForm; message: string | null }
	| { name: 'unlocking'; form: PublicForm }
	| { name: 'open'; form: PublicForm; unlockToken: string | null }

/** The page data the server wrote, or null when there is none (dev server, client navigation). */
export function readPageData(doc: Document = document): FormPageData | null {
	const text = doc.getElementById('blocksmith-page')?.textContent
	if (!text) {
		return null
	}
	try {
		const data = JSON.parse(text) as Partial<{
			form: PublicForm
			error: { status: number; code: string; detail?: string }
		}>
		if (data.form) {
			return { form: data.form }
		}
		if (data.error) {
			return { error: { status: data.error.status, code: data.error.code, detail: data.error.detail } }
		}
	} catch {
		// A damaged block: fetch instead.
	}
	return null
}

function needsPassword(form: PublicForm): boolean {
	return form.acceptingResponses && form.passwordRequired && form.fields === null
}

function stateOf(data: FormPageData): State {
	if ('error' in data) {
		return { name: 'error', ...data.error }
	}
	if (!needsPassword(data.form)) {
		return { name: 'open', form: data.form, unlockToken: null }
	}
	return readUnlock(data.form.id)
		? { name: 'unlocking', form: data.form }
		: { name: 'locked', form: data.form, message: null }
}

function errorNotice(status: number, code: string, detail: string | undefined) {
	// The owner's organization is paused or its subscription ended: neutral, nothing about billing.
	if (code === 'UNAVAILABLE') {
		return { title: 'This form is unavailable right now.', message: null }
	}
	if (status === 410 || code === 'FORM_DELETED') {
		return { title: 'This form was deleted', message: detail || 'Its owner deleted it, so it no longer takes answers.' }
	}
	if (status === 404 || code === 'NOT_FOUND') {
		return {
			title: "This form isn't available",
			message:
				detail || 'It may have been unpublished, or the link may be wrong. Check the link with whoever shared it.',
		}
	}
	return {
		title: "This form couldn't be loaded",
		message: detail || 'Something went wrong. Reload the page to try again.',
	}
}

function Footer() {
	return (
		<footer className="text-muted-foreground text-xs">
			<a href="/" className="inline-flex items-center gap-1.5 rounded-sm hover:underline">
				Made with{' '}
				{/* The product mark, drawn here: app/brand.tsx brings tailwind-merge, which this page does without. */}
				<svg viewBox="0 0 32 32" className="size-5 shrink-0" aria-hidden="true">
					<rect width="32" height="32" rx="7" fill="#4338ca" />
					<rect x="7" y="7" width="8" height="8" rx="2" fill="#fff" />
					<rect x="17" y="7" width="8" height="8" rx="2" fill="#fff" fillOpacity=".55" />
					<rect x="7" y="17" width="8" height="8" rx="2" fill="#fff" fillOpacity=".55" />
					<rect x="17" y="17" width="8" height="8" rx="2" fill="#fbbf24" />
				</svg>
				<span className="font-semibold text-foreground tracking-tight">Blocksmith</span>
			</a>
		</footer>
	)
}

/**
 * The whole public page. `initial` is the server's page data when there is some; `idOrSlug`
 * (from the address) is used to fetch it otherwise.
 */
export function FormPage({ idOrSlug, initial = null }: { idOrSlug: string; initial?: FormPageData | null }) {
	const [state, setState] = useState<State>(() => (initial ? stateOf(initial) : { name: 'loading' }))

	useEffect(() => {
		if (initial) {
			return
		}
		let isCurrent = true
		fetchPublicForm(idOrSlug).then(
			(form) => {
				if (isCurrent) {
					document.title = form.pageTitle || form.name
					setState(stateOf({ form }))
				}
			},
			(error: unknown) => {
				if (isCurrent) {
					const problem =
						error instanceof PublicApiError
							? error
							: new PublicApiError({ status: 0, code: 'NETWORK', detail: 'Could not reach the server.' })
					setState({ name: 'error', status: problem.status, code: problem.code, detail: problem.detail })
				}
			},
		)
		return () => {
			isCurrent = false
		}
	}, [idOrSlug, initial])

	// A token kept from earlier in this tab: the fields come with it, or (expired, password
	// changed) the password is asked again.
	const unlockingForm = state.name === 'unlocking' ? state.form : null
	useEffect(() => {
		if (!unlockingForm) {
			return
		}
		const token = readUnlock(unlockingForm.id)
		let isCurrent = true
		fetchPublicForm(unlockingForm.id, token).then(
			(form) => {
				if (!isCurrent) {
					return
				}
				if (token && form.fields !== null) {
					setState({ name: 'open', form, unlockToken: token })
				} else {
					writeUnlock(unlockingForm.id, null)
					setState({ name: 'locked', form, message: null })
				}
			},
			() => {
				if (isCurrent) {
					setState({ name: 'locked', form: unlockingForm, message: null })
				}
			},
		)
		return () => {
			isCurrent = false
		}
	}, [unlockingForm])

	const onUnlocked = useCallback((form: PublicForm, unlockToken: string) => {
		setState({ name: 'open', form, unlockToken })
	}, [])

	const openForm = state.name === 'open' ? state.form : null
	const onPasswordRequired = useCallback(() => {
		if (openForm) {
			writeUnlock(openForm.id, null)
			setState({
				name: 'locked',
				form: { ...openForm, fields: null },
				message: 'Your access to this form has expired. Enter the password again: your answers are kept.',
			})
		}
	}, [openForm])

	const loading = (
		<FormCard>
			<p role="status" className="py-8 text-center text-muted-foreground text-sm">
				Loading the form…
			</p>
		</FormCard>
	)
	let content: ReactNode
	switch (state.name) {
		case 'loading':
		case 'unlocking':
			content = loading
			break
		case 'error':
			content = <FormNotice {...errorNotice(state.status, state.code, state.detail)} />
			break
		case 'locked':
			content = (
				<Suspense fallback={loading}>
					<PasswordScreen form={state.form} message={state.message} onUnlocked={onUnlocked} />
				</Suspense>
			)
			break
		case 'open':
			content = (
				<FormView
					key={state.form.id}
					form={state.form}
					mode="live"
					unlockToken={state.unlockToken}
					onPasswordRequired={onPasswordRequired}
				/>
			)
			break
	}

	// Embedded, the page is as tall as the form (the frame follows it), not as tall as the frame.
	const frame = isEmbedded() ? 'py-3 sm:py-4' : 'min-h-dvh py-6 sm:py-12'
	const theme = 'form' in state ? state.form.theme : null
	return (
		<div
			className={`flex flex-col items-center gap-8 px-3 sm:px-4 ${theme?.backgroundColor ? '' : 'bg-muted/40'} ${frame}`}
			style={theme?.backgroundColor ? { backgroundColor: theme.backgroundColor } : undefined}
		>
			<main className="w-full max-w-2xl">
				<ThemeRoot theme={theme}>{content}</ThemeRoot>
			</main>
			{/* Outside the theme's root: the author's CSS cannot reach it. */}
			{theme?.showBranding === false ? null : <Footer />}
		</div>
	)
}
