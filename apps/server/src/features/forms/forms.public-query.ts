import { eq, sql } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { workspaceDatabases } from '#src/workspaces/workspaces.schema.ts'
import { forms, formWebhooks } from './forms.schema.ts'

// The one read every public form request makes, prepared once per database.

function publicFormSelect(db: Db, withWebhooks: boolean) {
	return db
		.select({
			form: forms,
			// Only what answers and pages use: the other columns (sync state and times, counts) are
			// parsed and mapped on every answer for nothing.
			database: {
				id: workspaceDatabases.id,
				organizationId: workspaceDatabases.organizationId,
				workspaceId: workspaceDatabases.workspaceId,
				properties: workspaceDatabases.properties,
			},
			// Read with the form, so a submission to a form without webhooks costs no query for them.
			hasWebhooks: withWebhooks
				? sql<boolean>`exists (select 1 from ${formWebhooks} where ${formWebhooks.formId} = ${forms.id} and ${formWebhooks.enabled})`
				: sql<boolean>`false`,
		})
		.from(forms)
		.leftJoin(workspaceDatabases, eq(workspaceDatabases.id, forms.databaseId))
		.where(eq(forms.id, sql.placeholder('id')))
}

type PublicFormQueries = Record<'plain' | 'withWebhooks', ReturnType<ReturnType<typeof publicFormSelect>['prepare']>>

const publicFormQueries = new WeakMap<Db, PublicFormQueries>()

/**
 * The form and its database, prepared once per database connection: building this select was
 * an eighth of a submission's CPU on PostgreSQL (drizzle assembles the SQL of every column each
 * time), and PostgreSQL then plans it once per pooled connection.
 */
export function publicFormQuery(db: Db, withWebhooks: boolean) {
	let queries = publicFormQueries.get(db)
	if (!queries) {
		queries = {
			plain: publicFormSelect(db, false).prepare('public_form'),
			withWebhooks: publicFormSelect(db, true).prepare('public_form_with_webhooks'),
		}
		publicFormQueries.set(db, queries)
	}
	return withWebhooks ? queries.withWebhooks : queries.plain
}
