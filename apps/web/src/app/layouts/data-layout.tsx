import { QueryClientProvider } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { Outlet } from 'react-router'
import { createQueryClient } from '#src/lib/query-client.ts'
import { useSession } from '#src/lib/session-context.tsx'

// One cache for the whole tab, made when the first page that reads data loads. Pages that
// load before the dashboard (sign-in and friends) never download React Query.
const queryClient = createQueryClient()

/** Around every page that reads server data: the dashboard and the invitation page. */
export function DataLayout() {
	const { user } = useSession()
	const userId = useRef(user?.id)
	// Another account's data must never show from the cache: drop it when the user changes or
	// signs out. Signing in keeps it: signed out, only public data was read (an invitation), and
	// clearing it then would reload the invitation page under the visitor's cursor, as they join.
	useEffect(() => {
		if (userId.current !== user?.id) {
			const previous = userId.current
			userId.current = user?.id
			if (previous !== undefined) {
				// Reset rather than clear: clearing leaves a page showing the old data until it
				// happens to render again; a reset empties every query and reads the shown ones anew.
				queryClient.getMutationCache().clear()
				void queryClient.resetQueries()
			}
		}
	}, [user?.id])
	return (
		<QueryClientProvider client={queryClient}>
			<Outlet />
		</QueryClientProvider>
	)
}
