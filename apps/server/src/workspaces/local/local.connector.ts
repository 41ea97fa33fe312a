import { randomUUID } from 'node:crypto'
import type { Property, RowValues, WorkspaceUser } from '@blocksmith/contracts/workspaces.ts'
import { and, asc, eq, gt, gte, inArray, or, sql } from 'drizzle-orm'
import { members, users } from '#src/core/auth/auth.schema.ts'
import type { Db } from '#src/db/client.ts'
import { insertTarget } from '#src/db/statements.ts'
import { AppError } from '#src/lib/errors.ts'
import { ConnectorError, type ExternalDatabase, type ExternalRow, type WorkspaceConnector } from '../connector.ts'
import { sameValue, titleOf } from '../values.ts'
import { workspaceDatabases, workspaceRows } from '../workspaces.schema.ts'

const pageSize = 500

type RowRecord = typeof workspaceRows.$inferSelect

export function toExternalRow(row: RowRecord): ExternalRow {
	return {
		externalId: row.externalId,
		values: row.values,
		title: row.title,
		url: row.url,
		createdTime: row.createdTime.toISOString(),
		lastEditedTime: row.lastEditedTime.toISOString(),
	}
}

/** Relations must point at rows of the related database; people at members of the organization. */
async function checkReferences(db: Db, orgId: string, properties: Property[], valuesList: RowValues[]) {
	for (const property of properties) {
		const wanted = [
			...new Set(
				valuesList.flatMap((values) => {
					const value = values[property.id]
					return Array.isArray(value) ? (value as string[]) : []
				}),
			),
		]
		if (wanted.length === 0) {
			continue
		}
		let known: string[] = []
		if (property.type === 'relation' && property.relationDatabaseId) {
			const rows = await db
				.select({ id: workspaceRows.id })
				.from(workspaceRows)
				.where(
					and(
						eq(workspaceRows.databaseId, property.relationDatabaseId),
						eq(workspaceRows.organizationId, orgId),
						inArray(workspaceRows.id, wanted),
					),
				)
			known = rows.map((row) => row.id)
		} else if (property.type === 'people') {
			const rows = await db
				.select({ id: members.userId })
				.from(members)
				.where(and(eq(members.organizationId, orgId), inArray(members.userId, wanted)))
			known = rows.map((row) => row.id)
		} else {
			continue
		}
		const unknown = wanted.filter((id) => !known.includes(id))
		if (unknown.length > 0) {
			const what = property.type === 'people' ? 'members of this organization' : 'rows of the related database'
			throw new AppError('VALIDATION_FAILED', {
				detail: `${property.name}: ${unknown.join(', ')} are not ${what}.`,
				errors: [{ field: `values.${property.id}`, message: `${property.name} must reference ${what}.` }],
			})
		}
	}
}

type DatabaseRecord = typeof workspaceDatabases.$inferSelect

// Built once: a delivery batch inserts up to a hundred answers' rows at a time (db/statements.ts).
const rowTarget = insertTarget(workspaceRows, [
	'id',
	'organizationId',
	'databaseId',
	'externalId',
	'values',
	'title',
	'createdTime',
	'lastEditedTime',
	'mirroredAt',
])

/**
 * Inserts rows into a local database, values already validated. References are checked for
 * all rows first, then the rows go in by the hundred, with the row count, in one transaction.
 */
export async function insertLocalRows(db: Db, orgId: string, database: DatabaseRecord, valuesList: RowValues[]) {
	await checkReferences(db, orgId, database.properties, valuesList)
	return db.transaction(async (tx) => {
		const inserted: RowRecord[] = []
		for (let start = 0; start < valuesList.length; start += 500) {
			const now = new Date()
			const rows = valuesList.slice(start, start + 500).map((values): RowRecord => {
				const id = randomUUID()
				// Every column is given, so the rows are known without reading them back. A local row's
				// id is also its external id.
				return {
					id,
					organizationId: orgId,
					databaseId: database.id,
					externalId: id,
					values,
					title: titleOf(database.properties, values),
					url: null,
					createdTime: now,
					lastEditedTime: now,
					mirroredAt: now,
				}
			})
			await tx.execute(
				sql`insert into ${rowTarget} values ${sql.join(
					rows.map(
						(row) => sql`(${row.id}, ${row.organizationId}, ${row.databaseId}, ${row.externalId},
							${JSON.stringify(row.values)}::jsonb, ${row.title}, ${now}, ${now}, ${now})`,
					),
					sql`, `,
				)}`,
			)
			inserted.push(...rows)
		}
		await tx
			.update(workspaceDatabases)
			.set({ rowCount: sql`${workspaceDatabases.rowCount} + ${valuesList.length}` })
			.where(eq(workspaceDatabases.id, database.id))
		return inserted
	})
}

/** The people of local databases: the organization's members. */
export async function listOrganizationPeople(db: Db, orgId: string): Promise<WorkspaceUser[]> {
	const rows = await db
		.select({ id: users.id, name: users.name, email: users.email, image: users.image })
		.from(members)
		.innerJoin(users, eq(users.id, members.userId))
		.where(eq(members.organizationId, orgId))
		.orderBy(asc(users.name))
	return rows.map((row) => ({ id: row.id, name: row.name, email: row.email, avatarUrl: row.image, type: 'person' }))
}

/**
 * Databases kept in our own database. Their rows are the `workspace_rows` of the database
 * itself, so reading them is reading the mirror and there is nothing to sync.
 */
export function createLocalConnector(options: { db: Db; orgId: string; workspaceId: string }): WorkspaceConnector {
	const { db, orgId, workspaceId } = options

	async function databaseRecord(externalId: string) {
		const [record] = await db
			.select()
			.from(workspaceDatabases)
			.where(
				and(
					eq(workspaceDatabases.id, externalId),
					eq(workspaceDatabases.workspaceId, workspaceId),
					eq(workspaceDatabases.organizationId, orgId),
				),
			)
		if (!record) {
			throw new ConnectorError('not_found', 'No such database in this workspace.')
		}
		return record
	}

	function toExternalDatabase(record: typeof workspaceDatabases.$inferSelect): ExternalDatabase {
		return { externalId: record.id, name: record.name, icon: record.icon, url: null, properties: record.properties }
	}

	async function* pagesOf(databaseId: string, editedSince: Date | null, columns: 'all' | 'ids') {
		let after: { time: Date; id: string } | null = null
		for (;;) {
			const conditions = [eq(workspaceRows.databaseId, databaseId), eq(workspaceRows.organizationId, orgId)]
			if (editedSince) {
				conditions.push(gte(workspaceRows.lastEditedTime, editedSince))
			}
			if (after) {
				const cursor = or(
					gt(workspaceRows.lastEditedTime, after.time),
					and(eq(workspaceRows.lastEditedTime, after.time), gt(workspaceRows.id, after.id)),
				)
				if (cursor) {
					conditions.push(cursor)
				}
			}
			const rows = await db
				.select(
					columns === 'all'
						? { row: workspaceRows }
						: {
								row: {
									id: workspaceRows.id,
									externalId: workspaceRows.externalId,
									lastEditedTime: workspaceRows.lastEditedTime,
								},
							},
				)
				.from(workspaceRows)
				.where(and(...conditions))
				.orderBy(asc(workspaceRows.lastEditedTime), asc(workspaceRows.id))
				.limit(pageSize)
			if (rows.length === 0) {
				return
			}
			yield rows.map((r) => r.row)
			const last = rows[rows.length - 1]?.row
			if (!last || rows.length < pageSize) {
				return
			}
			after = { time: last.lastEditedTime, id: last.id }
		}
	}

	return {
		listDatabases: async () => {
			const records = await db
				.select()
				.from(workspaceDatabases)
				.where(and(eq(workspaceDatabases.workspaceId, workspaceId), eq(workspaceDatabases.organizationId, orgId)))
				.orderBy(asc(workspaceDatabases.createdAt))
			return records.map(toExternalDatabase)
		},
		getDatabase: async (externalId) => toExternalDatabase(await databaseRecord(externalId)),
		queryRows: async function* (database, { editedSince }) {
			for await (const page of pagesOf(database.externalId, editedSince ? new Date(editedSince) : null, 'all')) {
				yield (page as RowRecord[]).map(toExternalRow)
			}
		},
		listRowIds: async function* (database) {
			for await (const page of pagesOf(database.externalId, null, 'ids')) {
				yield page.map((row) => row.externalId)
			}
		},
		getRow: async (database, externalId) => {
			const [row] = await db
				.select()
				.from(workspaceRows)
				.where(
					and(
						eq(workspaceRows.databaseId, database.externalId),
						eq(workspaceRows.organizationId, orgId),
						eq(workspaceRows.externalId, externalId),
					),
				)
			return row ? toExternalRow(row) : null
		},
		createRow: async (database, values, createOptions) => {
			createOptions?.beforeSend?.()
			const [row] = await insertLocalRows(db, orgId, await databaseRecord(database.externalId), [values])
			if (!row) {
				throw new Error('insert returned nothing')
			}
			return toExternalRow(row)
		},
		updateRow: async (database, externalId, values) => {
			const record = await databaseRecord(database.externalId)
			await checkReferences(db, orgId, record.properties, [values])
			// Merged in SQL so two people editing different cells of one row do not undo each other.
			const [row] = await db
				.update(workspaceRows)
				.set({
					values: sql`${workspaceRows.values} || ${JSON.stringify(values)}::jsonb`,
					lastEditedTime: new Date(),
				})
				.where(
					and(
						eq(workspaceRows.databaseId, record.id),
						eq(workspaceRows.organizationId, orgId),
						eq(workspaceRows.externalId, externalId),
					),
				)
				.returning()
			if (!row) {
				throw new ConnectorError('not_found', 'No such row in this database.')
			}
			const title = titleOf(record.properties, row.values)
			if (title !== row.title) {
				await db.update(workspaceRows).set({ title }).where(eq(workspaceRows.id, row.id))
				row.title = title
			}
			return toExternalRow(row)
		},
		deleteRow: async (database, externalId) => {
			const record = await databaseRecord(database.externalId)
			return db.transaction(async (tx) => {
				const [row] = await tx
					.delete(workspaceRows)
					.where(
						and(
							eq(workspaceRows.databaseId, record.id),
							eq(workspaceRows.organizationId, orgId),
							eq(workspaceRows.externalId, externalId),
						),
					)
					.returning()
				if (!row) {
					return null
				}
				await tx
					.update(workspaceDatabases)
					.set({ rowCount: sql`greatest(${workspaceDatabases.rowCount} - 1, 0)` })
					.where(eq(workspaceDatabases.id, record.id))
				return toExternalRow(row)
			})
		},
		restoreRow: async (database, externalId, values) => {
			const record = await databaseRecord(database.externalId)
			// Under its old id, so whatever pointed at the row (relations, our records) finds it again.
			const now = new Date()
			return db.transaction(async (tx) => {
				const [present] = await tx
					.select()
					.from(workspaceRows)
					.where(and(eq(workspaceRows.databaseId, record.id), eq(workspaceRows.externalId, externalId)))
				if (present) {
					return toExternalRow(present)
				}
				if (Object.keys(values).length === 0) {
					// Its delete found it gone already (deleted in the table): there is nothing to bring back.
					throw new ConnectorError('not_found', 'No values were kept to restore this row with.')
				}
				const [row] = await tx
					.insert(workspaceRows)
					.values({
						id: externalId,
						organizationId: orgId,
						databaseId: record.id,
						externalId,
						values,
						title: titleOf(record.properties, values),
						createdTime: now,
						lastEditedTime: now,
					})
					.returning()
				if (!row) {
					throw new Error('insert returned nothing')
				}
				await tx
					.update(workspaceDatabases)
					.set({ rowCount: sql`${workspaceDatabases.rowCount} + 1` })
					.where(eq(workspaceDatabases.id, record.id))
				return toExternalRow(row)
			})
		},
		findCreatedRow: async (database, since, values, exclude) => {
			const rows = await db
				.select()
				.from(workspaceRows)
				.where(
					and(
						eq(workspaceRows.databaseId, database.externalId),
						eq(workspaceRows.organizationId, orgId),
						gte(workspaceRows.createdTime, new Date(since)),
					),
				)
				.orderBy(asc(workspaceRows.createdTime))
				.limit(1000)
			const match = rows.find(
				(row) =>
					!exclude?.has(row.externalId) &&
					Object.entries(values).every(([key, value]) => sameValue(row.values[key], value)),
			)
			return match ? toExternalRow(match) : null
		},
		listUsers: () => listOrganizationPeople(db, orgId),
		// Built-in rows are values only: no page content, so no files in it.
		readPageContent: async () => [],
		readContentFile: async () => null,
	}
}
