import type { User, ValidateTokenResponse } from '@blocksmith/contracts/auth.ts'
import { ApiError, api } from './api-client.ts'
import { readToken, tokenStorageKey, writeToken } from './token-store.ts'

type SessionStatus = 'loading' | 'authenticated' | 'unauthenticated' | 'offline'

export type SessionState = {
	status: SessionStatus
	user: User | null
	token: string | null
}

type Listener = () => void

/**
 * The signed-in user, shared by every component (useSyncExternalStore) and every tab
 * (localStorage + `storage` events). The server is the judge: a token counts only once
 * GET /auth/validate_token has accepted it.
 */
export type SessionStore = ReturnType<typeof createSessionStore>

export function createSessionStore(options: { refreshIntervalSeconds?: number } = {}) {
	let state: SessionState = { status: 'loading', user: null, token: readToken() }
	const listeners = new Set<Listener>()
	let validation = 0

	function set(next: SessionState): void {
		state = next
		for (const listener of listeners) {
			listener()
		}
	}

	async function validate(token: string | null): Promise<void> {
		const run = ++validation
		if (!token) {
			set({ status: 'unauthenticated', user: null, token: null })
			return
		}
		try {
			// No schema parse here: this runs before every first paint, and zod would weigh on it.
			const response = await api<ValidateTokenResponse>('/auth/validate_token', { isCredentialCheck: true })
			if (run === validation && readToken() === token) {
				set({ status: 'authenticated', user: response.data, token })
			}
		} catch (error) {
			if (run !== validation) {
				return
			}
			if (error instanceof ApiError && error.status === 401) {
				writeToken(null)
				set({ status: 'unauthenticated', user: null, token: null })
				return
			}
			// The server could not be reached: keep the token and say so, rather than sign out.
			set({ status: state.status === 'authenticated' ? 'authenticated' : 'offline', user: state.user, token })
		}
	}

	function onStorage(event: StorageEvent): void {
		if (event.key === tokenStorageKey || event.key === null) {
			void validate(readToken())
		}
	}

	function onVisible(): void {
		if (document.visibilityState === 'visible' && state.token) {
			void validate(state.token)
		}
	}

	function onFocus(): void {
		if (state.token) {
			void validate(state.token)
		}
	}

	let timer: ReturnType<typeof setInterval> | undefined

	return {
		getSnapshot: (): SessionState => state,
		subscribe(listener: Listener): () => void {
			listeners.add(listener)
			return () => listeners.delete(listener)
		},
		/** Reads the stored token and asks the server about it; listens to focus and other tabs. */
		start(): () => void {
			void validate(state.token)
			window.addEventListener('storage', onStorage)
			window.addEventListener('focus', onFocus)
			document.addEventListener('visibilitychange', onVisible)
			if (options.refreshIntervalSeconds && options.refreshIntervalSeconds > 0) {
				timer = setInterval(() => {
					if (state.token) {
						void validate(state.token)
					}
				}, options.refreshIntervalSeconds * 1000)
			}
			return () => {
				window.removeEventListener('storage', onStorage)
				window.removeEventListener('focus', onFocus)
				document.removeEventListener('visibilitychange', onVisible)
				clearInterval(timer)
			}
		},
		/** After sign-in or sign-up: store the token and the user it belongs to. */
		signIn(token: string, user: User): void {
			validation++
			writeToken(token)
			set({ status: 'authenticated', user, token })
		},
		/** Forget the token here and in every other tab. */
		clear(): void {
			validation++
			writeToken(null)
			set({ status: 'unauthenticated', user: null, token: null })
		},
		refresh: (): Promise<void> => validate(readToken()),
		retry: (): Promise<void> => validate(readToken()),
	}
}
