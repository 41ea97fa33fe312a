import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect } from 'react'
import { timeKeys } from '../api/time-keys.ts'

// Other tabs of this browser hear at once when this one starts or stops a timer (other devices
// read it again on focus and every 30 s). Only a "changed" travels: each tab reads the server.

const channelName = 'blocksmith:time'
// One per tab: a channel does not hear its own messages, so this tab does not read twice.
let channel: BroadcastChannel | null | undefined

function tabChannel(): BroadcastChannel | null {
	channel ??= typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(channelName)
	return channel
}

/** Reads the timers and entries again when another tab says they changed. */
export function useTimerChannel(): void {
	const queryClient = useQueryClient()
	useEffect(() => {
		const listened = tabChannel()
		const onMessage = () => {
			void queryClient.invalidateQueries({ queryKey: timeKeys.timers })
			void queryClient.invalidateQueries({ queryKey: timeKeys.entries })
		}
		listened?.addEventListener('message', onMessage)
		return () => listened?.removeEventListener('message', onMessage)
	}, [queryClient])
}

/** After this tab changed a timer or an entry: read them again here, and tell the other tabs. */
export function useTimerChanged(): () => Promise<void> {
	const queryClient = useQueryClient()
	return useCallback(async () => {
		tabChannel()?.postMessage('changed')
		await Promise.all([
			queryClient.invalidateQueries({ queryKey: timeKeys.timers }),
			queryClient.invalidateQueries({ queryKey: timeKeys.entries }),
		])
	}, [queryClient])
}
