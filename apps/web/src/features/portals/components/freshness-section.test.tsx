import type { PortalJobTimer } from '@blocksmith/contracts/portals.ts'
import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { json, mockApi, renderPage } from '#src/test/mock-api.tsx'
import { makePortal } from '../lib/testing.ts'
import { FreshnessSection } from './freshness-section.tsx'

const base = '/dashboard/notion_portal/databases'
const synced = '2026-11-26T09:00:00.000Z'

function timer(state: 'idle' | 'queued' | 'running', lastSyncedAt = synced): PortalJobTimer {
	return {
		databases: [{ id: 'db-projects', name: 'Projects', state, lastSyncedAt, nextSyncAt: null, lastError: null }],
		lastSyncedAt,
		nextSyncAt: '2026-11-26T09:15:00.000Z',
		isRunning: state === 'running',
	}
}

describe('portal freshness', () => {
	test('"Refresh now" queues the sync; the state is read again while it runs, until it is idle', async () => {
		let phase: 'before' | 'running' | 'after' = 'before'
		let runningReads = 0
		const { calls } = mockApi((call) => {
			if (call.path === `${base}/get_job_timer`) {
				if (phase === 'running') {
					// Two reads see it run, then it has ended.
					runningReads++
					if (runningReads >= 2) {
						phase = 'after'
					}
					return json(timer('running'))
				}
				return json(phase === 'after' ? timer('idle', '2026-11-26T10:00:00.000Z') : timer('idle'))
			}
			if (call.path === `${base}/refresh`) {
				phase = 'running'
				return json(timer('queued'), 202)
			}
			return undefined
		})
		const portal = makePortal({ tool: 'notion' })
		const { user } = renderPage(() => <FreshnessSection portal={portal} />, '/', '/')
		const section = await screen.findByRole('region', { name: 'Freshness' })
		const button = await within(section).findByRole('button', { name: 'Refresh now' })
		expect(within(section).getByText('Idle')).toBeInTheDocument()

		await user.click(button)
		expect(calls.find((call) => call.path === `${base}/refresh`)?.body).toEqual({ portalId: 'portal1' })
		expect(await within(section).findByText('Syncing…')).toBeInTheDocument()
		expect(within(section).getByRole('button', { name: 'Refresh now' })).toBeDisabled()
		// Polled every 2 s while it runs: the third answer is idle again.
		await waitFor(() => expect(within(section).getByText('Idle')).toBeInTheDocument(), { timeout: 7000 })
		const reads = calls.filter((call) => call.path === `${base}/get_job_timer`)
		expect(reads.length).toBeGreaterThanOrEqual(3)
		expect(reads.every((call) => call.search.get('portalId') === 'portal1')).toBe(true)
	}, 15_000)

	test('a portal on built-in databases has nothing to refresh', async () => {
		const { calls } = mockApi(() => undefined)
		renderPage(() => <FreshnessSection portal={makePortal()} />, '/', '/')
		expect(await screen.findByText(/members see each change as soon as it is saved/)).toBeInTheDocument()
		expect(screen.queryByRole('button', { name: 'Refresh now' })).toBeNull()
		expect(calls).toHaveLength(0)
	})
})
