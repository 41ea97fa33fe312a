import type { PortalPublicInfo, PortalSession } from '@blocksmith/contracts/portals.ts'
import { createContext, useContext, useEffect, useRef, useState } from 'react'
import { PortalApiError } from './portal-api.ts'

// What every part of the signed-in portal reads: where the portal is, its brand, and `call`,
// which sends the member's token and turns a 401 (session ended, member removed) into the
// sign-in page.

export type PortalContextValue = {
	slug: string
	/** `/p/{slug}`, or '' on the portal's custom domain. */
	basePath: string
	info: PortalPublicInfo
	/** A call to /api/portal/{slug}{path} as the member. */
	call: <T>(path: string, options?: { json?: unknown; signal?: AbortSignal }) => Promise<T>
	signIn: (session: PortalSession) => void
	signOut: () => void
}

export const PortalContext = createContext<PortalContextValue | null>(null)

export function usePortal(): PortalContextValue {
	const value = useContext(PortalContext)
	if (!value) {
		throw new Error('usePortal() needs the portal app above it')
	}
	return value
}

export type Resource<T> =
	| { status: 'loading'; data?: undefined; error?: undefined }
	| { status: 'error'; error: PortalApiError; data?: undefined }
	| { status: 'ready'; data: T; error?: undefined }

/** Loads `load()` whenever `key` changes; an older answer never replaces a newer one. */
export function useResource<T>(key: string, load: (signal: AbortSignal) => Promise<T>): Resource<T> {
	const [state, setState] = useState<{ key: string; resource: Resource<T> }>({
		key,
		resource: { status: 'loading' },
	})
	const loadRef = useRef(load)
	loadRef.current = load
	useEffect(() => {
		const controller = new AbortController()
		setState((current) => (current.key === key ? current : { key, resource: { status: 'loading' } }))
		loadRef.current(controller.signal).then(
			(data) => {
				if (!controller.signal.aborted) {
					setState({ key, resource: { status: 'ready', data } })
				}
			},
			(error: unknown) => {
				if (controller.signal.aborted) {
					return
				}
				const failure =
					error instanceof PortalApiError ? error : new PortalApiError(0, 'UNKNOWN', 'Something went wrong.')
				setState({ key, resource: { status: 'error', error: failure } })
			},
		)
		return () => controller.abort()
	}, [key])
	return state.key === key ? state.resource : { status: 'loading' }
}

/** "Updated 5 minutes ago", from an ISO time; null without one. */
export function updatedAgo(iso: string | null | undefined, now: number = Date.now()): string | null {
	if (!iso) {
		return null
	}
	const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000))
	if (!Number.isFinite(seconds)) {
		return null
	}
	const minutes = Math.floor(seconds / 60)
	const hours = Math.floor(minutes / 60)
	const days = Math.floor(hours / 24)
	const unit = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'} ago`
	if (minutes < 1) {
		return 'Updated just now'
	}
	if (hours < 1) {
		return `Updated ${unit(minutes, 'minute')}`
	}
	if (days < 1) {
		return `Updated ${unit(hours, 'hour')}`
	}
	return `Updated ${unit(days, 'day')}`
}
