import { useEffect, useMemo } from 'react'
import type { Screen } from '../components/form-flow.ts'

// Drop-off: which questions and pages a visitor reached, so the owner sees where people stop. Each
// step (a question's id, or the page break's id of a page opened) is reported once per page load,
// batched into one beacon (`POST /api/views`, as sendViewEvent in public-api.ts sends it). Ids
// only: never an answer, nothing about the visitor. The live page only: the preview reports nothing.

/** The server takes at most this many events per beacon (viewsSchema in contracts/forms.ts). */
const maxEventsPerBeacon = 20
/** Steps reached close together (a page of questions focused in turn) travel in one beacon. */
const batchDelayMs = 1500

export type ReachReporter = {
	/** Notes that the visitor reached `step`; repeats are ignored. */
	reach: (step: string) => void
	/** Sends what is waiting now (the page is being left). */
	flush: () => void
}

function send(body: string): void {
	try {
		if (typeof navigator.sendBeacon === 'function') {
			if (navigator.sendBeacon('/api/views', new Blob([body], { type: 'application/json' }))) {
				return
			}
		}
	} catch {
		// Some browsers throw on a beacon they refuse; the fetch below still counts it.
	}
	void fetch('/api/views', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body,
		keepalive: true,
		credentials: 'omit',
	}).catch(() => {})
}

function createReachReporter(formId: string): ReachReporter {
	const reported = new Set<string>()
	let waiting: string[] = []
	let timer: ReturnType<typeof setTimeout> | null = null

	const flush = () => {
		if (timer !== null) {
			clearTimeout(timer)
			timer = null
		}
		while (waiting.length > 0) {
			const batch = waiting.slice(0, maxEventsPerBeacon)
			waiting = waiting.slice(maxEventsPerBeacon)
			send(JSON.stringify({ events: batch.map((step) => ({ formId, kind: 'reach', step })) }))
		}
	}

	return {
		reach: (step) => {
			if (reported.has(step)) {
				return
			}
			reported.add(step)
			waiting.push(step)
			timer ??= setTimeout(flush, batchDelayMs)
		},
		flush,
	}
}

/**
 * The reporter of a live form (null: the preview, which reports nothing), with the screens' steps
 * reported as they show: a page by its page break, and one at a time, the question on screen.
 * Questions on a classic page are reported by the form as they are focused or answered.
 */
export function useReach(
	formId: string | null,
	screen: Screen,
	isOneAtATime: boolean,
	isFilling: boolean,
): ReachReporter | null {
	const reporter = useMemo(() => (formId ? createReachReporter(formId) : null), [formId])
	useEffect(() => {
		if (!reporter) {
			return
		}
		// Leaving the page sends what is waiting; the beacon outlives the page.
		const leave = () => reporter.flush()
		window.addEventListener('pagehide', leave)
		return () => {
			window.removeEventListener('pagehide', leave)
			reporter.flush()
		}
	}, [reporter])
	useEffect(() => {
		if (!reporter || !isFilling) {
			return
		}
		if (screen.pageId !== 'start') {
			reporter.reach(screen.pageId)
		}
		if (isOneAtATime && screen.hasQuestion) {
			reporter.reach(screen.id)
		}
	}, [reporter, screen, isOneAtATime, isFilling])
	return reporter
}
