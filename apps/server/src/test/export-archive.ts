import { Readable } from 'node:stream'
import { expect } from 'vitest'
import type { ExportArchive, ExportContext, ExportContributor } from '#src/core/exports/exports.contributor.ts'
import { createLogger } from '#src/lib/logger.ts'
import type { TestApp } from './test-app.ts'

// An export archive held in memory, for the tests of the parts that fill it (features' *.export.ts):
// the files by path and the ids recorded by kind, with the real archive's rules (a path once,
// relative, no `..`), so a contributor that breaks them fails here as it would in the job.

export type MemoryArchive = ExportArchive & {
	files: Map<string, Uint8Array>
	records: Map<string, string[]>
	text: (path: string) => string
	json: (path: string) => unknown
	/** Every file's bytes as text, for "this secret appears nowhere" checks. */
	everything: () => string
}

function createMemoryArchive(storage: TestApp['services']['storage']): MemoryArchive {
	const files = new Map<string, Uint8Array>()
	const records = new Map<string, string[]>()

	function add(path: string, bytes: Uint8Array): void {
		// The ZIP archive's rules (exports.archive.ts).
		// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused.
		const isBadText = path.length > 400 || /[\\\u0000-\u001f\u007f:*?"<>|]/.test(path)
		const parts = path.split('/')
		if (isBadText || parts.some((part) => part === '..' || part === '' || part === '.' || part !== part.trim())) {
			throw new Error(`bad archive path ${path}`)
		}
		if (files.has(path)) {
			throw new Error(`archive path added twice: ${path}`)
		}
		files.set(path, bytes)
	}

	async function bytesOf(content: string | Uint8Array | Readable): Promise<Uint8Array> {
		if (typeof content === 'string') {
			return new TextEncoder().encode(content)
		}
		if (content instanceof Uint8Array) {
			return content
		}
		const chunks: Buffer[] = []
		for await (const chunk of content) {
			chunks.push(Buffer.from(chunk as Uint8Array))
		}
		return new Uint8Array(Buffer.concat(chunks))
	}

	const decode = (path: string) => {
		const bytes = files.get(path)
		if (!bytes) {
			throw new Error(`no file ${path} in the archive; it has ${[...files.keys()].join(', ')}`)
		}
		return new TextDecoder().decode(bytes)
	}

	return {
		files,
		records,
		addFile: async (path, content) => add(path, await bytesOf(content)),
		addJson: async (path, value) => add(path, new TextEncoder().encode(JSON.stringify(value, null, 2))),
		addStored: async (path, key) => {
			const stored = await storage.get(key)
			if (!stored) {
				return false
			}
			add(path, await bytesOf(Readable.fromWeb(stored.body as import('node:stream/web').ReadableStream)))
			return true
		},
		record: (kind, ids) => {
			records.set(kind, [...(records.get(kind) ?? []), ...ids])
		},
		text: decode,
		json: (path) => JSON.parse(decode(path)),
		everything: () => [...files.values()].map((bytes) => Buffer.from(bytes).toString('latin1')).join('\n'),
	}
}

/** Runs one contributor for an organization into a fresh memory archive. */
export async function runContributor(
	t: TestApp,
	contributor: ExportContributor,
	organizationId: string,
): Promise<MemoryArchive> {
	const archive = createMemoryArchive(t.services.storage)
	const context: ExportContext = {
		db: t.db,
		storage: t.services.storage,
		log: createLogger('silent'),
		organizationId,
		archive,
	}
	await contributor.run(context)
	return archive
}

/** The ids recorded for a kind, sorted. */
export function recorded(archive: MemoryArchive, kind: string): string[] {
	return [...(archive.records.get(kind) ?? [])].sort()
}

/** Fails when `secret` is found in any file of the archive. */
export function expectAbsent(archive: MemoryArchive, secret: string): void {
	expect(secret.length).toBeGreaterThan(8)
	const holder = [...archive.files.entries()].find(([, bytes]) =>
		Buffer.from(bytes).toString('latin1').includes(secret),
	)?.[0]
	expect(holder, `a secret is in ${holder}`).toBeUndefined()
}
