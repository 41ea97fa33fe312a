import { queryOptions, useQuery } from '@tanstack/react-query'
import { lazy, Suspense } from 'react'
import { api } from '#src/lib/api-client.ts'
import { timeKeys } from '../api/time-keys.ts'
import { useTimerChannel } from '../lib/timer-channel.ts'

// The running timer on every screen of the app. This part is in the app's frame, so it stays
// tiny: one read of GET /dashboard/time/timer on load and focus (polled only while a timer runs),
// kept as it came; the pill, its schema and its clock load only once a timer runs.

const RunningTimer = lazy(() => import('./header-timer-pill.tsx').then((m) => ({ default: m.RunningTimer })))

/** A timer runs: the answer holds an entry (the pill checks the rest against the schema). */
function isRunning(data: unknown): boolean {
	return typeof data === 'object' && data !== null && Boolean((data as { entry?: unknown }).entry)
}

const headerTimerQuery = queryOptions({
	queryKey: timeKeys.anyTimer,
	queryFn: ({ signal }): Promise<unknown> => api('/dashboard/time/timer', { signal }),
	refetchInterval: (query) => (isRunning(query.state.data) ? 30_000 : false),
	refetchOnWindowFocus: 'always',
	staleTime: 0,
	// A blip must not toast on every screen: the timer shows again at the next read.
	meta: { isErrorShownInPage: true },
	retry: false,
})

type HeaderTimerProps = {
	/** `sidebar`: a card in the desktop sidebar; `bar`: a pill in the mobile header. */
	variant: 'sidebar' | 'bar'
	/** The one instance that listens to other tabs (the mobile header is always mounted, hidden on desktop). */
	isListening?: boolean
}

export function HeaderTimer({ variant, isListening = false }: HeaderTimerProps) {
	return isListening ? <ListeningTimer variant={variant} /> : <Timer variant={variant} />
}

function ListeningTimer({ variant }: Pick<HeaderTimerProps, 'variant'>) {
	useTimerChannel()
	return <Timer variant={variant} />
}

function Timer({ variant }: Pick<HeaderTimerProps, 'variant'>) {
	const timer = useQuery(headerTimerQuery)
	return isRunning(timer.data) ? (
		<Suspense fallback={null}>
			<RunningTimer variant={variant} data={timer.data} />
		</Suspense>
	) : null
}
