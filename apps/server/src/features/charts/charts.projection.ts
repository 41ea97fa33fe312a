import { createHash } from 'node:crypto'
import { rowTimestampProperties } from '@blocksmith/contracts/charts.ts'
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
import { chartProjections } from './charts.schema.ts'

// A database's typed projection (decision 022): its chartable properties copied out of JSONB into
// a table of their own with one typed column each, so a chart's first computation groups typed
// columns as a plain table would. Built by a job, from the same value expressions the figures use
// over JSONB; read only while the database's rows version is the one it was built at, so the
// figures never differ from the mirror's. Until it is current again, figures read JSONB.

const tablePrefix = 'chart_proj_'

export type ProjectionColumns = Record<string, { value: string; instant?: string }>

function projectionTableOf(databaseId: string): string {
	return `${tablePrefix}${createHash('sha256').update(databaseId).digest('hex').slice(0, 24)}`
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
 * transaction: the table, its statistics and its registry row appear together. Returns whether
 * anything was built (a projection already at the current version is left alone).
 */
export async function buildProjection(db: Db, databaseId: string): Promise<'built' | 'current' | 'gone'> {
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
			const [existing] = await tx
				.select({ rowsVersion: chartProjections.rowsVersion })
				.from(chartProjections)
				.where(eq(chartProjections.databaseId, databaseId))
			if (existing?.rowsVersion === database.rowsVersion) {
				return 'current'
			}
			const registry: ProjectionColumns = {}
			const columns: { name: string; type: string; value: SQL }[] = []
			const refs = [...rowTimestampProperties, ...database.properties.map((property) => property.id)]
			for (const ref of new Set(refs)) {
				const field = fieldOf(database.properties, ref)
				const made = field ? columnsOf(field, `c${columns.length}`) : null
				if (!made) {
					continue
				}
				const [value, instant] = made.columns
				if (value) {
					registry[ref] = instant ? { value: value.name, instant: instant.name } : { value: value.name }
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
