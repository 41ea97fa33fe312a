import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest'
import { type Team, teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { type Database, idOf, mappedSample } from '#src/test/time.ts'

// The weekly timesheet on the built-in database, as a member of a team whose owner made the
// sample (its rows are the owner's, so they are not in the member's grid): a DST week in
// Europe/Berlin with an entry over the skipped hour and midnight, a running entry counted up to
// now, a row typed into the database directly, another person's entry and a deleted one left
// out; then cells set from the grid (placed where the day is free, changed, cleared, grown) and
// a 400 per bad field.

let t: TestApp
const berlin = 'Europe/Berlin'

beforeAll(async () => {
	t = await createTestApp()
})
afterEach(() => {
	t.services.time.deps.now = () => new Date()
})
afterAll(async () => {
	await t.close()
})

type Row = {
	key: string
	project: string | null
	task: string | null
	seconds: number[]
	entries: number[]
	total: number
}
type Sheet = { days: string[]; rows: Row[]; dayTotals: number[]; total: number; overlaps: number }

function setNow(iso: string) {
	t.services.time.deps.now = () => new Date(iso)
}

async function sheet(token: string, databaseId: string, date: string, extra = ''): Promise<Sheet> {
	const response = await t.request(
		'GET',
		`/dashboard/local_time/timesheet?databaseId=${databaseId}&date=${date}&timeZone=${berlin}${extra}`,
		{ token },
	)
	expect(response.status, JSON.stringify(response.body)).toBe(200)
	return response.body
}

async function entry(token: string, json: Record<string, unknown>) {
	const response = await t.request('POST', '/dashboard/local_time/entries', { token, json })
	expect(response.status, JSON.stringify(response.body)).toBe(201)
	return response.body as { id: string; startedAt: string; endedAt: string }
}

const rowOf = (week: Sheet, task: string | null) => week.rows.find((row) => row.task === task)

async function teamSample(): Promise<{
	team: Team
	byName: Record<string, Database>
	entries: Database
	projectId: string
}> {
	const team = await teamWithEveryRole(t)
	const { byName, entries } = await mappedSample(t, team.owner.token)
	const projects = await t.request('GET', `/dashboard/local/databases/${byName.Projects?.id}/rows?limit=1`, {
		token: team.owner.token,
	})
	return { team, byName, entries, projectId: projects.body.rows[0].id }
}

describe('the weekly timesheet', () => {
	test('a DST week in Europe/Berlin: midnight and the skipped hour split, a running entry up to now, only the caller', async () => {
		const { team, entries, projectId } = await teamSample()
		const token = team.member.token
		// Saturday 22:00 to Sunday 04:00 local, over the night clocks go forward: 2 h Saturday, 3 h Sunday.
		await entry(token, {
			databaseId: entries.id,
			startedAt: '2026-03-28T21:00:00Z',
			endedAt: '2026-03-29T02:00:00Z',
			project: projectId,
			task: 'Night shift',
		})
		// Monday 23:30 local for an hour: 30 min Monday, 30 min Tuesday.
		await entry(token, {
			databaseId: entries.id,
			startedAt: '2026-03-23T22:30:00Z',
			durationSeconds: 3600,
			task: 'Late call',
		})
		// Overlapping the night shift by an hour.
		await entry(token, {
			databaseId: entries.id,
			startedAt: '2026-03-29T01:00:00Z',
			durationSeconds: 3600,
			task: 'Late call',
		})
		// Deleted: not counted.
		const gone = await entry(token, {
			databaseId: entries.id,
			startedAt: '2026-03-25T08:00:00Z',
			durationSeconds: 600,
			task: 'Gone',
		})
		expect((await t.request('DELETE', `/dashboard/local_time/entries/${gone.id}`, { token })).status).toBe(200)
		// Another person's: not in this grid.
		await entry(team.admin.token, {
			databaseId: entries.id,
			startedAt: '2026-03-25T08:00:00Z',
			durationSeconds: 600,
			task: 'Admin',
		})
		// A row typed into the database directly, for the member: counted as theirs.
		const typed = await t.request('POST', `/dashboard/local/databases/${entries.id}/rows`, {
			token: team.owner.token,
			json: {
				values: {
					[idOf(entries, 'Task') as string]: 'Typed in the table',
					[idOf(entries, 'Person') as string]: [team.member.userId],
					[idOf(entries, 'When') as string]: {
						start: '2026-03-26T07:00:00Z',
						end: '2026-03-26T09:00:00Z',
						timeZone: null,
					},
				},
			},
		})
		expect(typed.status).toBe(201)
		// Running since Friday 09:00 local, read at 11:00 local: 2 h on Friday.
		setNow('2026-03-27T08:00:00Z')
		expect(
			(
				await t.request('POST', '/dashboard/local_time/timer/start', {
					token,
					json: { databaseId: entries.id, task: 'Running' },
				})
			).status,
		).toBe(201)
		setNow('2026-03-27T10:00:00Z')

		const week = await sheet(token, entries.id, '2026-03-25')
		expect(week.days).toEqual([
			'2026-03-23',
			'2026-03-24',
			'2026-03-25',
			'2026-03-26',
			'2026-03-27',
			'2026-03-28',
			'2026-03-29',
		])
		expect(rowOf(week, 'Night shift')).toMatchObject({
			project: projectId,
			seconds: [0, 0, 0, 0, 0, 7200, 10800],
			entries: [0, 0, 0, 0, 0, 1, 1],
			total: 18000,
		})
		expect(rowOf(week, 'Late call')).toMatchObject({
			seconds: [1800, 1800, 0, 0, 0, 0, 3600],
			entries: [1, 1, 0, 0, 0, 0, 1],
		})
		expect(rowOf(week, 'Typed in the table')?.seconds).toEqual([0, 0, 0, 7200, 0, 0, 0])
		expect(rowOf(week, 'Running')?.seconds).toEqual([0, 0, 0, 0, 7200, 0, 0])
		expect(rowOf(week, 'Gone')).toBeUndefined()
		expect(rowOf(week, 'Admin')).toBeUndefined()
		expect(week.rows).toHaveLength(4)
		expect(week.dayTotals).toEqual([1800, 1800, 0, 7200, 7200, 7200, 14400])
		expect(week.total).toBe(39600)
		expect(week.overlaps).toBe(1)
		// The same week starting on Sunday holds the previous Sunday to Saturday.
		const sundays = await sheet(token, entries.id, '2026-03-25', '&weekStart=0')
		expect(sundays.days[0]).toBe('2026-03-22')
		expect(rowOf(sundays, 'Night shift')?.seconds).toEqual([0, 0, 0, 0, 0, 0, 7200])
		// Read by the admin, the week is theirs alone.
		const admins = await sheet(team.admin.token, entries.id, '2026-03-25')
		expect(admins.rows.map((row) => row.task)).toEqual(['Admin'])
	})

	test('a 25-hour day when the clocks go back holds 25 hours', async () => {
		const { team, entries } = await teamSample()
		await entry(team.member.token, {
			databaseId: entries.id,
			startedAt: '2026-10-24T22:00:00Z',
			endedAt: '2026-10-25T23:00:00Z',
			task: 'Whole Sunday',
		})
		const week = await sheet(team.member.token, entries.id, '2026-10-25')
		expect(rowOf(week, 'Whole Sunday')?.seconds).toEqual([0, 0, 0, 0, 0, 0, 90000])
	})

	test('cells set from the grid: placed where the day is free, changed, cleared, grown; shrinking several is a 409', async () => {
		const { team, entries, projectId } = await teamSample()
		const token = team.member.token
		const put = (json: Record<string, unknown>) =>
			t.request('PUT', '/dashboard/local_time/timesheet/cell', {
				token,
				json: { databaseId: entries.id, timeZone: berlin, project: projectId, ...json },
			})
		const listed = async () =>
			(await t.request('GET', '/dashboard/local_time/entries?limit=200', { token })).body as {
				id: string
				task: string | null
				startedAt: string
				endedAt: string
			}[]

		const first = await put({ date: '2026-03-24', task: 'Design', duration: '1:30' })
		expect(first.status, JSON.stringify(first.body)).toBe(200)
		expect(rowOf(first.body, 'Design')?.seconds).toEqual([0, 5400, 0, 0, 0, 0, 0])
		// 09:00 local (UTC+1 in March).
		expect((await listed()).find((e) => e.task === 'Design')).toMatchObject({
			startedAt: '2026-03-24T08:00:00.000Z',
			endedAt: '2026-03-24T09:30:00.000Z',
		})
		// Another row on the same day goes after it, not over it.
		expect((await put({ date: '2026-03-24', task: 'Review', duration: '2h' })).status).toBe(200)
		expect((await listed()).find((e) => e.task === 'Review')?.startedAt).toBe('2026-03-24T09:30:00.000Z')

		const smaller = await put({ date: '2026-03-24', task: 'Design', duration: '45m' })
		expect(smaller.status).toBe(200)
		expect(rowOf(smaller.body, 'Design')?.seconds[1]).toBe(2700)
		const design = (await listed()).filter((e) => e.task === 'Design')
		expect(design).toHaveLength(1)
		expect(design[0]?.endedAt).toBe('2026-03-24T08:45:00.000Z')

		const cleared = await put({ date: '2026-03-24', task: 'Design', duration: '0' })
		expect(cleared.status).toBe(200)
		expect(rowOf(cleared.body, 'Design')).toBeUndefined()
		expect((await listed()).filter((e) => e.task === 'Design')).toHaveLength(0)

		// A cell of two entries: it grows by a third entry for the difference, and cannot shrink.
		await entry(token, {
			databaseId: entries.id,
			startedAt: '2026-03-25T12:00:00Z',
			durationSeconds: 1800,
			project: projectId,
			task: 'Calls',
		})
		await entry(token, {
			databaseId: entries.id,
			startedAt: '2026-03-25T14:00:00Z',
			durationSeconds: 1800,
			project: projectId,
			task: 'Calls',
		})
		const grown = await put({ date: '2026-03-25', task: 'Calls', seconds: 5400 })
		expect(grown.status).toBe(200)
		expect(rowOf(grown.body, 'Calls')).toMatchObject({
			seconds: [0, 0, 5400, 0, 0, 0, 0],
			entries: [0, 0, 3, 0, 0, 0, 0],
		})
		const shrunk = await put({ date: '2026-03-25', task: 'Calls', duration: '1h' })
		expect(shrunk.status).toBe(409)
		expect(shrunk.body.detail).toMatch(/edit its entries/)
		// The same figures when read again.
		const again = await sheet(token, entries.id, '2026-03-25')
		expect(rowOf(again, 'Calls')?.seconds[2]).toBe(5400)
		expect(rowOf(again, 'Review')?.seconds[1]).toBe(7200)
	})

	test('one empty cell set from two tabs at once holds one entry of that length, not two', async () => {
		const { team, entries, projectId } = await teamSample()
		const token = team.member.token
		const put = () =>
			t.request('PUT', '/dashboard/local_time/timesheet/cell', {
				token,
				json: {
					databaseId: entries.id,
					timeZone: berlin,
					project: projectId,
					date: '2026-03-26',
					task: 'Twice',
					duration: '2h',
				},
			})
		const answers = await Promise.all([put(), put(), put()])
		expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200])
		const week = await sheet(token, entries.id, '2026-03-26')
		expect(rowOf(week, 'Twice')).toMatchObject({ seconds: [0, 0, 0, 7200, 0, 0, 0], entries: [0, 0, 0, 1, 0, 0, 0] })
	})

	test('bad input is a 400 naming the field; another organization’s database is a 404', async () => {
		const { team, byName, entries, projectId } = await teamSample()
		const token = team.member.token
		const base = { databaseId: entries.id, date: '2026-03-24', timeZone: berlin, task: 'Work', duration: '1h' }
		const cases: [Record<string, unknown>, string][] = [
			[{ duration: 'soon' }, 'duration'],
			[{ duration: '25h' }, 'duration'],
			// The spring-forward Sunday has 23 hours.
			[{ date: '2026-03-29', duration: '24:00' }, 'duration'],
			[{ duration: null, seconds: 90_000 }, 'seconds'],
			[{ date: 'yesterday' }, 'date'],
			[{ timeZone: 'Mars/Olympus' }, 'timeZone'],
			[{ project: 'not-a-row' }, 'project'],
			[{ databaseId: undefined }, 'databaseId'],
			[{ weekStart: 9 }, 'weekStart'],
		]
		for (const [json, field] of cases) {
			const response = await t.request('PUT', '/dashboard/local_time/timesheet/cell', {
				token,
				json: { ...base, ...json },
			})
			expect(response.status, JSON.stringify(json)).toBe(400)
			expect(
				response.body.errors.map((error: { field: string }) => error.field),
				JSON.stringify(json),
			).toContain(field)
		}
		const reads: [string, string][] = [
			[`databaseId=${entries.id}&date=2026-02-30&timeZone=UTC`, 'date'],
			[`databaseId=${entries.id}&date=2026-03-24&timeZone=Nowhere`, 'timeZone'],
			[`databaseId=${entries.id}&date=2026-03-24&weekStart=7`, 'weekStart'],
			['date=2026-03-24', 'databaseId'],
		]
		for (const [query, field] of reads) {
			const response = await t.request('GET', `/dashboard/local_time/timesheet?${query}`, { token })
			expect(response.status, query).toBe(400)
			expect(
				response.body.errors.map((error: { field: string }) => error.field),
				query,
			).toContain(field)
		}
		// A database of the member's organization that is not mapped.
		const unmapped = await t.request(
			'GET',
			`/dashboard/local_time/timesheet?databaseId=${byName.Clients?.id}&date=2026-03-24`,
			{ token },
		)
		expect(unmapped.status).toBe(400)
		expect(unmapped.body.errors[0].field).toBe('databaseId')
		const stranger = await t.signUp()
		const hidden = await t.request('GET', `/dashboard/local_time/timesheet?databaseId=${entries.id}&date=2026-03-24`, {
			token: stranger.token,
		})
		expect(hidden.status).toBe(404)
		const hiddenPut = await t.request('PUT', '/dashboard/local_time/timesheet/cell', {
			token: stranger.token,
			json: { ...base, project: null },
		})
		expect(hiddenPut.status).toBe(404)
		expect(projectId).toBeTruthy()
	})
})
