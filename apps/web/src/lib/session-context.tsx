import { createContext, type ReactNode, useContext, useSyncExternalStore } from 'react'
import type { SessionState, SessionStore } from './session.ts'

const SessionContext = createContext<SessionStore | null>(null)

export function SessionProvider({ store, children }: { store: SessionStore; children: ReactNode }) {
	return <SessionContext.Provider value={store}>{children}</SessionContext.Provider>
}

export function useSessionStore(): SessionStore {
	const store = useContext(SessionContext)
	if (!store) {
		throw new Error('useSessionStore outside SessionProvider')
	}
	return store
}

export function useSession(): SessionState {
	const store = useSessionStore()
	return useSyncExternalStore(store.subscribe, store.getSnapshot)
}
