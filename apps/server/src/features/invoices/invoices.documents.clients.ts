// A client kept as a row of a clients database: its details are read from the mirror (never
// the workspace's API on the request path) through the draft's mapping, when the draft is saved
// and again when it is finalized, so the invoice carries the client as it was when it was issued.

import type { ClientRow, InvoiceClient } from '@blocksmith/contracts/invoice-documents.ts'
import { countrySchema } from '@blocksmith/contracts/invoices.ts'
import type { PropertyValue } from '@blocksmith/contracts/workspaces.ts'
import { and, eq } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import { workspaceDatabases, workspaceRows } from '#src/workspaces/workspaces.schema.ts'

function invalid(errors: { field: string; message: string }[]): AppError {
	return new AppError('VALIDATION_FAILED', { detail: errors[0]?.message, errors })
}

function textOf(value: PropertyValue | undefined): string | null {
	if (typeof value === 'string') {
		return value.trim() || null
	}
	if (Array.isArray(value) && value.every((item) => typeof item === 'string')) {
		return value.join(', ') || null
	}
	return null
}

/** The client as the row holds it now; a database, row or property not found is a 400 naming it. */
export async function clientFromRow(db: Db, orgId: string, source: ClientRow): Promise<InvoiceClient> {
	const [database] = await db
		.select({ properties: workspaceDatabases.properties })
		.from(workspaceDatabases)
		.where(and(eq(workspaceDatabases.id, source.databaseId), eq(workspaceDatabases.organizationId, orgId)))
	if (!database) {
		throw invalid([{ field: 'clientRow.databaseId', message: 'Choose a database of this organization.' }])
	}
	const known = new Set(database.properties.map((property) => property.id))
	const unknown = Object.entries(source.mapping).filter(([, id]) => id !== undefined && !known.has(id))
	if (unknown.length > 0) {
		throw invalid(
			unknown.map(([part]) => ({ field: `clientRow.mapping.${part}`, message: 'Choose a property of this database.' })),
		)
	}
	const [row] = await db
		.select({ values: workspaceRows.values })
		.from(workspaceRows)
		.where(
			and(
				eq(workspaceRows.id, source.rowId),
				eq(workspaceRows.databaseId, source.databaseId),
				eq(workspaceRows.organizationId, orgId),
			),
		)
	if (!row) {
		throw invalid([{ field: 'clientRow.rowId', message: 'This database has no such row (or it is not synced yet).' }])
	}
	const read = (id: string | undefined) => (id ? textOf(row.values[id]) : null)
	const name = read(source.mapping.name)
	if (!name) {
		throw invalid([{ field: 'clientRow.mapping.name', message: 'The row has no name in this property.' }])
	}
	const country = countrySchema.safeParse(read(source.mapping.country) ?? '')
	return {
		name: name.slice(0, 200),
		email: read(source.mapping.email),
		taxId: read(source.mapping.taxId)?.slice(0, 40) ?? null,
		address: country.success
			? {
					lines: (read(source.mapping.addressLines) ?? '').split('\n').filter(Boolean).slice(0, 4),
					postcode: read(source.mapping.postcode) ?? '',
					city: read(source.mapping.city) ?? '',
					country: country.data,
				}
			: null,
	}
}
