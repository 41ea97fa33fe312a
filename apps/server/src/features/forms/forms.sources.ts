import { and, eq, inArray } from 'drizzle-orm'
import type { SourceLabeler } from '#src/workspaces/workspaces.sources.ts'
import { forms } from './forms.schema.ts'

/** `form:<id>` in the deliveries list: the form's name, marked when the form was deleted since. */
export const labelForms: SourceLabeler = async (db, orgId, ids) => {
	const rows = await db
		.select({ id: forms.id, name: forms.name, deletedAt: forms.deletedAt })
		.from(forms)
		.where(and(eq(forms.organizationId, orgId), inArray(forms.id, ids)))
	return new Map(rows.map((row) => [row.id, row.deletedAt ? `${row.name} (deleted)` : row.name]))
}
