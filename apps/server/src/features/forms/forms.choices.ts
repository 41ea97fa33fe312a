import type { FieldError } from '@blocksmith/contracts/errors.ts'
import type { ChoiceScope, FormField } from '@blocksmith/contracts/forms.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { and, eq, inArray } from 'drizzle-orm'
import type { Db } from '#src/db/client.ts'
import { AppError } from '#src/lib/errors.ts'
import { filtersSql } from '#src/workspaces/rows.query.ts'
import type { PublicGrant, PublicRowScope } from '#src/workspaces/workspaces.deps.ts'
import { workspaceDatabases, workspaceRows } from '#src/workspaces/workspaces.schema.ts'

// Which choices a relation or people question shows visitors (issue 19): the owner's setting is
// checked when the form is saved, turned into the public reads' grant, and holds again when an
// answer comes back, so an id the list never showed is refused rather than written.

/** Row ids are UUIDs (built-in rows and Notion pages alike). */
const rowIdPattern = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i
/** People ids: the product's user ids (base64url) or Notion's (UUIDs); at most 100 characters, as values allow. */
const personIdPattern = /^[A-Za-z0-9_-]{1,100}$/

type DatabaseLike = { properties: Property[] }

/** The related database's properties, in the organization; null when it is gone. */
async function relatedProperties(db: Db, orgId: string, databaseId: string): Promise<Property[] | null> {
	const [record] = await db
		.select({ properties: workspaceDatabases.properties })
		.from(workspaceDatabases)
		.where(and(eq(workspaceDatabases.id, databaseId), eq(workspaceDatabases.organizationId, orgId)))
	return record?.properties ?? null
}

/**
 * The choice scope of each relation and people question, checked against the form's database:
 * a filter only on a relation, each filter on a property of the related database with an
 * operator (and value) that fits it, exactly as the public read compiles it; chosen ids shaped
 * as row or people ids (they need not exist still: a removed one simply lists nothing); any
 * limit only on relation and people questions. Errors name `fields.N.choiceScope…`.
 */
export async function checkChoiceScopes(
	db: Db,
	orgId: string,
	database: DatabaseLike,
	fields: FormField[],
): Promise<FieldError[]> {
	const errors: FieldError[] = []
	const properties = new Map(database.properties.map((property) => [property.id, property]))
	for (const [index, field] of fields.entries()) {
		const scope: ChoiceScope = field.choiceScope ?? { mode: 'all' }
		const path = `fields.${index}.choiceScope`
		if (scope.mode === 'all') {
			continue
		}
		if (field.kind !== 'relation' && field.kind !== 'people') {
			errors.push({ field: `${path}.mode`, message: 'Only relation and people questions limit their choices.' })
			continue
		}
		if (scope.mode === 'subset') {
			const pattern = field.kind === 'relation' ? rowIdPattern : personIdPattern
			const wrong = scope.ids.findIndex((id) => !pattern.test(id))
			if (wrong >= 0) {
				errors.push({
					field: `${path}.ids.${wrong}`,
					message: field.kind === 'relation' ? 'Choose rows of the related database.' : 'Choose people.',
				})
			} else if (new Set(scope.ids).size !== scope.ids.length) {
				errors.push({ field: `${path}.ids`, message: 'A choice is listed twice.' })
			}
			continue
		}
		if (scope.mode !== 'filter') {
			continue
		}
		if (field.kind !== 'relation') {
			errors.push({ field: `${path}.mode`, message: 'Only a relation question can filter its choices.' })
			continue
		}
		const relationDatabaseId = field.propertyId ? properties.get(field.propertyId)?.relationDatabaseId : undefined
		if (!relationDatabaseId) {
			// The field's property is checked (and named) by the field definitions.
			continue
		}
		const related = await relatedProperties(db, orgId, relationDatabaseId)
		if (!related) {
			errors.push({ field: `${path}.filters`, message: 'The related database is no longer available.' })
			continue
		}
		for (const [filterIndex, filter] of scope.filters.entries()) {
			try {
				// Compiled as the public read compiles it, so a filter saved here always runs there.
				filtersSql(related, [filter], undefined)
			} catch (error) {
				if (!(error instanceof AppError)) {
					throw error
				}
				for (const problem of error.errors ?? []) {
					errors.push({
						field: problem.field.replace(/^filter\.0/, `${path}.filters.${filterIndex}`),
						message: problem.message,
					})
				}
			}
		}
	}
	return errors
}

/** The rows of a relation question's scope as the public reads apply it. */
function rowScopeOf(scope: ChoiceScope): PublicRowScope {
	switch (scope.mode) {
		case 'filter':
			return { mode: 'filter', filters: scope.filters }
		case 'subset':
			return { mode: 'ids', ids: scope.ids }
		default:
			return scope
	}
}

/**
 * What a form's questions let visitors read (the grant of `formGrant`): with `fieldId`, only that
 * question's choices, or null when it is not a visible relation or people question of the form;
 * without it (pages served before choices were asked per question), only the questions that list
 * every choice, so a limited question's choices are never read without naming it.
 */
export function grantOfFields(
	form: { organizationId: string; fields: FormField[] },
	database: DatabaseLike & { workspaceId: string },
	fieldId: string | undefined,
): PublicGrant | null {
	const properties = new Map(database.properties.map((property) => [property.id, property]))
	const grant: PublicGrant = { orgId: form.organizationId, databases: new Map(), people: null }
	const asked = form.fields.filter((field) =>
		fieldId === undefined ? (field.choiceScope?.mode ?? 'all') === 'all' : field.id === fieldId,
	)
	for (const field of asked) {
		// A hidden question takes its value from the link: visitors never choose, so nothing is listed.
		const property = field.propertyId && !field.hidden ? properties.get(field.propertyId) : undefined
		const scope: ChoiceScope = field.choiceScope ?? { mode: 'all' }
		if (field.kind === 'relation' && property?.type === 'relation' && property.relationDatabaseId) {
			grant.databases.set(property.relationDatabaseId, { propertyIds: [], rows: rowScopeOf(scope) })
		} else if (field.kind === 'people' && property?.type === 'people' && scope.mode !== 'filter') {
			grant.people = {
				workspaceId: database.workspaceId,
				ids: scope.mode === 'subset' ? scope.ids : null,
				searchOnly: scope.mode === 'search',
			}
		}
	}
	if (fieldId !== undefined && grant.databases.size === 0 && grant.people === null) {
		return null
	}
	return grant
}

/**
 * Whether an answer to a relation or people question names a choice its scope never offers: a
 * row outside the filter (checked in SQL on the related database), an id outside the chosen
 * ones. `all` and `search` offer every row or person (that they exist is checked apart). A filter
 * that no longer applies offers nothing, so every id is outside it.
 */
export async function idsOutsideScope(
	db: Db,
	orgId: string,
	field: FormField,
	property: Property,
	ids: string[],
): Promise<boolean> {
	const scope: ChoiceScope = field.choiceScope ?? { mode: 'all' }
	const wanted = [...new Set(ids)]
	if (wanted.length === 0) {
		return false
	}
	if (scope.mode === 'subset') {
		const allowed = new Set(scope.ids)
		return wanted.some((id) => !allowed.has(id))
	}
	if (scope.mode !== 'filter') {
		return false
	}
	if (field.kind !== 'relation' || !property.relationDatabaseId) {
		return true
	}
	const related = await relatedProperties(db, orgId, property.relationDatabaseId)
	if (!related) {
		return true
	}
	let conditions: ReturnType<typeof filtersSql>
	try {
		conditions = filtersSql(related, scope.filters, undefined)
	} catch (error) {
		if (error instanceof AppError) {
			return true
		}
		throw error
	}
	const matching = await db
		.select({ id: workspaceRows.externalId })
		.from(workspaceRows)
		.where(
			and(
				eq(workspaceRows.databaseId, property.relationDatabaseId),
				eq(workspaceRows.organizationId, orgId),
				inArray(workspaceRows.externalId, wanted),
				...conditions,
			),
		)
	const found = new Set(matching.map((row) => row.id))
	return wanted.some((id) => !found.has(id))
}
