import type { FileValue, Property, RowValues } from '@blocksmith/contracts/workspaces.ts'

// Files Notion hosts are written back as Notion's own, by the URL Notion handed out. Such a URL
// lasts about an hour: before a write, one that has expired (or is about to) is swapped for the
// page's current URL of the same file, so the write never names a URL Notion has let go.

/** A URL this close to its expiry is renewed before the write. */
const renewWithinMs = 5 * 60_000

function isFileList(value: unknown): value is FileValue[] {
	return Array.isArray(value) && value.every((item) => typeof item === 'object' && item !== null && 'name' in item)
}

const isStale = (file: FileValue, now: number) =>
	file.expiresAt !== undefined && Date.parse(file.expiresAt) < now + renewWithinMs

/** The `files` properties of `values` holding a hosted file whose URL must be renewed first. */
export function filesToRenew(values: RowValues, properties: Property[], now: number): Property[] {
	return properties.filter((property) => {
		const files = values[property.id]
		return property.type === 'files' && isFileList(files) && files.some((file) => isStale(file, now))
	})
}

/**
 * `values` with each stale hosted file replaced by the page's current one of the same name (in
 * order, for files that share a name). A file no longer on the page is left out: someone removed
 * it in Notion meanwhile, and the write must not bring back a URL that names nothing.
 */
export function withCurrentUrls(values: RowValues, stale: Property[], current: RowValues, now: number): RowValues {
	const next: RowValues = { ...values }
	for (const property of stale) {
		const onPage = isFileList(current[property.id]) ? [...(current[property.id] as FileValue[])] : []
		const files = values[property.id] as FileValue[]
		next[property.id] = files.flatMap((file) => {
			if (!isStale(file, now)) {
				return [file]
			}
			const index = onPage.findIndex((candidate) => candidate.expiresAt !== undefined && candidate.name === file.name)
			return index < 0 ? [] : onPage.splice(index, 1)
		})
	}
	return next
}
