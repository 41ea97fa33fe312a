import type { PortalPublicInfo, PortalSession } from '@blocksmith/contracts/portals.ts'
import { useCallback, useEffect, useMemo, useState } from 'react'
import { applyBranding, watchSystemTheme } from './branding.ts'
import { PortalApiError, portalRequest, readSession, writeSession } from './portal-api.ts'
import { PortalContext, type PortalContextValue, useResource } from './portal-context.tsx'
import { navigate, parseRoute, useLocation } from './router.tsx'
import { Shell } from './shell.tsx'
import { SignInPage } from './sign-in-page.tsx'
import { Loading, Message } from './ui.tsx'

// The portal visitor's app: the portal's public info (brand, whether passwords are allowed), then
// the sign-in page or, with a session, the member's pages. A 401 from any call (the session ended,
// the member was removed) drops the session and returns to sign-in.

export function PortalApp({
	slug,
	basePath,
	signInToken = null,
}: {
	slug: string
	basePath: string
	/** A mailed link's token, already out of the address (router.tsx `takeTokenFromAddress`). */
	signInToken?: string | null
}) {
	const location = useLocation()
	const route = parseRoute(location.pathname, location.search, basePath)
	// Kept until the member leaves the sign-in page, so that only this page verifies it, once.
	const [pendingToken, setPendingToken] = useState(signInToken)
	const linkToken = route.name === 'sign-in' ? (route.token ?? pendingToken) : null
	useEffect(() => {
		if (route.name !== 'sign-in' && pendingToken !== null) {
			setPendingToken(null)
		}
	}, [route.name, pendingToken])
	const info = useResource(`info:${slug}`, (signal) => portalRequest<PortalPublicInfo>(slug, '', { signal }))
	const [session, setSession] = useState<PortalSession | null>(() => readSession(slug))
	const [hasSessionEnded, setHasSessionEnded] = useState(false)
	const token = session?.token ?? null

	const portalInfo = info.status === 'ready' ? info.data : null
	useEffect(() => {
		if (!portalInfo) {
			return
		}
		// The title is each page's own (sign-in, home, a page, a row).
		applyBranding(portalInfo)
		return portalInfo.theme === 'system' ? watchSystemTheme(() => applyBranding(portalInfo)) : undefined
	}, [portalInfo])

	const signIn = useCallback(
		(next: PortalSession) => {
			writeSession(slug, next)
			setSession(next)
			setHasSessionEnded(false)
		},
		[slug],
	)
	const signOut = useCallback(() => {
		writeSession(slug, null)
		setSession(null)
		navigate(`${basePath}/sign-in`, { replace: true })
	}, [slug, basePath])

	const call = useCallback(
		async <T,>(path: string, options: { json?: unknown; signal?: AbortSignal } = {}): Promise<T> => {
			try {
				return await portalRequest<T>(slug, path, { ...options, token })
			} catch (error) {
				if (error instanceof PortalApiError && error.status === 401) {
					writeSession(slug, null)
					setSession(null)
					setHasSessionEnded(true)
					navigate(`${basePath}/sign-in`, { replace: true })
				}
				throw error
			}
		},
		[slug, basePath, token],
	)

	// Signed in and on the sign-in page without a link to verify: the portal's first page instead.
	const isSignedInOnSignIn = session !== null && route.name === 'sign-in' && linkToken === null
	useEffect(() => {
		if (isSignedInOnSignIn) {
			navigate(`${basePath}/`, { replace: true })
		}
	}, [isSignedInOnSignIn, basePath])

	const context = useMemo<PortalContextValue | null>(
		() => (portalInfo ? { slug, basePath, info: portalInfo, call, signIn, signOut } : null),
		[slug, basePath, portalInfo, call, signIn, signOut],
	)

	if (info.status === 'loading') {
		return <Loading />
	}
	if (info.status === 'error' || !context) {
		return info.error?.status === 404 ? (
			<Message title="There is no portal here">Check the address, or ask whoever sent it to you.</Message>
		) : (
			<Message title="This portal could not be loaded">{info.error?.message}</Message>
		)
	}
	const showSignIn = session === null || linkToken !== null
	return (
		<PortalContext value={context}>
			{showSignIn ? (
				<SignInPage
					key={linkToken ?? ''}
					token={linkToken}
					notice={hasSessionEnded ? 'Your session has ended. Sign in again to continue.' : null}
				/>
			) : isSignedInOnSignIn ? (
				<Loading />
			) : (
				<Shell route={route} />
			)}
		</PortalContext>
	)
}
