// The ceiling for GET /auth/validate_token: Hono on @hono/node-server doing only the SQL the
// endpoint cannot do without, one indexed SELECT of the session joined to its user, on the
// same kind of database (a `pg` pool of 10 on PostgreSQL, PGlite in the process otherwise).
// No signature, no expiry rule, no middleware: what the real endpoint costs above this is ours.
import { PGlite } from '@electric-sql/pglite'
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import pg from 'pg'

const port = Number.parseInt(process.env.PORT ?? '', 10)
const token = process.env.BENCH_TOKEN
if (!Number.isInteger(port) || !token) {
	console.error('ceiling-validate-token.server.ts: set PORT and BENCH_TOKEN (and DATABASE_URL for PostgreSQL)')
	process.exit(1)
}

type Query = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>
let query: Query
let close: () => Promise<void>
if (process.env.DATABASE_URL) {
	const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 })
	query = (text, values) => pool.query(text, values)
	close = () => pool.end()
} else {
	const pglite = await PGlite.create()
	query = (text, values) => pglite.query(text, values)
	close = () => pglite.close()
}

// The real tables' shape: a session row of the same width, its user, the token's unique index.
await query(`create table users (id text primary key, name text not null, email text not null unique,
	email_verified boolean not null default false, image text,
	created_at timestamptz not null default now(), updated_at timestamptz not null default now())`)
await query(`create table sessions (id text primary key, token text not null unique,
	user_id text not null references users(id) on delete cascade, expires_at timestamptz not null,
	ip_address text, user_agent text, active_organization_id text,
	created_at timestamptz not null default now(), updated_at timestamptz not null default now())`)
// Other accounts too, so the lookup is an index probe among many, as in production.
await query(`insert into users (id, name, email) select 'u' || i, 'User ' || i, 'user' || i || '@bench.test'
	from generate_series(1, 2000) as i`)
await query(`insert into sessions (id, token, user_id, expires_at, ip_address, user_agent, active_organization_id)
	select 's' || i, md5(i::text) || md5((i * 7)::text), 'u' || i, now() + interval '30 days', '127.0.0.1', 'bench', 'org' || i
	from generate_series(1, 2000) as i`)
const sessionToken = token.slice(0, token.indexOf('.'))
await query(`update sessions set token = $1 where id = 's1'`, [sessionToken])
await query('analyze')

const lookup = `select u.id, u.name, u.email, u.email_verified, u.image, u.created_at, s.active_organization_id
	from sessions s join users u on u.id = s.user_id where s.token = $1`

const app = new Hono()
app.get('/auth/validate_token', async (c) => {
	const header = c.req.header('authorization') ?? ''
	const signed = decodeURIComponent(header.slice(7))
	const [row] = (await query(lookup, [signed.slice(0, signed.lastIndexOf('.'))])).rows
	if (!row) {
		return c.json({ code: 'UNAUTHENTICATED' }, 401)
	}
	return c.json({
		success: true,
		data: {
			id: row.id,
			name: row.name,
			email: row.email,
			emailVerified: row.email_verified,
			image: row.image,
			createdAt: row.created_at,
			activeOrganizationId: row.active_organization_id,
		},
	})
})
app.get('/readyz', (c) => c.text('ok'))

const server = serve({ fetch: app.fetch, port, hostname: '127.0.0.1' })
const shutdown = () => server.close(() => void close().then(() => process.exit(0)))
process.once('SIGTERM', shutdown)
process.once('SIGINT', shutdown)
