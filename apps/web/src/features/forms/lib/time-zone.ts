// The closing date is picked as a wall-clock time (`datetime-local`) in a chosen IANA zone, and
// stored as the instant with its offset, so that "closes at 18:00 in Paris" stays true for
// whoever edits the form later, wherever they are.

/** The browser's own zone, the default for a new closing date. */
export function browserTimeZone(): string {
	return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

/** Every zone the browser knows, with the given one first-class even if it is not listed. */
export function timeZones(current: string): string[] {
	const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
	const all = new Set([...zones, 'UTC', current])
	return [...all].sort((left, right) => left.localeCompare(right))
}

/** The wall-clock parts of an instant in a zone. */
function wallParts(instant: number, timeZone: string): Record<string, number> {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		hourCycle: 'h23',
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
		hour: '2-digit',
		minute: '2-digit',
		second: '2-digit',
	}).formatToParts(new Date(instant))
	return Object.fromEntries(
		parts.filter((part) => part.type !== 'literal').map((part) => [part.type, Number(part.value)]),
	)
}

/** How far (in ms) the zone's wall clock is ahead of UTC at an instant. */
function offsetAt(instant: number, timeZone: string): number {
	const p = wallParts(instant, timeZone)
	const asUtc = Date.UTC(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0)
	return asUtc - Math.floor(instant / 1000) * 1000
}

const pad = (value: number, length = 2) => String(Math.abs(value)).padStart(length, '0')

function offsetText(offsetMs: number): string {
	const minutes = Math.round(offsetMs / 60_000)
	return `${minutes < 0 ? '-' : '+'}${pad(Math.trunc(minutes / 60))}:${pad(minutes % 60)}`
}

/**
 * A `datetime-local` value ('2026-05-01T18:00') read in `timeZone`, as an ISO instant with that
 * zone's offset ('2026-05-01T18:00:00+02:00'); null for anything else. A time skipped by a
 * daylight-saving change moves forward, as clocks do.
 */
export function localToInstant(local: string, timeZone: string): string | null {
	const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local)
	if (!match) {
		return null
	}
	const [year, month, day, hour, minute] = match.slice(1).map(Number) as [number, number, number, number, number]
	const wall = Date.UTC(year, month - 1, day, hour, minute)
	// The offset depends on the instant, which depends on the offset: two rounds settle it.
	let instant = wall - offsetAt(wall, timeZone)
	instant = wall - offsetAt(instant, timeZone)
	const offset = offsetAt(instant, timeZone)
	const shown = new Date(instant + offset)
	return `${shown.getUTCFullYear()}-${pad(shown.getUTCMonth() + 1)}-${pad(shown.getUTCDate())}T${pad(shown.getUTCHours())}:${pad(shown.getUTCMinutes())}:00${offsetText(offset)}`
}

/** An ISO instant as the `datetime-local` value of its wall-clock time in `timeZone`. */
export function instantToLocal(iso: string, timeZone: string): string {
	const instant = Date.parse(iso)
	if (Number.isNaN(instant)) {
		return ''
	}
	const p = wallParts(instant, timeZone)
	return `${p.year}-${pad(p.month ?? 1)}-${pad(p.day ?? 1)}T${pad(p.hour ?? 0)}:${pad(p.minute ?? 0)}`
}
