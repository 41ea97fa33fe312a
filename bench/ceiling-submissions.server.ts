// The ceiling for POST /api/submissions: Hono on @hono/node-server doing only the SQL an answer
// cannot be stored without, one transaction inserting the submission and its workspace write,
// on the same kind of database (a `pg` pool of 10 on PostgreSQL, PGlite in this process with a
// data folder otherwise). The two tables have the real ones' columns, indexes and foreign keys
// (each parent one row), since any implementation pays for those. No form lookup, no
// validation, no job, no delivery, no middleware: what the real endpoint costs above this is ours.
import { randomUUID } from 'node:crypto'
import { PGlite } from '@electric-sql/pglite'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import pg from 'pg'

const port = Number.parseInt(process.env.PORT ?? '', 10)
if (!Number.isInteger(port) || port < 1 || port > 65535) {
	console.error('ceiling-submissions.server.ts: set PORT (and DATABASE_URL for PostgreSQL, or DATA_DIR for PGlite)')
	process.exit(1)
}

type Query = (text: string, values?: unknown[]) => Promise<unknown>
/** Runs `work` in one transaction: BEGIN, its statements, COMMIT (ROLLBACK on an error). */
let transaction: (work: (query: Query) => Promise<void>) => Promise<void>
let setup: Query
let close: () => Promise<void>
if (process.env.DATABASE_URL) {
	const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
	setup = (text, values) => pool.query(text, values)
	transaction = async (work) => {
		const client = await pool.connect()
		try {
			await client.query('begin')
			await work((text, values) => client.query(text, values))
			await client.query('commit')
		} catch (error) {
			await client.query('rollback').catch(() => {})
			throw error
		} finally {
			client.release()
		}
	}
	close = () => pool.end()
} else {
	// On disk like the real server's (DATA_DIR), not in memory.
	const pglite = await PGlite.create(process.env.DATA_DIR ? { dataDir: process.env.DATA_DIR } : {})
	setup = (text, values) => pglite.query(text, values)
	transaction = async (work) => {
		await pglite.transaction(async (tx) => work((text, values) => tx.query(text, values)))
	}
	close = () => pglite.close()
}

// The parents, one row each, so the foreign keys are checked as in the real schema.
for (const statement of [
	'create table organizations (id text primary key)',
	'create table forms (id text primary key)',
	'create table workspaces (id text primary key)',
	'create table workspace_databases (id text primary key)',
	`create table workspace_writes (id text primary key,
		organization_id text not null references organizations(id) on delete cascade,
		workspace_id text not null references workspaces(id) on delete cascade,
		database_id text not null references workspace_databases(id) on delete cascade,
		kind text not null, external_row_id text, values jsonb not null, state text not null default 'pending',
		attempts integer not null default 0, last_error text, source text not null,
		first_attempt_at timestamptz(3), next_attempt_at timestamptz, locked_until timestamptz,
		delivered_at timestamptz, created_at timestamptz not null default now())`,
	'create index on workspace_writes (workspace_id, state, created_at)',
	'create index on workspace_writes (database_id, external_row_id)',
	'create index on workspace_writes (organization_id)',
	`create table form_submissions (id text primary key,
		organization_id text not null references organizations(id) on delete cascade,
		form_id text not null references forms(id) on delete cascade,
		idempotency_key text not null, answers jsonb not null,
		write_id text references workspace_writes(id) on delete set null,
		spam boolean not null default false, respondent_key text,
		created_at timestamptz not null default now())`,
	'create unique index on form_submissions (form_id, respondent_key)',
	'create unique index on form_submissions (form_id, idempotency_key)',
	'create index on form_submissions (form_id, created_at)',
	'create index on form_submissions (write_id)',
	"insert into organizations values ('org')",
	"insert into forms values ('form')",
	"insert into workspaces values ('workspace')",
	"insert into workspace_databases values ('database')",
]) {
	await setup(statement)
}

const app = new Hono()
app.post('/api/submissions', async (c) => {
	const body = await c.req.json<{ answers: Record<string, unknown>; idempotencyKey: string }>()
	const id = randomUUID()
	const writeId = randomUUID()
	await transaction(async (query) => {
		await query(
			`insert into workspace_writes (id, organization_id, workspace_id, database_id, kind, values, source)
			values ($1, 'org', 'workspace', 'database', 'create', $2, 'form:form')`,
			[writeId, JSON.stringify(body.answers)],
		)
		await query(
			`insert into form_submissions (id, organization_id, form_id, idempotency_key, answers, write_id)
			values ($1, 'org', 'form', $2, $3, $4) on conflict do nothing`,
			[id, body.idempotencyKey, JSON.stringify(body.answers), writeId],
		)
	})
	return c.json(
		{ id, duplicate: false, confirmationMessage: 'Thank you! Your answer has been recorded.', redirectUrl: null },
		201,
	)
})
app.get('/readyz', (c) => c.text('ok'))

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' })
const shutdown = () => server.close(() => void close().then(() => process.exit(0)))
process.once('SIGTERM', shutdown)
process.once('SIGINT', shutdown)
