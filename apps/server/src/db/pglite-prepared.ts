import type { PGlite, QueryOptions, Results } from '@electric-sql/pglite'

// PGlite's `query` runs every statement as a new unnamed one: parsed, analysed and planned again
// on each call. Drizzle's `.prepare()` names a statement, but its PGlite driver does not pass the
// name on. For a select of four joined tables (the session check every dashboard request makes),
// planning cost twice as much as running it. A select the app repeats with parameters is
// therefore prepared once on PGlite's only connection, and later calls run it with EXECUTE (a
// third of the time). The parameter values are sent as quoted literals, serialised for their
// declared types as PGlite's own bind would. PostgreSQL through `pg` needs none of this, because
// there Drizzle's named statements are prepared per connection. Decision 042.

type Query = (text: string, params?: unknown[], options?: QueryOptions) => Promise<Results>

/** A select is prepared on its third call: one-off statements are never prepared. */
const prepareOnUse = 3
/** At most this many statements are prepared; beyond it, new ones run as before. */
const maxPrepared = 500

type Statement = { uses: number; name?: string; types?: number[]; isRefused?: boolean }

const repeatable = /^\s*select\s/i

/**
 * `query` with repeated selects prepared (see above). `run` is PGlite's own `query`: the caller
 * serialises the calls (PGlite has one connection), so a PREPARE and its EXECUTE are never
 * interleaved with another statement's.
 */
export function withPreparedSelects(pglite: PGlite, run: Query): Query {
	const statements = new Map<string, Statement>()
	let prepared = 0
	let checked: Promise<boolean> | undefined

	// Quoting by doubling `'` is the whole rule only while backslashes are plain characters.
	const canQuote = () => {
		checked ??= run('show standard_conforming_strings').then(
			(result) => (result.rows[0] as { standard_conforming_strings?: string })?.standard_conforming_strings === 'on',
		)
		return checked
	}

	async function prepare(text: string, statement: Statement): Promise<boolean> {
		if (prepared >= maxPrepared || !(await canQuote())) {
			statement.isRefused = true
			return false
		}
		const name = `app_select_${prepared + 1}`
		try {
			await run(`prepare ${name} as ${text}`)
			const types = await run(
				'select parameter_types::oid[]::text as types from pg_prepared_statements where name = $1',
				[name],
			)
			const listed = (types.rows[0] as { types?: string } | undefined)?.types ?? '{}'
			statement.types = listed === '{}' ? [] : listed.slice(1, -1).split(',').map(Number)
		} catch {
			// Not preparable as it is (it names a table created later, say): it runs as before.
			statement.isRefused = true
			await run(`deallocate ${name}`).catch(() => undefined)
			return false
		}
		prepared += 1
		statement.name = name
		return true
	}

	/** `'value'` as a literal of the parameter's type, or null when it cannot be one (a NUL). */
	function literalOf(value: unknown, type: number | undefined, options: QueryOptions | undefined): string | null {
		if (value === null || value === undefined) {
			return 'null'
		}
		const serialize = type === undefined ? undefined : (options?.serializers?.[type] ?? pglite.serializers[type])
		const text = serialize ? serialize(value) : String(value)
		if (text.includes('\u0000')) {
			return null
		}
		return `'${text.replaceAll("'", "''")}'`
	}

	return async (text, params, options) => {
		if (!params || params.length === 0 || options?.blob || !repeatable.test(text)) {
			return run(text, params, options)
		}
		let statement = statements.get(text)
		if (!statement) {
			if (statements.size >= maxPrepared * 2) {
				return run(text, params, options)
			}
			statement = { uses: 0 }
			statements.set(text, statement)
		}
		statement.uses += 1
		if (statement.isRefused || statement.uses < prepareOnUse) {
			return run(text, params, options)
		}
		if (!statement.name && !(await prepare(text, statement))) {
			return run(text, params, options)
		}
		const literals = params.map((value, index) => literalOf(value, statement.types?.[index], options))
		if (literals.length !== statement.types?.length || literals.includes(null)) {
			return run(text, params, options)
		}
		try {
			return await run(`execute ${statement.name}(${literals.join(', ')})`, [], options)
		} catch (error) {
			// A table it reads was changed since (a chart's projection rebuilt with other columns):
			// PostgreSQL refuses the old plan's shape. It is prepared again at its next use.
			if (error instanceof Error && /cached plan must not change result type/.test(error.message)) {
				await run(`deallocate ${statement.name}`).catch(() => undefined)
				statements.delete(text)
				return run(text, params, options)
			}
			throw error
		}
	}
}
