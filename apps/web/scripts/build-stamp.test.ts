import { mkdirSync, mkdtempSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, test } from 'vitest'
import { type BuildInputs, isUnchangedSince, readSources, readStamp, type Stamp, writeStamp } from './build-stamp.ts'

let repoDir: string
afterEach(() => rmSync(repoDir, { recursive: true, force: true }))

function sources(env: BuildInputs['env'] = {}): BuildInputs {
	return { repoDir, inputs: ['web/src', 'web/index.html', 'web/public', 'package-lock.json'], env }
}

/** A whole second, as archives and `cp -p` keep mtimes: one can be put back exactly. */
const archivedMtime = 1_600_000_000

function write(relativePath: string, text: string) {
	const file = path.join(repoDir, relativePath)
	mkdirSync(path.dirname(file), { recursive: true })
	writeFileSync(file, text)
	utimesSync(file, archivedMtime, archivedMtime)
}

/** A checkout of the sources, and its stamp as a build would write it (the records long settled). */
function stampedCheckout(env: BuildInputs['env'] = {}): Stamp {
	repoDir = mkdtempSync(path.join(os.tmpdir(), 'bs-stamp-'))
	write('web/src/main.tsx', 'export const a = 1')
	write('web/src/pages/home.tsx', 'export const home = 1')
	write('web/index.html', '<div id="root"></div>')
	write('package-lock.json', '{}')
	const { fingerprint, snapshot } = readSources(sources(env), Date.now() + 60_000)
	expect(snapshot).toBeDefined()
	return { fingerprint, builtAt: new Date().toISOString(), snapshot }
}

/** Writes `text` until the file system's clock has moved on, so the write shows in the ctime. */
function rewrite(relativePath: string, text: string) {
	const file = path.join(repoDir, relativePath)
	const before = statSync(file, { bigint: true }).ctimeNs
	do {
		writeFileSync(file, text)
	} while (statSync(file, { bigint: true }).ctimeNs === before)
}

describe('a build stamp', () => {
	test('holds while nothing changes', () => {
		const stamp = stampedCheckout()
		expect(isUnchangedSince(sources(), stamp)).toBe(true)
		expect(readSources(sources()).fingerprint).toBe(stamp.fingerprint)
	})

	test('breaks on an edit of the same size with the mtime put back', () => {
		const stamp = stampedCheckout()
		const file = path.join(repoDir, 'web/src/main.tsx')
		rewrite('web/src/main.tsx', 'export const a = 2')
		utimesSync(file, archivedMtime, archivedMtime)
		expect(statSync(file, { bigint: true }).mtimeNs).toBe(BigInt(archivedMtime) * 1_000_000_000n)
		expect(isUnchangedSince(sources(), stamp)).toBe(false)
		expect(readSources(sources()).fingerprint).not.toBe(stamp.fingerprint)
	})

	test.each([
		['a new file in a folder', () => write('web/src/pages/about.tsx', 'export const about = 1')],
		['a removed file', () => unlinkSync(path.join(repoDir, 'web/src/pages/home.tsx'))],
		[
			'a renamed file',
			() => renameSync(path.join(repoDir, 'web/src/pages/home.tsx'), path.join(repoDir, 'web/src/pages/start.tsx')),
		],
		['an input that did not exist', () => write('web/public/logo.svg', '<svg/>')],
		[
			'an input file replaced by a folder',
			() => {
				unlinkSync(path.join(repoDir, 'web/index.html'))
				write('web/index.html/x', '')
			},
		],
	])('breaks on %s', (_label, change) => {
		const stamp = stampedCheckout()
		change()
		expect(isUnchangedSince(sources(), stamp)).toBe(false)
		expect(readSources(sources()).fingerprint).not.toBe(stamp.fingerprint)
	})

	test('breaks when a VITE_ variable changes, not when another one does', () => {
		const stamp = stampedCheckout({ VITE_ANALYTICS: 'a', HOME: '/root' })
		expect(isUnchangedSince(sources({ VITE_ANALYTICS: 'a', HOME: '/elsewhere' }), stamp)).toBe(true)
		expect(isUnchangedSince(sources({ VITE_ANALYTICS: 'b', HOME: '/root' }), stamp)).toBe(false)
		expect(isUnchangedSince(sources({ HOME: '/root' }), stamp)).toBe(false)
	})

	test('a checkout that rewrites the same bytes keeps the content fingerprint', () => {
		const stamp = stampedCheckout()
		rewrite('web/src/main.tsx', 'export const a = 1')
		expect(isUnchangedSince(sources(), stamp)).toBe(false)
		expect(readSources(sources()).fingerprint).toBe(stamp.fingerprint)
	})

	test('no snapshot is kept of sources changed moments ago: a second write could hide in the same tick', () => {
		stampedCheckout()
		rewrite('web/src/main.tsx', 'export const a = 3')
		expect(readSources(sources()).snapshot).toBeUndefined()
		const settled = readSources(sources(), Date.now() + 60_000).snapshot
		expect(settled).toBeDefined()
	})

	test('is read back as written; anything else reads as no stamp', () => {
		const stamp = stampedCheckout()
		const file = path.join(repoDir, 'stamp.json')
		writeStamp(file, stamp)
		expect(readStamp(file)).toEqual(stamp)
		writeStamp(file, { ...stamp, snapshot: undefined })
		expect(readStamp(file)).toEqual({ ...stamp, snapshot: undefined })
		writeFileSync(file, '{"fingerprint": 1}')
		expect(readStamp(file)).toBeUndefined()
		writeFileSync(file, '{"fingerprint":"x","builtAt":"y","snapshot":{"entries":[1],"records":"z"}}')
		expect(readStamp(file)).toEqual({ fingerprint: 'x', builtAt: 'y', snapshot: undefined })
		expect(readStamp(path.join(repoDir, 'missing.json'))).toBeUndefined()
	})
})
