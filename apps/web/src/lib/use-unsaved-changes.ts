import { useEffect, useRef } from 'react'
import { useBlocker } from 'react-router'

// What every editor with an explicit Save shares (the form builder, the chart builder, the
// dashboard editor): Ctrl+S / ⌘S saves, and unsaved changes are not lost by leaving.

/** Ctrl+S / ⌘S calls the latest `save`, as in any editor (and not the browser's "save page"). */
export function useSaveShortcut(save: () => void): void {
	const saveRef = useRef(save)
	saveRef.current = save
	useEffect(() => {
		function onKeyDown(event: KeyboardEvent): void {
			if ((event.metaKey || event.ctrlKey) && event.key.toLowerCase() === 's') {
				event.preventDefault()
				saveRef.current()
			}
		}
		window.addEventListener('keydown', onKeyDown)
		return () => window.removeEventListener('keydown', onKeyDown)
	}, [])
}

/**
 * With unsaved changes, moving to another page of the app is held (`blocker`: the page asks
 * whether to leave), and closing or reloading the tab gets the browser's own question.
 * `leaveOnPurpose()` lets the page's own navigation through (after a delete, a duplicate).
 */
export function useUnsavedChangesGuard(isDirty: boolean) {
	const isLeavingOnPurpose = useRef(false)
	const blocker = useBlocker(
		({ currentLocation, nextLocation }) =>
			isDirty && !isLeavingOnPurpose.current && currentLocation.pathname !== nextLocation.pathname,
	)
	useEffect(() => {
		if (!isDirty) {
			return
		}
		function onBeforeUnload(event: BeforeUnloadEvent): void {
			event.preventDefault()
		}
		window.addEventListener('beforeunload', onBeforeUnload)
		return () => window.removeEventListener('beforeunload', onBeforeUnload)
	}, [isDirty])
	return {
		blocker,
		leaveOnPurpose: () => {
			isLeavingOnPurpose.current = true
		},
	}
}
