import { createHash } from 'node:crypto'
import type { ChartConfig } from '@blocksmith/contracts/charts.ts'
import { eq, type SQL, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { workspaceDatabases, workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import {
	type ChartField,
	checkboxSql,
	datePartsSql,
	elementsSql,
	fieldOf,
	numberSql,
	textSql,
} from './charts.figures-values.ts'
import { chartProjections, charts } from './charts.schema.ts'

// A database's typed projection (decision 022): the properties its charts read copied out of
// JSONB into a table of their own with one typed column each, so a chart's first computation
// groups typed columns as a plain table would. Only those properties: a row of every property
// (long titles and texts among them) was 500 bytes, six times a typed table of the charted ones,
// and scanning it cost as much. Built by a job, from the same value expressions the figures use
// over JSONB; read only while the database's rows version is the one it was built at, so the
// figures never differ from the mirror's. Until it is current again, figures read JSONB.

const tablePrefix = 'chart_proj_'

export type ProjectionColumns = Record<string, { value: string; instant?: string }>

function projectionTableOf(databaseId: string): string {
	return `${tablePrefix}${createHash('sha256').update(databaseId).digest('hex').slice(0, 24)}`
}

/** The properties a chart's figures read from the rows (filters are applied over the mirror). */
export function chartRefs(config: ChartConfig): string[] {
	const refs = [
		config.x?.property,
		config.breakdown?.property,
		config.dateRange?.property,
		// Saved settings predate some fields: read defensively.
		...(config.series ?? []).map((series) => series.property),
	]
	return [...new Set(refs.filter((ref): ref is string => typeof ref === 'string'))]
}

/** The columns of a field in the table, their types and the expressions that fill them from JSONB. */
function columnsOf(field: ChartField, name: string): { columns: { name: string; type: string; value: SQL }[] } | null {
	switch (field.kind) {
		case 'date': {
			const parts = datePartsSql(field)
			return {
				columns: [
					{ name, type: 'date', value: parts.day },
					{ name: `${name}_at`, type: 'timestamptz', value: parts.instant },
				],
			}
		}
		case 'number':
		case 'unique_id':
			return { columns: [{ name, type: 'numeric', value: numberSql(field) }] }
		case 'checkbox':
			return { columns: [{ name, type: 'boolean', value: checkboxSql(field) }] }
		case 'list':
			return { columns: [{ name, type: 'text[]', value: sql`array(${elementsSql(field)})` }] }
		case 'option':
		case 'text':
			return { columns: [{ name, type: 'text', value: textSql(field) }] }
		default:
			// An untyped formula's kind is learnt from its values at each computation: it stays on JSONB.
			return null
	}
}

/**
 * (Re)builds the projection of one database at the version its rows are at now, in one
 * transaction: the table, its statistics and its registry row appear together. It holds what the
 * database's saved charts read and `asked` (a builder's preview of unsaved settings). Returns
 * whether anything was built (a projection at the current version holding all that is left alone).
 */
export async function buildProjection(
	db: Db,
	databaseId: string,
	asked: readonly string[] = [],
): Promise<'built' | 'current' | 'gone'> {
	return db.transaction(
		async (tx) => {
			const [database] = await tx
				.select({
					id: workspaceDatabases.id,
					organizationId: workspaceDatabases.organizationId,
					properties: workspaceDatabases.properties,
					rowsVersion: workspaceDatabases.rowsVersion,
				})
				.from(workspaceDatabases)
				.where(eq(workspaceDatabases.id, databaseId))
			const table = projectionTableOf(databaseId)
			if (!database) {
				await tx.execute(sql`drop table if exists ${sql.identifier(table)}`)
				return 'gone'
			}
			const saved = await tx.select({ config: charts.config }).from(charts).where(eq(charts.databaseId, databaseId))
			const wanted = new Set([...saved.flatMap((chart) => chartRefs(chart.config)), ...asked])
			const fields = [...wanted].flatMap((ref) => {
				const field = fieldOf(database.properties, ref)
				return field && columnsOf(field, '') ? [field] : []
			})
			const [existing] = await tx
				.select({ rowsVersion: chartProjections.rowsVersion, columns: chartProjections.columns })
				.from(chartProjections)
				.where(eq(chartProjections.databaseId, databaseId))
			if (existing?.rowsVersion === database.rowsVersion && fields.every((field) => existing.columns[field.ref])) {
				return 'current'
			}
			const registry: ProjectionColumns = {}
			const columns: { name: string; type: string; value: SQL }[] = []
			for (const field of fields) {
				const made = columnsOf(field, `c${columns.length}`)
				if (!made) {
					continue
				}
				const [value, instant] = made.columns
				if (value) {
					registry[field.ref] = instant ? { value: value.name, instant: instant.name } : { value: value.name }
				}
				columns.push(...made.columns)
			}
			const name = sql.identifier(table)
			const definitions = sql.join(
				[
					sql`row_id text not null`,
					...columns.map((column) => sql`${sql.identifier(column.name)} ${sql.raw(column.type)}`),
				],
				sql`, `,
			)
			await tx.execute(sql`drop table if exists ${name}`)
			await tx.execute(sql`create table ${name} (${definitions})`)
			await tx.execute(sql`insert into ${name}
				select ${workspaceRows.id}${
					columns.length > 0
						? sql`, ${sql.join(
								columns.map((column) => column.value),
								sql`, `,
							)}`
						: sql``
				}
				from ${workspaceRows}
				where ${workspaceRows.databaseId} = ${database.id} and ${workspaceRows.organizationId} = ${database.organizationId}`)
			// Statistics on typed columns: the planner sees 6 stages, not 100,000.
			await tx.execute(sql`analyze ${name}`)
			const row = { tableName: table, rowsVersion: database.rowsVersion, columns: registry, builtAt: new Date() }
			await tx
				.insert(chartProjections)
				.values({ databaseId, ...row })
				.onConflictDoUpdate({ target: chartProjections.databaseId, set: row })
			return 'built'
		},
		{ isolationLevel: 'repeatable read' },
	)
}

/**
 * Drops the projections of these databases, their tables and registry rows: their organization
 * is purged or their workspace disconnected (decision 040). Idempotent. Returns how many tables
 * there were.
 */
export async function dropProjections(db: Db, databaseIds: readonly string[]): Promise<number> {
	let dropped = 0
	for (const databaseId of databaseIds) {
		const table = projectionTableOf(databaseId)
		const result = (await db.execute(
			sql`select 1 from pg_tables where schemaname = current_schema() and tablename = ${table}`,
		)) as unknown as { rows: unknown[] }
		await db.execute(sql`drop table if exists ${sql.identifier(table)}`)
		await db.delete(chartProjections).where(eq(chartProjections.databaseId, databaseId))
		dropped += result.rows.length
	}
	return dropped
}

/**
 * Tables of databases that are gone (their registry rows went with them): dropped. Matched with
 * starts_with: in LIKE an underscore matches any character, and `chart_proj_%` matches the
 * registry table `chart_projections` itself.
 */
export async function dropOrphanProjections(db: Db): Promise<number> {
	const result = (await db.execute(sql`
		select t.tablename from pg_tables t
		where t.schemaname = current_schema() and starts_with(t.tablename, ${tablePrefix})
			and not exists (select 1 from ${chartProjections} p where p.table_name = t.tablename)`)) as unknown as {
		rows: { tablename: string }[]
	}
	for (const { tablename } of result.rows) {
		await db.execute(sql`drop table if exists ${sql.identifier(tablename)}`)
	}
	return result.rows.length
}

/**
 * The projection the figures may read, inside their snapshot: only when it was built at the
 * database's current rows version. Null means read JSONB (and ask for a build).
 */
export async function currentProjection(
	db: Db,
	databaseId: string,
): Promise<{ tableName: string; columns: ProjectionColumns } | null> {
	const result = (await db.execute(sql`
		select p.table_name, p.columns from ${chartProjections} p
		join ${workspaceDatabases} d on d.id = p.database_id
		where p.database_id = ${databaseId} and p.rows_version = d.rows_version`)) as unknown as {
		rows: { table_name: string; columns: ProjectionColumns }[]
	}
	const [row] = result.rows
	return row ? { tableName: row.table_name, columns: row.columns } : null
}
