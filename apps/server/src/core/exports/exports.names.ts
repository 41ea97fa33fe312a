// Names of files and folders the export's parts make from what users typed (a form's slug, an
// uploaded file's name, an invoice's number): one segment each, which the archive accepts
// (exports.archive.ts refuses separators, control characters, what Windows refuses, `.`/`..` and
// spaces around a segment) and every system can unpack.

/** `name` as one safe path segment; `fallback` when nothing of it is left. */
export function archiveName(name: string, fallback = 'file'): string {
	const cleaned = name
		.replace(/[\p{Cc}/\\:*?"<>|]+/gu, '_')
		.replace(/^\.+/, '_')
		.slice(0, 150)
		.trim()
	return cleaned || fallback
}

/**
 * `name`, or with a suffix before its extension when `taken` holds it already (two files of one
 * answer may share a name); the result is added to `taken`.
 */
export function uniqueName(name: string, taken: Set<string>, suffix?: string): string {
	let candidate = name
	for (let index = 2; taken.has(candidate); index++) {
		const dot = name.lastIndexOf('.')
		const tail = suffix && index === 2 ? suffix : String(index)
		candidate = dot > 0 ? `${name.slice(0, dot)}-${tail}${name.slice(dot)}` : `${name}-${tail}`
	}
	taken.add(candidate)
	return candidate
}
