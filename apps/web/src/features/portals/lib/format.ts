// Dates as the person reads them: "26 Nov 2026, 14:05" in their language, or "never".

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' })

export function formatWhen(iso: string | null | undefined, never = 'Never'): string {
	return iso ? dateTime.format(new Date(iso)) : never
}

/** "5 minutes ago", "in 10 minutes": for what is near; the date beyond a day. */
export function formatNear(iso: string | null | undefined, now: number, never = 'Never'): string {
	if (!iso) {
		return never
	}
	const seconds = Math.round((new Date(iso).getTime() - now) / 1000)
	const size = Math.abs(seconds)
	if (size < 45) {
		return seconds <= 0 ? 'just now' : 'in a moment'
	}
	if (size < 3600) {
		return relative.format(Math.round(seconds / 60), 'minute')
	}
	if (size < 86_400) {
		return relative.format(Math.round(seconds / 3600), 'hour')
	}
	return formatWhen(iso)
}
