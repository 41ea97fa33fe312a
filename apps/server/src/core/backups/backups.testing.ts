import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import * as tar from 'tar'
import type { BackupManifest } from './backups.ts'

// What the backup tests share: the real server's HTTP API in the shape the forms helpers take,
// the CLI run as `npm run backup` / `npm run restore` run it, and an archive's manifest.

const cliFolder = path.join(import.meta.dirname, '../../cli')

/**
 * `request` of a test app (test/test-app.ts), over HTTP to a server process: cast to TestApp, the
 * helpers of test/forms.ts work on it.
 */
export function remoteApp(port: number) {
	const origin = `http://localhost:${port}`
	const request = async (
		method: string,
		pathname: string,
		options: { token?: string; json?: unknown; body?: string | Uint8Array; headers?: Record<string, string> } = {},
	) => {
		const headers = new Headers(options.headers)
		headers.set('origin', origin)
		if (options.token) {
			headers.set('authorization', `Bearer ${options.token}`)
		}
		let body = options.body
		if (options.json !== undefined) {
			headers.set('content-type', 'application/json')
			body = JSON.stringify(options.json)
		}
		const response = await fetch(`http://127.0.0.1:${port}${pathname}`, {
			method,
			headers,
			...(body === undefined ? {} : { body }),
		})
		const text = await response.text()
		let parsed: unknown = text
		try {
			parsed = text ? JSON.parse(text) : null
		} catch {
			// Not JSON: the text.
		}
		// biome-ignore lint/suspicious/noExplicitAny: tests read whatever shape the route answers with.
		return { status: response.status, headers: response.headers, body: parsed as any }
	}
	return { request }
}

export type CliRun = { code: number | null; stdout: string; stderr: string }

/** Runs `cli/<name>.ts` with only `env` (and PATH), as npm would. */
export function runCli(
	name: 'backup' | 'restore',
	args: string[],
	env: Record<string, string>,
	children: ChildProcess[] = [],
): Promise<CliRun> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [path.join(cliFolder, `${name}.ts`), ...args], {
			// biome-ignore lint/style/noProcessEnv: the child needs the PATH to find what it runs.
			env: { PATH: process.env.PATH ?? '', ...env },
			stdio: ['ignore', 'pipe', 'pipe'],
		})
		children.push(child)
		let stdout = ''
		let stderr = ''
		child.stdout.on('data', (chunk) => {
			stdout += chunk
		})
		child.stderr.on('data', (chunk) => {
			stderr += chunk
		})
		child.on('error', reject)
		child.on('exit', (code) => resolve({ code, stdout, stderr }))
	})
}

/** The backup file a successful `npm run backup` printed (its first line). */
export function backupFileOf(run: CliRun): string {
	const file = run.stdout.split('\n').find((line) => line.endsWith('.tar.gz'))
	if (run.code !== 0 || !file) {
		throw new Error(`backup failed (${run.code}): ${run.stdout}\n${run.stderr}`)
	}
	return file.trim()
}

/** An archive's manifest.json, read without unpacking the rest. */
export async function manifestOf(archive: string): Promise<BackupManifest> {
	let text = ''
	await tar.t({
		file: archive,
		filter: (entryPath) => entryPath === 'manifest.json',
		onReadEntry: (entry) => {
			entry.on('data', (chunk: Buffer) => {
				text += chunk.toString('utf8')
			})
		},
	})
	return JSON.parse(text) as BackupManifest
}

export const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'))
