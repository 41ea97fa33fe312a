import type { QuestionKind } from '@blocksmith/contracts/form-kinds.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import {
	type Database,
	type PropertyInput,
	type WritablePropertyType,
	writablePropertyTypes,
} from '@blocksmith/contracts/workspaces.ts'
import { updateDatabase } from '#src/workspaces/api/workspaces.ts'

// A new question on a built-in database makes its own property, so its answers land in the rows
// like any other's. The property's type is the one the kind writes (forms.ts fieldKindsByPropertyType).

const propertyTypes: Record<QuestionKind, WritablePropertyType | null> = {
	short_text: 'rich_text',
	long_text: 'rich_text',
	number: 'number',
	select: 'select',
	multi_select: 'multi_select',
	status: 'status',
	date: 'date',
	checkbox: 'checkbox',
	url: 'url',
	email: 'email',
	phone: 'phone_number',
	people: 'people',
	relation: 'relation',
	files: 'files',
	rating: 'number',
	scale: 'number',
	nps: 'number',
	calculated: 'number',
	// Written as "1. A" lines and "Row: Column" lines.
	ranking: 'rich_text',
	matrix: 'rich_text',
	signature: 'files',
}

/** The type of property a new question of this kind writes. */
export function propertyTypeFor(kind: QuestionKind): WritablePropertyType | null {
	return propertyTypes[kind]
}

/** The name, or the name with " 2", " 3"… when the database already has a property by that name. */
function freeName(name: string, taken: readonly string[]): string {
	const used = new Set(taken.map((item) => item.trim().toLowerCase()))
	const base = name.trim().slice(0, 190) || 'Question'
	if (!used.has(base.toLowerCase())) {
		return base
	}
	let suffix = 2
	while (used.has(`${base} ${suffix}`.toLowerCase())) {
		suffix += 1
	}
	return `${base} ${suffix}`
}

/** The database's properties as its PATCH takes them: the whole list, ids kept. */
function asInputs(database: Database): PropertyInput[] {
	return database.properties.flatMap((property): PropertyInput[] => {
		if (!(writablePropertyTypes as readonly string[]).includes(property.type)) {
			return []
		}
		return [
			{
				id: property.id,
				name: property.name,
				type: property.type as WritablePropertyType,
				...(property.format ? { format: property.format } : {}),
				...(property.options
					? { options: property.options.map((option) => ({ id: option.id, name: option.name, color: option.color })) }
					: {}),
				...(property.relationDatabaseId ? { relationDatabaseId: property.relationDatabaseId } : {}),
			},
		]
	})
}

/**
 * Adds a property for the question to the built-in database and returns the database as saved
 * and the question bound to the new property. A choice question's choices become the property's
 * options (a bound select reads them from there).
 */
export async function createPropertyFor(
	database: Database,
	field: FormField,
): Promise<{ database: Database; field: FormField }> {
	const type = propertyTypeFor(field.kind as QuestionKind)
	if (!type) {
		throw new Error(`No property type for ${field.kind}`)
	}
	const name = freeName(
		field.label,
		database.properties.map((property) => property.name),
	)
	const hasOptions = type === 'select' || type === 'multi_select'
	const saved = await updateDatabase({
		id: database.id,
		changes: {
			properties: [
				...asInputs(database),
				{
					name,
					type,
					...(hasOptions ? { options: (field.choices ?? []).map((choice) => ({ name: choice.slice(0, 100) })) } : {}),
				},
			],
		},
	})
	const before = new Set(database.properties.map((property) => property.id))
	const created = saved.properties.find((property) => !before.has(property.id) && property.name === name)
	if (!created) {
		throw new Error('The new property is not in the database the server returned.')
	}
	return {
		database: saved,
		field: { ...field, propertyId: created.id, ...(hasOptions ? { choices: null } : {}) },
	}
}
