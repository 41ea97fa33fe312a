import type { Readable } from 'node:stream'
import type { Db } from '#src/db/client.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { Storage } from '#src/lib/storage.ts'

/**
 * What an organization's export archive offers the parts that fill it (decision 040). Paths are
 * relative, slash-separated, without `..`; the archive refuses a path twice.
 */
export type ExportArchive = {
	/** Adds one file. A stream is read once, to its end, before the next file is added. */
	addFile: (path: string, content: string | Uint8Array | Readable) => Promise<void>
	/** Adds `value` as pretty-printed JSON. */
	addJson: (path: string, value: unknown) => Promise<void>
	/** Adds a stored file (an upload, a PDF) by its storage key; false when storage has no such file. */
	addStored: (path: string, storageKey: string) => Promise<boolean>
	/** Notes the ids of objects of one kind the archive holds, for its manifest (`objects[kind]`). */
	record: (kind: string, ids: readonly string[]) => void
}

export type ExportContext = {
	db: Db
	storage: Storage
	log: Logger
	organizationId: string
	archive: ExportArchive
}

/**
 * One part of the archive, owned by the module whose data it is (forms, charts, time, …):
 * registered in app.ts, run one after another by the export job, each a step of the progress.
 * It reads with SQL, in pages where a table can be large, never the whole organization at once.
 */
export type ExportContributor = {
	/** Shown as the running step ("Forms and answers"). */
	label: string
	run: (context: ExportContext) => Promise<void>
}
