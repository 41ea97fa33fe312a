// The timesheet's calendar arithmetic, on local dates ("YYYY-MM-DD") only: a date is moved as a
// UTC midnight, where every day has 24 hours, so no time zone or DST change can shift it.

const dayMs = 86_400_000

/** The browser's time zone, which the server counts each second's local day in. */
export function browserTimeZone(): string {
	return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

/** 0 Sunday … 6 Saturday, as the browser's locale starts its weeks; Monday when it cannot say. */
export function browserWeekStart(language = typeof navigator === 'undefined' ? 'en' : navigator.language): number {
	try {
		const locale = new Intl.Locale(language) as Intl.Locale & {
			getWeekInfo?: () => { firstDay: number }
			weekInfo?: { firstDay: number }
		}
		const firstDay = locale.getWeekInfo?.().firstDay ?? locale.weekInfo?.firstDay
		// Intl numbers the days 1 (Monday) … 7 (Sunday).
		return firstDay === undefined ? 1 : firstDay % 7
	} catch {
		return 1
	}
}

/** Today's local date in a time zone. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
	return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now)
}

export function isIsoDate(text: string | null): text is string {
	return text !== null && /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))
}

export function addDays(date: string, days: number): string {
	return new Date(Date.parse(`${date}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10)
}

/** The first day of the week holding `date`, for weeks that start on `weekStart` (0 Sunday). */
export function weekOf(date: string, weekStart: number): string {
	const weekday = new Date(`${date}T00:00:00Z`).getUTCDay()
	return addDays(date, -((weekday - weekStart + 7) % 7))
}

const longDay = new Intl.DateTimeFormat(undefined, { weekday: 'long', timeZone: 'UTC' })
const shortDay = new Intl.DateTimeFormat(undefined, { weekday: 'short', timeZone: 'UTC' })
const monthDay = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' })

/** "Tuesday 24": a day as a cell's name says it. */
export function dayName(date: string): string {
	const at = new Date(`${date}T00:00:00Z`)
	return `${longDay.format(at)} ${at.getUTCDate()}`
}

/** "Tue" and "24", for a column's head. */
export function dayHead(date: string): { weekday: string; day: number } {
	const at = new Date(`${date}T00:00:00Z`)
	return { weekday: shortDay.format(at), day: at.getUTCDate() }
}

/** "Nov 23 – Nov 29, 2026": the week's span, for its heading. */
export function describeWeek(first: string): string {
	const last = addDays(first, 6)
	const year = last.slice(0, 4)
	return `${monthDay.format(new Date(`${first}T00:00:00Z`))} – ${monthDay.format(new Date(`${last}T00:00:00Z`))}, ${year}`
}
