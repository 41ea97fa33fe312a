import { exportManifestSchema } from '@blocksmith/contracts/data.ts'
import { expect } from 'vitest'
import type { ExportContributor } from '#src/core/exports/exports.contributor.ts'
import type { TestApp } from './test-app.ts'
import { until } from './until.ts'
import { readZip } from './zip.ts'

// What the export tests share: reading a ZIP as its entries in order, waiting for an export to
// finish, downloading it as the e-mailed link does (no session), and a part that holds a build
// open until the test lets it go, to see it running.

export type ExportBody = {
	id: string
	status: string
	progress: { done: number; total: number; step: string | null }
	error: string | null
	downloadUrl: string | null
	expiresAt: string | null
	byteSize: number | null
}

/** Waits until the export has finished (ready, failed or expired) and returns it. */
export async function finishedExport(t: TestApp, token: string, id: string): Promise<ExportBody> {
	const done = await until(
		`export ${id} to finish`,
		() => t.request('GET', `/dashboard/exports/${id}`, { token }),
		(response) => response.status !== 200 || !['queued', 'running'].includes(response.body.status),
		60_000,
	)
	expect(done.status).toBe(200)
	return done.body
}

/** Requests a URL of ours, as a browser opening the e-mailed link would: no session, the bytes as they come. */
export async function openLink(t: TestApp, url: string, headers: Record<string, string> = {}) {
	const { pathname, search } = new URL(url)
	const response = await t.app.request(`${pathname}${search}`, {
		headers: { 'x-forwarded-for': '203.0.113.9', ...headers },
	})
	return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
}

/** The archive's manifest, checked against its schema, and its files. */
export async function readArchive(bytes: Uint8Array) {
	const files = await readZip(bytes)
	const manifestBytes = files.get('manifest.json')
	expect(manifestBytes, 'the archive has a manifest').toBeDefined()
	const manifest = exportManifestSchema.parse(JSON.parse(String(manifestBytes)))
	return { files, manifest }
}

/**
 * A part that, for the organization it is armed for, waits until `release` is called, so a
 * test can read the export while it runs; every other organization's export passes through.
 */
export function createGate(label = 'Waiting for the test') {
	let armedFor: string | null = null
	let release = () => {}
	const part: ExportContributor = {
		label,
		run: async ({ organizationId }) => {
			if (organizationId !== armedFor) {
				return
			}
			await new Promise<void>((resolve) => {
				release = resolve
			})
		},
	}
	return {
		part,
		arm: (organizationId: string) => {
			armedFor = organizationId
		},
		release: () => {
			armedFor = null
			release()
		},
	}
}
