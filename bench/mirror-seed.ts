// The mirror a chart reads, as benchmarks fill it: one organization, workspace and Notion
// database of deals with the property types a real invoice tracker has, and as many rows as
// asked, built in SQL so they cross no wire. Deterministic: every run measures the same data.

export type Sql = { query: (text: string, params?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> }

// Property ids as Notion makes them (short, URL-encoded); values are keyed by them.
export const ids = {
	title: 'title',
	stage: '%3EjYF',
	amount: 'Bq%5Ct',
	client: 'Ue%3Fm',
	owner: 'kL%7Bw',
	due: 'p%40Qz',
	tags: 'X%3Bnb',
	paid: 'aH%3Ds',
	notes: 'Wc%5Er',
	email: 'g%60Tk',
	website: 'Mm%3Ax',
	number: 'uniq',
	created: 'Cr%3Dt',
	createdBy: 'Cb%3Ey',
}
export const stages = ['Lead', 'Qualified', 'Proposal', 'Negotiation', 'Won', 'Lost']

/**
 * One organization, workspace and Notion database, and `rows` rows shaped as the
 * Notion mapping stores them (option names, numbers, dates as objects, ids in arrays), about
 * the size of a real invoice-tracker row. Deterministic, so every run measures the same data.
 */
export async function seedMirror(sql: Sql, rows: number): Promise<string> {
	const organizationId = 'bench-org'
	const workspaceId = 'bench-workspace'
	const databaseId = 'bench-database'
	await sql.query(`insert into organizations (id, name, slug) values ($1, 'Bench', 'bench')`, [organizationId])
	await sql.query(
		`insert into workspaces (id, organization_id, tool, name, external_id) values ($1, $2, 'notion', 'Bench', 'bench-notion')`,
		[workspaceId, organizationId],
	)
	const option = (name: string, index: number) => ({ id: `opt-${index}`, name, color: 'default' })
	const properties = [
		{ id: ids.title, name: 'Name', type: 'title' },
		{ id: ids.stage, name: 'Stage', type: 'select', options: stages.map(option) },
		{ id: ids.amount, name: 'Amount', type: 'number', format: 'euro' },
		{ id: ids.client, name: 'Client', type: 'relation', relationDatabaseId: null },
		{ id: ids.owner, name: 'Owner', type: 'people' },
		{ id: ids.due, name: 'Due', type: 'date' },
		{ id: ids.tags, name: 'Tags', type: 'multi_select', options: ['Retainer', 'Rush', 'Fixed price'].map(option) },
		{ id: ids.paid, name: 'Paid', type: 'checkbox' },
		{ id: ids.notes, name: 'Notes', type: 'rich_text' },
		{ id: ids.email, name: 'Billing email', type: 'email' },
		{ id: ids.website, name: 'Website', type: 'url' },
		{ id: ids.number, name: 'Invoice no.', type: 'unique_id', prefix: 'INV' },
		{ id: ids.created, name: 'Created', type: 'created_time' },
		{ id: ids.createdBy, name: 'Created by', type: 'created_by' },
	]
	await sql.query(
		`insert into workspace_databases (id, organization_id, workspace_id, external_id, name, properties, row_count)
			values ($1, $2, $3, 'bench-data-source', 'Deals', $4::jsonb, $5)`,
		[databaseId, organizationId, workspaceId, JSON.stringify(properties), rows],
	)
	// Built in SQL rather than sent from here: 100k rows cross no wire, so setup stays short on both engines.
	// About 2 % of stages and 2.5 % of amounts are empty, as in real data.
	await sql.query(
		`insert into workspace_rows (id, organization_id, database_id, external_id, "values", title, url, created_time, last_edited_time)
		select md5('row' || i)::uuid::text, $1, $2, md5('page' || i)::uuid::text,
			jsonb_build_object(
				'${ids.title}', 'Deal ' || i || ' · ' || (array['Acme', 'Globex', 'Initech', 'Hooli', 'Umbrella'])[1 + i % 5],
				'${ids.stage}', case when i % 50 = 0 then null else ($3::text[])[1 + (i * 7) % ${stages.length}] end,
				'${ids.amount}', case when i % 40 = 0 then null else round(((i::bigint * 7919) % 1000000) / 100.0, 2) end,
				'${ids.client}', jsonb_build_array(md5('client' || (i % 40))::uuid::text),
				'${ids.owner}', jsonb_build_array(md5('user' || (i % 8))::uuid::text),
				'${ids.due}', jsonb_build_object('start', to_char(date '2026-01-01' + (i % 365), 'YYYY-MM-DD'), 'end', null, 'timeZone', null),
				'${ids.tags}', (array['[]', '["Retainer"]', '["Rush", "Fixed price"]', '["Fixed price"]'])[1 + i % 4]::jsonb,
				'${ids.paid}', i % 3 = 0,
				'${ids.notes}', 'Follow up on deal ' || i || case when i % 2 = 0 then ' after the workshop; send the revised proposal and the signed order form.' else '.' end,
				'${ids.email}', 'billing' || (i % 40) || '@client' || (i % 40) || '.example.com',
				'${ids.website}', 'https://client' || (i % 40) || '.example.com',
				'${ids.number}', jsonb_build_object('prefix', 'INV', 'number', i),
				'${ids.created}', to_char(timestamptz '2025-01-01 00:00:00+00' + i * interval '5 minutes', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
				'${ids.createdBy}', jsonb_build_array(md5('user' || (i % 8))::uuid::text)
			),
			'Deal ' || i, 'https://www.notion.so/' || md5('page' || i),
			timestamptz '2025-01-01 00:00:00+00' + i * interval '5 minutes',
			timestamptz '2025-01-01 00:00:00+00' + i * interval '5 minutes'
		from generate_series(1, $4::int) as i`,
		[organizationId, databaseId, stages, rows],
	)
	// Fresh rows carry no visibility hints yet: the first reads would pay for writing them.
	await sql.query('vacuum analyze workspace_rows')
	return databaseId
}
