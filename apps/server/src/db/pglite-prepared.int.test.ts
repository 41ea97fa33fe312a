import { PGlite } from '@electric-sql/pglite'
import { eq, sql } from 'drizzle-orm'
import { boolean, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type Database, wrapPglite } from './client.ts'
import { withPreparedSelects } from './pglite-prepared.ts'

// Repeated selects on PGlite are prepared once and run with EXECUTE, their values sent as quoted
// literals (decision 042). PGlite only, by nature: on PostgreSQL the pg driver prepares them.
// Each answer is compared with PGlite's own unprepared answer to the same statement.

let pglite: PGlite
let own: PGlite['query']
let query: PGlite['query']

beforeAll(async () => {
	pglite = await PGlite.create()
	own = pglite.query.bind(pglite)
	query = withPreparedSelects(pglite, own as never) as PGlite['query']
	await pglite.exec(`
		create table notes (id uuid primary key, body text, stars int, big bigint, done boolean, at timestamptz, data jsonb, tags text[]);
		insert into notes values
			('00000000-0000-4000-8000-000000000001', $$it's "quoted" \\ back\\slash$$, 3, 9007199254740993, true, '2026-11-27T10:00:00Z', '{"a": [1, "x''y"]}', '{a,"b c"}'),
			('00000000-0000-4000-8000-000000000002', 'ünï 😀 code', null, null, false, null, null, null);
	`)
})
afterAll(async () => {
	await pglite.close()
})

const isPrepared = async (text: string) =>
	(await own('select 1 from pg_prepared_statements where statement like $1', [`%${text.slice(7, 60)}%`])).rows.length >
	0

describe('repeated selects on PGlite', () => {
	test('give the same rows as unprepared for every kind of value, and are prepared from their third call', async () => {
		const text = 'select * from notes where body = $1 or stars = $2 or done = $3 or at = $4 or data @> $5 order by id'
		const cases: unknown[][] = [
			[`it's "quoted" \\ back\\slash`, null, null, null, null],
			['ünï 😀 code', 0, null, null, null],
			['none', 3, null, null, null],
			['none', null, false, null, null],
			['none', null, null, new Date('2026-11-27T10:00:00Z'), null],
			['none', null, null, null, { a: [1, "x'y"] }],
			["'); drop table notes; --", null, null, null, null],
		]
		for (const params of [...cases, ...cases]) {
			expect(await query(text, params)).toEqual(await own(text, params))
		}
		expect(await isPrepared(text)).toBe(true)
		expect((await own('select count(*)::int as n from notes')).rows).toEqual([{ n: 2 }])
	})

	test('arrays, bigints and uuids go in as their own types', async () => {
		const text = 'select id, big from notes where tags && $1 or big = $2 or id = $3'
		for (const params of Array.from({ length: 4 }, () => [
			['b c'],
			9007199254740993n,
			'00000000-0000-4000-8000-000000000002',
		])) {
			expect(await query(text, params)).toEqual(await own(text, params))
		}
		expect(await isPrepared(text)).toBe(true)
	})

	test('a value PostgreSQL refuses is refused the same way', async () => {
		const text = 'select id from notes where id = $1'
		for (let call = 0; call < 4; call += 1) {
			await expect(query(text, ['00000000-0000-4000-8000-000000000001'])).resolves.toBeDefined()
		}
		await expect(query(text, ['not a uuid'])).rejects.toThrow('invalid input syntax for type uuid')
		await expect(own(text, ['not a uuid'])).rejects.toThrow('invalid input syntax for type uuid')
		// A NUL cannot be a literal: it goes the unprepared way, and PostgreSQL refuses it there.
		await expect(query('select id from notes where body = $1', ['a\u0000b'])).rejects.toThrow()
	})

	test('a table read again after it changed shape gives its new columns', async () => {
		await pglite.exec('create table shapes (id text primary key, a int); insert into shapes values ($$x$$, 1)')
		const text = 'select * from shapes where id = $1'
		for (let call = 0; call < 4; call += 1) {
			expect((await query(text, ['x'])).rows).toEqual([{ id: 'x', a: 1 }])
		}
		await pglite.exec(
			'drop table shapes; create table shapes (id text primary key, a int, b text); insert into shapes values ($$x$$, 2, $$new$$)',
		)
		expect((await query(text, ['x'])).rows).toEqual([{ id: 'x', a: 2, b: 'new' }])
		expect((await query(text, ['x'])).rows).toEqual([{ id: 'x', a: 2, b: 'new' }])
	})
})

describe('through Drizzle, as the app queries', () => {
	const items = pgTable('items', {
		id: text('id').primaryKey(),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
		settings: jsonb('settings').$type<{ theme: string }>().notNull(),
		enabled: boolean('enabled').notNull(),
	})
	let database: Database

	beforeAll(async () => {
		database = wrapPglite(await PGlite.create())
		await database.db.execute(
			sql`create table items (id text primary key, created_at timestamptz not null, settings jsonb not null, enabled boolean not null)`,
		)
		await database.db.insert(items).values({
			id: 'one',
			createdAt: new Date('2026-11-27T10:00:00.123Z'),
			settings: { theme: "it's dark" },
			enabled: true,
		})
	})
	afterAll(async () => {
		await database.close()
	})

	test('a prepared select maps the same values on every call', async () => {
		const select = database.db
			.select()
			.from(items)
			.where(eq(items.id, sql.placeholder('id')))
			.prepare('item')
		const expected = [
			{ id: 'one', createdAt: new Date('2026-11-27T10:00:00.123Z'), settings: { theme: "it's dark" }, enabled: true },
		]
		for (let call = 0; call < 5; call += 1) {
			expect(await select.execute({ id: 'one' })).toEqual(expected)
		}
		expect(await select.execute({ id: 'two' })).toEqual([])
		const listed = await database.db.execute(sql`select count(*)::int as n from pg_prepared_statements`)
		expect((listed as unknown as { rows: { n: number }[] }).rows[0]?.n).toBeGreaterThan(0)
	})
})
