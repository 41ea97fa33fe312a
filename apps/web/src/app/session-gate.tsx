import type { ReactNode } from 'react'
import { useSession, useSessionStore } from '#src/lib/session-context.tsx'

/** Nothing renders until the server has answered about the stored token (the spec's rule). */
export function SessionGate({ children }: { children: ReactNode }) {
	const { status } = useSession()
	const store = useSessionStore()
	if (status === 'loading') {
		return null
	}
	if (status === 'offline') {
		return (
			<main className="mx-auto flex min-h-dvh max-w-md flex-col items-center justify-center gap-4 p-6 text-center">
				<h1 className="font-semibold text-2xl">Can't reach Blocksmith</h1>
				<p className="text-muted-foreground">Check your connection, then try again.</p>
				<button type="button" className="underline" onClick={() => void store.retry()}>
					Try again
				</button>
			</main>
		)
	}
	return children
}
