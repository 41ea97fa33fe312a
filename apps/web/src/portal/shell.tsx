import type { PortalMe } from '@blocksmith/contracts/portals.ts'
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react'
import { setTitle } from './branding.ts'
import { ChartsSection } from './charts-view.tsx'
import { FormView } from './form-view.tsx'
import { billingTitle, InvoicesView } from './invoices-view.tsx'
import { PageView } from './page-view.tsx'
import { PortalApiError } from './portal-api.ts'
import { updatedAgo, usePortal, useResource } from './portal-context.tsx'
import { formsSegment, invoicesSegment, Link, portalHref, type Route } from './router.tsx'
import { RowPage } from './row-page.tsx'
import { buttonClasses, cardClasses, inputClasses, Loading, Message, Notice, secondaryButtonClasses } from './ui.tsx'

// The signed-in portal: the header (logo, name, the pages, the member's menu), the page showing,
// and when the data was last read from the workspace.

export function Shell({ route }: { route: Route }) {
	const { call, basePath, info } = usePortal()
	const me = useResource('me', (signal) => call<PortalMe>('/me', { signal }))

	if (me.status === 'loading') {
		return <Loading />
	}
	if (me.status === 'error') {
		// A 401 has already sent the member to sign in.
		return <Message title="This portal could not be loaded">{me.error.message}</Message>
	}
	const { pages } = me.data
	const active =
		route.name === 'page' || route.name === 'row'
			? portalHref(basePath, route.pageId)
			: route.name === 'form'
				? portalHref(basePath, formsSegment, route.formId)
				: route.name === 'invoices'
					? portalHref(basePath, invoicesSegment)
					: null
	const navItems = [
		...pages.map((page) => ({ href: portalHref(basePath, page.id), title: page.title })),
		...(me.data.hasInvoices ? [{ href: portalHref(basePath, invoicesSegment), title: billingTitle }] : []),
		...me.data.forms.map((form) => ({ href: portalHref(basePath, formsSegment, form.id), title: form.title })),
	]

	let content: ReactNode
	if (route.name === 'page') {
		content = <PageView key={route.pageId} pageId={route.pageId} />
	} else if (route.name === 'row') {
		content = <RowPage key={`${route.pageId}/${route.rowId}`} pageId={route.pageId} rowId={route.rowId} />
	} else if (route.name === 'invoices') {
		content = me.data.hasInvoices ? (
			<InvoicesView />
		) : (
			<Message title="Nothing here">This portal does not show invoices.</Message>
		)
	} else if (route.name === 'form') {
		content = <FormView key={route.formId} formId={route.formId} me={me.data} />
	} else if (route.name === 'home') {
		content = <Home me={me.data} />
	} else {
		content = <Message title="Nothing here">This address is not a page of {info.name}.</Message>
	}

	const updated = updatedAgo(me.data.lastSyncedAt)
	return (
		<div className="flex min-h-dvh flex-col">
			<a
				href="#portal-main"
				className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-10 focus:rounded focus:bg-card focus:px-3 focus:py-2"
			>
				Skip to content
			</a>
			<header className="border-b border-border bg-card">
				<div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
					<Link
						href={`${basePath}/`}
						className="flex min-w-0 items-center gap-2 rounded-sm font-semibold focus-visible:outline-2 focus-visible:outline-ring"
					>
						{info.logoUrl ? <img src={info.logoUrl} alt="" className="h-8 w-8 rounded object-contain" /> : null}
						<span className="truncate">{info.name}</span>
					</Link>
					<nav aria-label="Pages" className="order-3 w-full overflow-x-auto sm:order-none sm:w-auto sm:flex-1">
						<ul className="flex gap-1">
							{navItems.map((item) => (
								<li key={item.href}>
									<Link
										href={item.href}
										aria-current={item.href === active ? 'page' : undefined}
										className="block whitespace-nowrap rounded-md px-3 py-1.5 text-sm text-muted-foreground hover:bg-accent hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring aria-[current=page]:bg-accent aria-[current=page]:font-medium aria-[current=page]:text-foreground"
									>
										{item.title}
									</Link>
								</li>
							))}
						</ul>
					</nav>
					<MemberMenu me={me.data} />
				</div>
			</header>
			<main id="portal-main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-6">
				{content}
			</main>
			{updated ? (
				<footer className="mx-auto w-full max-w-6xl px-4 pb-6 text-xs text-muted-foreground">
					<time dateTime={me.data.lastSyncedAt ?? undefined}>{updated}</time>
				</footer>
			) : null}
		</div>
	)
}

function Home({ me }: { me: PortalMe }) {
	const { basePath, info } = usePortal()
	useEffect(() => setTitle(info.name), [info.name])
	return (
		<div className="space-y-6">
			<div>
				<h1 className="text-2xl font-semibold">Welcome{me.member.name ? `, ${me.member.name}` : ''}</h1>
				{me.member.companyName ? <p className="text-sm text-muted-foreground">{me.member.companyName}</p> : null}
			</div>
			{info.welcome ? <p className="max-w-prose whitespace-pre-line">{info.welcome}</p> : null}
			{me.pages.length === 0 && me.forms.length === 0 && me.charts.length === 0 && !me.hasInvoices ? (
				<p className="text-muted-foreground">Nothing is shared with you yet.</p>
			) : (
				<Cards
					items={[
						...me.pages.map((page) => ({ href: portalHref(basePath, page.id), title: page.title })),
						...(me.hasInvoices ? [{ href: portalHref(basePath, invoicesSegment), title: billingTitle }] : []),
					]}
				/>
			)}
			<ChartsSection charts={me.charts} />
			{me.forms.length > 0 ? (
				<section aria-labelledby="portal-forms" className="space-y-3">
					<h2 id="portal-forms" className="text-lg font-semibold">
						Forms
					</h2>
					<Cards
						items={me.forms.map((form) => ({
							href: portalHref(basePath, formsSegment, form.id),
							title: form.title,
						}))}
					/>
				</section>
			) : null}
		</div>
	)
}

function Cards({ items }: { items: { href: string; title: string }[] }) {
	if (items.length === 0) {
		return null
	}
	return (
		<ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
			{items.map((item) => (
				<li key={item.href}>
					<Link
						href={item.href}
						className={`${cardClasses} block p-4 font-medium hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring`}
					>
						{item.title}
					</Link>
				</li>
			))}
		</ul>
	)
}

function MemberMenu({ me }: { me: PortalMe }) {
	const { call, signOut, info } = usePortal()
	const [hasPassword, setHasPassword] = useState(me.member.hasPassword)
	const [isOpen, setIsOpen] = useState(false)
	const [isSettingPassword, setIsSettingPassword] = useState(false)
	const button = useRef<HTMLButtonElement>(null)
	const container = useRef<HTMLDivElement>(null)
	const menuId = useId()

	useEffect(() => {
		if (!isOpen) {
			return
		}
		const onKey = (event: KeyboardEvent) => {
			if (event.key === 'Escape') {
				setIsOpen(false)
				button.current?.focus()
			}
		}
		const onPointer = (event: PointerEvent) => {
			if (!container.current?.contains(event.target as Node)) {
				setIsOpen(false)
			}
		}
		document.addEventListener('keydown', onKey)
		document.addEventListener('pointerdown', onPointer)
		return () => {
			document.removeEventListener('keydown', onKey)
			document.removeEventListener('pointerdown', onPointer)
		}
	}, [isOpen])

	const endSession = async () => {
		try {
			await call('/auth/sign_out', { json: {} })
		} catch {
			// Signed out here either way; the server's session expires on its own.
		}
		signOut()
	}

	return (
		<div ref={container} className="relative ml-auto">
			<button
				ref={button}
				type="button"
				aria-expanded={isOpen}
				aria-controls={menuId}
				onClick={() => setIsOpen(!isOpen)}
				className="max-w-[14rem] truncate rounded-md px-3 py-1.5 text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
			>
				<span className="sr-only">Account: </span>
				{me.member.name ?? me.member.email}
			</button>
			{isOpen ? (
				<div id={menuId} className={`${cardClasses} absolute right-0 z-20 mt-1 w-56 p-1 shadow-lg`}>
					<p className="truncate px-3 py-2 text-xs text-muted-foreground">{me.member.email}</p>
					{info.allowPasswords ? (
						<button
							type="button"
							className="block w-full rounded px-3 py-2 text-left text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
							onClick={() => {
								setIsOpen(false)
								setIsSettingPassword(true)
							}}
						>
							{hasPassword ? 'Change password' : 'Set a password'}
						</button>
					) : null}
					<button
						type="button"
						className="block w-full rounded px-3 py-2 text-left text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
						onClick={endSession}
					>
						Sign out
					</button>
				</div>
			) : null}
			{isSettingPassword ? (
				<PasswordDialog
					hasPassword={hasPassword}
					onClose={() => {
						setIsSettingPassword(false)
						button.current?.focus()
					}}
					onSaved={() => setHasPassword(true)}
				/>
			) : null}
		</div>
	)
}

function PasswordDialog({
	hasPassword,
	onClose,
	onSaved,
}: {
	hasPassword: boolean
	onClose: () => void
	onSaved: () => void
}) {
	const { call } = usePortal()
	const [password, setPassword] = useState('')
	const [busy, setBusy] = useState(false)
	const [error, setError] = useState<string | null>(null)
	const [isSaved, setIsSaved] = useState(false)
	const inputId = useId()
	const titleId = useId()

	// The title as it opened: saving a first password must not turn it into "Change your password".
	const [hadPassword] = useState(hasPassword)
	const dialog = useRef<HTMLDivElement>(null)

	// A modal keeps focus inside: Tab wraps around its controls; Escape closes it.
	useEffect(() => {
		const onKey = (event: KeyboardEvent) => {
			if (event.key === 'Escape') {
				onClose()
				return
			}
			if (event.key !== 'Tab' || !dialog.current) {
				return
			}
			const focusable = [...dialog.current.querySelectorAll<HTMLElement>('button, input')].filter(
				(element) => !element.hasAttribute('disabled'),
			)
			const first = focusable[0]
			const last = focusable.at(-1)
			if (event.shiftKey && document.activeElement === first) {
				event.preventDefault()
				last?.focus()
			} else if (!event.shiftKey && document.activeElement === last) {
				event.preventDefault()
				first?.focus()
			}
		}
		document.addEventListener('keydown', onKey)
		return () => document.removeEventListener('keydown', onKey)
	}, [onClose])

	const submit = async (event: FormEvent) => {
		event.preventDefault()
		if (password.length < 8) {
			setError('Use at least 8 characters.')
			return
		}
		setBusy(true)
		setError(null)
		try {
			await call('/auth/set_password', { json: { password } })
			setIsSaved(true)
			onSaved()
		} catch (failure) {
			setError(failure instanceof PortalApiError ? failure.message : 'Something went wrong. Try again.')
		} finally {
			setBusy(false)
		}
	}

	return (
		<div className="fixed inset-0 z-30 flex items-start justify-center bg-black/40 px-4 pt-24">
			<div
				ref={dialog}
				role="dialog"
				aria-modal="true"
				aria-labelledby={titleId}
				className={`${cardClasses} w-full max-w-sm p-6`}
			>
				<h2 id={titleId} className="mb-4 text-lg font-semibold">
					{hadPassword ? 'Change your password' : 'Set a password'}
				</h2>
				{isSaved ? (
					<div className="space-y-4">
						<Notice>Password saved. Sign-in links keep working too.</Notice>
						{/* biome-ignore lint/a11y/noAutofocus: the form it replaces had focus; it moves to what is left. */}
						<button type="button" className={buttonClasses} onClick={onClose} autoFocus>
							Done
						</button>
					</div>
				) : (
					<form onSubmit={submit} className="space-y-4">
						<div className="space-y-1.5">
							<label htmlFor={inputId} className="block text-sm font-medium">
								New password
							</label>
							<input
								id={inputId}
								type="password"
								autoComplete="new-password"
								// biome-ignore lint/a11y/noAutofocus: the dialog's one field; focus moves into the dialog as it opens.
								autoFocus
								minLength={8}
								maxLength={128}
								value={password}
								onChange={(event) => setPassword(event.target.value)}
								className={inputClasses}
								aria-describedby={`${inputId}-hint`}
							/>
							<p id={`${inputId}-hint`} className="text-xs text-muted-foreground">
								At least 8 characters.
							</p>
						</div>
						{error ? <Notice tone="error">{error}</Notice> : null}
						<div className="flex justify-end gap-2">
							<button type="button" className={secondaryButtonClasses} onClick={onClose}>
								Cancel
							</button>
							<button type="submit" className={buttonClasses} disabled={busy}>
								{busy ? 'Saving…' : 'Save password'}
							</button>
						</div>
					</form>
				)}
			</div>
		</div>
	)
}
