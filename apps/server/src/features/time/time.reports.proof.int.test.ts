import { randomUUID } from 'node:crypto'
import type { TimeAnalytics, TimeSeries, TimeViewSettingsInput } from '@blocksmith/contracts/time-reports.ts'
import type { RowValues } from '@blocksmith/contracts/workspaces.ts'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { teamWithEveryRole } from '#src/test/teams.ts'
import { createTestApp, type TestApp } from '#src/test/test-app.ts'
import { type Database, sample } from '#src/test/time.ts'
import { insertLocalRows } from '#src/workspaces/local/local.connector.ts'
import { workspaceDatabases, workspaceRows, workspaceWrites } from '#src/workspaces/workspaces.schema.ts'
import {
	addDays,
	findOverlaps,
	isoWeekKey,
	localDateOf,
	localDayBounds,
	monthKey,
	splitIntoLocalDays,
	type Weekday,
	weekStartKey,
} from './time.days.ts'
import type { TimeCtx } from './time.deps.ts'
import { viewAnalytics, viewSeries } from './time.reports.ts'
import { amountFor, type Rounding, roundEntrySeconds, roundSeconds } from './time.rounding.ts'
import { timeEntries } from './time.schema.ts'
import { findView } from './time.views.ts'

// The proof the issue asks for: seeded random entries (crossing midnight and the DST changes of
// Berlin and New York, overlapping, running, some rows dated by day with hours, some of them our
// own entries not yet delivered) written into a built-in database, then every view's analytics
// and daily, weekly and monthly series compared with an independent computation in TypeScript
// over the same entries (time.days.ts splits days, time.rounding.ts rounds and prices). Runs on
// PGlite and, with DATABASE_URL, on PostgreSQL.

let t: TestApp

beforeAll(async () => {
	t = await createTestApp()
})
afterAll(async () => {
	await t.close()
})

/** mulberry32, so a failing case can be replayed from its seed. */
function random(seed: number): () => number {
	let state = seed >>> 0
	return () => {
		state = (state + 0x6d2b79f5) >>> 0
		let x = state
		x = Math.imul(x ^ (x >>> 15), x | 1)
		x ^= x + Math.imul(x ^ (x >>> 7), x | 61)
		return ((x ^ (x >>> 14)) >>> 0) / 4294967296
	}
}

const seed = 20261126
const now = new Date('2026-11-01T08:30:17.400Z')
const hour = 3600

/** What an entry is, as the reference reads it; start/end by zone (a bare date starts at the zone's midnight). */
type RefEntry = {
	key: string
	start: (zone: string) => Date
	end: ((zone: string) => Date) | null
	person: string | null
	project: string | null
	client: string | null
	task: string | null
	tags: string[]
	billable: boolean
}

/** An instant written with an offset of `minutes` (as Notion and other clients do). */
function withOffset(date: Date, minutes: number): string {
	const local = new Date(date.getTime() + minutes * 60_000).toISOString().slice(0, 23)
	const sign = minutes < 0 ? '-' : '+'
	const abs = Math.abs(minutes)
	return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

const floorSecond = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000)

describe('reports against an independent computation', () => {
	test('random entries, two zones, every rounding mode and scope, rates, filters: analytics and series agree', async () => {
		const next = random(seed)
		const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T
		const team = await teamWithEveryRole(t)
		const { owner, admin, member } = team
		const { workspaceId, byName } = await sample(t, owner.token)
		const projects = byName.Projects as Database
		const created = await t.request('POST', '/dashboard/local_time/databases', {
			token: owner.token,
			json: { workspaceId, name: 'Tracked', projectsDatabaseId: projects.id },
		})
		expect(created.status).toBe(201)
		const databaseId = created.body.id as string
		const [record] = await t.db.select().from(workspaceDatabases).where(eq(workspaceDatabases.id, databaseId))
		const database = record as typeof workspaceDatabases.$inferSelect
		const orgId = database.organizationId
		const prop = (name: string) => database.properties.find((p) => p.name === name)?.id as string
		const clientProperty = projects.properties.find((p) => p.name === 'Client')?.id as string
		const projectRows = (
			await t.db.select().from(workspaceRows).where(eq(workspaceRows.databaseId, projects.id))
		).slice(0, 4)
		const clientOf = new Map(
			projectRows.map((row) => [row.id, ((row.values[clientProperty] as string[] | undefined) ?? [])[0] ?? null]),
		)
		const people = [owner.userId, admin.userId, member.userId]
		const tagNames = ['Meeting', 'Deep work', 'Admin']
		const anchors = [
			'2026-03-08T07:00:00Z', // New York springs forward
			'2026-03-29T01:00:00Z', // Berlin springs forward
			'2026-03-29T22:00:00Z', // Berlin's midnight
			'2026-10-25T01:00:00Z', // Berlin falls back
			'2026-11-01T06:00:00Z', // New York falls back
			'2026-03-10T04:00:00Z', // New York's midnight
		].map((anchor) => Date.parse(anchor))

		const reference: RefEntry[] = []
		const rows: { values: RowValues; ref: Omit<RefEntry, 'key'> | null }[] = []
		const details = () => {
			const project = next() < 0.8 ? pick(projectRows) : null
			return {
				person: next() < 0.9 ? pick(people) : null,
				project,
				tags: tagNames.filter(() => next() < 0.35),
				billable: next() < 0.5 ? true : next() < 0.5 ? false : null,
				task: next() < 0.7 ? pick(['Design', 'Build', 'Review']) : null,
			}
		}
		const rowValues = (d: ReturnType<typeof details>): RowValues => ({
			...(d.person ? { [prop('Person')]: [d.person] } : {}),
			...(d.project ? { [prop('Project')]: [d.project.externalId] } : {}),
			...(d.tags.length > 0 ? { [prop('Tags')]: d.tags } : {}),
			...(d.billable === null ? {} : { [prop('Billable')]: d.billable }),
			...(d.task ? { [prop('Task')]: d.task } : {}),
		})
		const refDetails = (d: ReturnType<typeof details>) => ({
			person: d.person,
			project: d.project?.id ?? null,
			client: d.project ? (clientOf.get(d.project.id) ?? null) : null,
			task: d.task,
			tags: d.tags,
			billable: d.billable === true,
		})
		const randomStart = () =>
			new Date(pick(anchors) + Math.floor((next() * 2 - 1) * 30 * hour * 1000) + Math.floor(next() * 1000))
		const randomSeconds = () =>
			next() < 0.05 ? 0 : next() < 0.75 ? Math.floor(next() * 3 * hour) : Math.floor(3 * hour + next() * 27 * hour)

		for (let index = 0; index < 160; index++) {
			const d = details()
			const kind = next()
			const start = randomStart()
			if (kind < 0.7) {
				// A range of instants, written with various offsets.
				const end = new Date(start.getTime() + randomSeconds() * 1000 + Math.floor(next() * 1000))
				const offset = pick([0, 60, 120, -300, -240, 330])
				rows.push({
					values: {
						...rowValues(d),
						[prop('When')]: {
							start: withOffset(start, offset),
							end: withOffset(end, pick([0, offset])),
							timeZone: null,
						},
					},
					ref: { ...refDetails(d), start: () => floorSecond(start), end: () => floorSecond(end) },
				})
			} else if (kind < 0.85) {
				// A start and hours (to the hundredth: whole seconds).
				const hours = Math.round(next() * 1000) / 100
				rows.push({
					values: {
						...rowValues(d),
						[prop('When')]: { start: withOffset(start, 60), end: null, timeZone: null },
						[prop('Hours')]: hours,
					},
					ref: {
						...refDetails(d),
						start: () => floorSecond(start),
						end: () => new Date(floorSecond(start).getTime() + Math.round(hours * hour) * 1000),
					},
				})
			} else if (kind < 0.95) {
				// A day and hours: the day starts at the report zone's midnight.
				const date = start.toISOString().slice(0, 10)
				const hours = Math.round(next() * 900) / 100
				rows.push({
					values: {
						...rowValues(d),
						[prop('When')]: { start: date, end: null, timeZone: null },
						[prop('Hours')]: hours,
					},
					ref: {
						...refDetails(d),
						start: (zone) => new Date(localDayBounds(date, zone).start),
						end: (zone) => new Date(Date.parse(localDayBounds(date, zone).start) + Math.round(hours * hour) * 1000),
					},
				})
			} else {
				// A start alone, or an end before the start: covers nothing.
				const end = next() < 0.5 ? null : withOffset(new Date(start.getTime() - 60_000), 0)
				rows.push({
					values: { ...rowValues(d), [prop('When')]: { start: withOffset(start, 0), end, timeZone: null } },
					ref: null,
				})
			}
		}
		// Edges random data seldom meets: entries that touch (no overlap), and portions of exactly
		// half a rounding step (5, 7.5 and 15 minutes: nearest rounds them up).
		for (const base of ['2026-03-17T10:00:00Z', '2026-10-28T10:00:00Z', '2026-11-01T10:00:00Z']) {
			let at = Date.parse(base)
			for (const seconds of [3600, 3600, 300, 450, 900, 2700]) {
				const d = { ...details(), person: owner.userId }
				const start = new Date(at)
				const end = new Date(at + seconds * 1000)
				rows.push({
					values: {
						...rowValues(d),
						[prop('When')]: { start: start.toISOString(), end: end.toISOString(), timeZone: null },
					},
					ref: { ...refDetails(d), start: () => start, end: () => end },
				})
				at = end.getTime()
			}
		}
		const inserted = await insertLocalRows(
			t.db,
			orgId,
			database,
			rows.map((row) => row.values),
		)
		inserted.forEach((row, index) => {
			const ref = rows[index]?.ref
			if (ref) {
				reference.push({ key: `row:${row.id}`, ...ref })
			}
		})

		// Entries of ours: never delivered, delivered with an edit not yet delivered, delivered,
		// running (one per person, one of them starting after now), deleted.
		const write = async (state: 'delivered' | 'dead', externalRowId: string | null) => {
			const id = randomUUID()
			await t.db.insert(workspaceWrites).values({
				id,
				organizationId: orgId,
				workspaceId,
				databaseId,
				kind: externalRowId ? 'update' : 'create',
				externalRowId,
				values: {},
				state,
				source: 'test',
			})
			return id
		}
		const ours = async (options: {
			user: string
			start: Date
			end: Date | null
			create: 'delivered' | 'dead'
			last: 'delivered' | 'dead'
			row?: string
			deleted?: boolean
		}) => {
			const d = details()
			const createId = await write(options.create, options.row ?? null)
			const lastId = options.last === options.create ? createId : await write(options.last, options.row ?? null)
			const id = randomUUID()
			await t.db.insert(timeEntries).values({
				id,
				organizationId: orgId,
				userId: options.user,
				databaseId,
				createWriteId: createId,
				lastWriteId: lastId,
				startedAt: options.start,
				endedAt: options.end,
				project: d.project?.id ?? null,
				task: d.task,
				tags: d.tags,
				billable: d.billable,
				personRef: next() < 0.5 ? options.user : null,
				deletedAt: options.deleted ? new Date() : null,
			})
			return { id, ref: { ...refDetails(d), person: options.user } }
		}
		const rowIds = inserted.map((row) => row.id)
		for (let index = 0; index < 12; index++) {
			const start = randomStart()
			const end = new Date(start.getTime() + randomSeconds() * 1000)
			const variant = index % 4
			// 0: never delivered; 1: its row delivered, an edit pending (ours counts, not the row);
			// 2: delivered (the row counts, whatever our record says); 3: deleted (nothing counts).
			const row = variant === 0 ? undefined : (rowIds[index] as string)
			const entry = await ours({
				user: pick(people),
				start,
				end,
				create: variant === 0 ? 'dead' : 'delivered',
				last: variant === 1 || variant === 0 ? 'dead' : 'delivered',
				...(row ? { row } : {}),
				deleted: variant === 3,
			})
			const rowKey = row ? `row:${row}` : null
			if (variant === 1 || variant === 3) {
				// The row no longer counts.
				const at = reference.findIndex((entry) => entry.key === rowKey)
				if (at >= 0) {
					reference.splice(at, 1)
				}
			}
			if (variant <= 1) {
				reference.push({
					key: `entry:${entry.id}`,
					...entry.ref,
					start: () => floorSecond(start),
					end: () => floorSecond(end),
				})
			}
		}
		const runningStarts = [
			new Date(now.getTime() - 30 * hour * 1000 - 123),
			new Date(now.getTime() - 2 * hour * 1000),
			new Date(now.getTime() + hour * 1000),
		]
		for (const [index, user] of people.entries()) {
			const start = runningStarts[index] as Date
			const entry = await ours({ user, start, end: null, create: 'delivered', last: 'delivered' })
			reference.push({ key: `entry:${entry.id}`, ...entry.ref, start: () => floorSecond(start), end: null })
		}

		const rates = { defaultRate: 9000, project: 12050, member: 15000 }
		const p1 = projectRows[0] as (typeof projectRows)[number]
		const saved = await t.request('PUT', `/dashboard/local_time/databases/${databaseId}/rates`, {
			token: owner.token,
			json: {
				currency: 'EUR',
				defaultRate: rates.defaultRate,
				projects: [{ project: p1.id, rate: rates.project }],
				members: [{ userId: admin.userId, rate: rates.member }],
			},
		})
		expect(saved.status).toBe(200)
		const rateOf = (entry: RefEntry) =>
			entry.project === p1.id ? rates.project : entry.person === admin.userId ? rates.member : rates.defaultRate

		const views: (TimeViewSettingsInput & { expected?: { from: string; to: string } })[] = [
			{ timeZone: 'Europe/Berlin', range: { kind: 'fixed', from: '2026-03-01', to: '2026-03-31' } },
			{
				timeZone: 'America/New_York',
				range: { kind: 'fixed', from: '2026-03-01', to: '2026-03-31' },
				rounding: { mode: 'up', minutes: 15, scope: 'entry' },
				weekStart: 0,
			},
			{
				timeZone: 'Europe/Berlin',
				range: { kind: 'fixed', from: '2026-10-20', to: '2026-11-05' },
				rounding: { mode: 'nearest', minutes: 10, scope: 'entry' },
				weekStart: 3,
			},
			{
				timeZone: 'America/New_York',
				range: { kind: 'relative', preset: 'all_time' },
				rounding: { mode: 'down', minutes: 6, scope: 'entry' },
			},
			{
				timeZone: 'Europe/Berlin',
				range: { kind: 'relative', preset: 'all_time' },
				rounding: { mode: 'nearest', minutes: 30, scope: 'total' },
			},
			{
				timeZone: 'America/New_York',
				range: { kind: 'fixed', from: '2026-10-01', to: '2026-11-30' },
				rounding: { mode: 'up', minutes: 5, scope: 'total' },
				weekStart: 6,
				people: [owner.userId, admin.userId],
				billable: 'billable',
			},
			{
				timeZone: 'Europe/Berlin',
				range: { kind: 'fixed', from: '2026-03-01', to: '2026-11-30' },
				rounding: { mode: 'down', minutes: 1, scope: 'total' },
				projects: [p1.id, 'none'],
				tags: ['Meeting', 'none'],
				billable: 'non_billable',
			},
			{
				timeZone: 'America/New_York',
				range: { kind: 'relative', preset: 'this_month' },
				rounding: { mode: 'nearest', minutes: 15, scope: 'entry' },
				clients: [clientOf.get(p1.id) ?? 'none', 'none'],
				expected: { from: '2026-11-01', to: '2026-11-30' },
			},
		]

		const ctx: TimeCtx = { ...t.services.time.deps, orgId, userId: owner.userId, role: 'owner' }
		const seen = { overlaps: 0, running: 0, seconds: 0 }
		for (const [number, { expected, ...settings }] of views.entries()) {
			const response = await t.request('POST', '/dashboard/local_time/views', {
				token: owner.token,
				json: { databaseId, name: `View ${number}`, settings },
			})
			expect(response.status).toBe(201)
			const view = await findView(ctx, 'local', response.body.id)
			const s = view.settings
			const zone = s.timeZone
			const rounding = s.rounding as Rounding | null
			const matches = (values: string[], key: string | null) => values.length === 0 || values.includes(key ?? 'none')
			const chosen = reference.filter(
				(entry) =>
					(s.people.length === 0 || (entry.person !== null && s.people.includes(entry.person))) &&
					matches(s.projects, entry.project) &&
					matches(s.clients, entry.client) &&
					(s.tags.length === 0 ||
						entry.tags.some((tag) => s.tags.includes(tag)) ||
						(entry.tags.length === 0 && s.tags.includes('none'))) &&
					(s.billable === 'all' || (s.billable === 'billable') === entry.billable),
			)
			type Portion = { entry: RefEntry; date: string; seconds: number; amount: number | null }
			const portions: Portion[] = []
			const range = s.range.kind === 'fixed' ? { from: s.range.from, to: s.range.to } : (expected ?? null)
			for (const entry of chosen) {
				const interval = { start: entry.start(zone), end: entry.end ? entry.end(zone) : null }
				for (const { date, seconds } of splitIntoLocalDays(interval, zone, now)) {
					if (range && (date < range.from || date > range.to)) {
						continue
					}
					const rounded = roundEntrySeconds(seconds, rounding)
					portions.push({
						entry,
						date,
						seconds: rounded,
						amount: entry.billable ? amountFor(rounded, rateOf(entry)) : null,
					})
				}
			}
			const total = (seconds: number) =>
				rounding?.scope === 'total' ? roundSeconds(seconds, rounding.mode, rounding.minutes) : seconds
			const figures = (list: Portion[]) => {
				const amounts = list.filter((portion) => portion.amount !== null)
				return {
					seconds: total(list.reduce((sum, portion) => sum + portion.seconds, 0)),
					billableSeconds: total(
						list.filter((portion) => portion.entry.billable).reduce((sum, portion) => sum + portion.seconds, 0),
					),
					amount: amounts.length === 0 ? null : amounts.reduce((sum, portion) => sum + (portion.amount ?? 0), 0),
					entries: new Set(list.map((portion) => portion.entry.key)).size,
				}
			}
			const groupBy = (list: Portion[], keys: (entry: RefEntry) => (string | null)[]) => {
				const groups = new Map<string, Portion[]>()
				for (const portion of list) {
					for (const key of keys(portion.entry)) {
						groups.set(key ?? 'none', [...(groups.get(key ?? 'none') ?? []), portion])
					}
				}
				return Object.fromEntries([...groups].map(([key, members]) => [key, figures(members)]))
			}
			const dimensions = {
				project: (entry: RefEntry) => [entry.project],
				person: (entry: RefEntry) => [entry.person],
				client: (entry: RefEntry) => [entry.client],
				task: (entry: RefEntry) => [entry.task],
				tag: (entry: RefEntry) => (entry.tags.length > 0 ? entry.tags : [null]),
			}
			const label = `view ${number} (${zone}, ${JSON.stringify(rounding)}, seed ${seed})`

			const analytics: TimeAnalytics = await viewAnalytics(t.services.time.deps, orgId, view, now)
			expect(analytics.totals, label).toEqual(figures(portions))
			expect([analytics.from, analytics.to], label).toEqual([range?.from ?? null, range?.to ?? null])
			for (const [dimension, keys] of Object.entries(dimensions)) {
				const got = Object.fromEntries(
					analytics.groups[dimension as keyof typeof dimensions].map(({ key, label: _label, ...rest }) => [key, rest]),
				)
				expect(got, `${label} by ${dimension}`).toEqual(groupBy(portions, keys))
			}
			const inRange = new Set(portions.map((portion) => portion.entry.key))
			expect(analytics.running, label).toBe(chosen.filter((entry) => !entry.end && inRange.has(entry.key)).length)
			const from = range ? new Date(localDayBounds(range.from, zone).start) : new Date(-8.64e15)
			const to = range ? new Date(localDayBounds(range.to, zone).end) : new Date(8.64e15)
			let overlaps = 0
			for (const person of people) {
				const clipped = chosen
					.filter((entry) => entry.person === person)
					.map((entry) => {
						const start = entry.start(zone)
						const end = entry.end ? entry.end(zone) : new Date(Math.max(floorSecond(now).getTime(), start.getTime()))
						return {
							id: entry.key,
							start: new Date(Math.max(start.getTime(), from.getTime())),
							end: new Date(Math.max(Math.max(start.getTime(), from.getTime()), Math.min(end.getTime(), to.getTime()))),
						}
					})
				overlaps += findOverlaps(clipped).length
			}
			expect(analytics.overlaps, label).toBe(overlaps)
			seen.overlaps += overlaps
			seen.running += analytics.running
			seen.seconds = Math.min(seen.seconds || analytics.totals.seconds, analytics.totals.seconds)

			const dates = portions.map((portion) => portion.date).sort()
			const first = range?.from ?? dates[0]
			const last = range?.to ?? dates.at(-1)
			for (const interval of ['day', 'week', 'month'] as const) {
				const keyOf = (date: string) =>
					interval === 'day'
						? date
						: interval === 'month'
							? monthKey(date)
							: s.weekStart === 1
								? isoWeekKey(date)
								: weekStartKey(date, s.weekStart as Weekday)
				const keys: string[] = []
				for (let date = first; date && last && date <= last; date = addDays(date, 1)) {
					if (keys.at(-1) !== keyOf(date)) {
						keys.push(keyOf(date))
					}
				}
				const breakdown = pick(['project', 'person', 'client', 'task', 'tag', 'billable', undefined] as const)
				const series: TimeSeries = await viewSeries(t.services.time.deps, orgId, view, interval, breakdown, now)
				const expectedBuckets = keys.map((key) => ({
					key,
					...figures(portions.filter((portion) => keyOf(portion.date) === key)),
				}))
				expect(
					series.buckets.map(({ label: _label, ...rest }) => rest),
					`${label} by ${interval}`,
				).toEqual(expectedBuckets)
				if (breakdown) {
					const keysOf =
						breakdown === 'billable'
							? (entry: RefEntry) => [entry.billable ? 'billable' : 'non_billable']
							: dimensions[breakdown]
					const groups = new Map<string, number[]>()
					for (const [position, key] of keys.entries()) {
						const inBucket = portions.filter((portion) => keyOf(portion.date) === key)
						for (const [group, values] of Object.entries(groupBy(inBucket, keysOf))) {
							const row = groups.get(group) ?? keys.map(() => 0)
							row[position] = values.seconds
							groups.set(group, row)
						}
					}
					const got = Object.fromEntries((series.breakdown ?? []).map((group) => [group.key, group.seconds]))
					expect(got, `${label} by ${interval} and ${breakdown}`).toEqual(Object.fromEntries(groups))
				} else {
					expect(series.breakdown).toBeNull()
				}
			}
		}
		// The data did reach the cases it is meant to: every view has time, some run, some overlap.
		expect(seen.overlaps).toBeGreaterThan(0)
		expect(seen.running).toBeGreaterThan(0)
		expect(seen.seconds).toBeGreaterThan(0)
		expect(localDateOf(now, 'America/New_York')).toBe('2026-11-01')
	})
})
