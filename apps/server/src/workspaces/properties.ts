import { randomBytes } from 'node:crypto'
import type { Property, PropertyInput, StatusGroup } from '@blocksmith/contracts/workspaces.ts'
import { AppError } from '#src/lib/errors.ts'

function shortId(): string {
	return randomBytes(4).toString('base64url')
}

/**
 * Turns what the user defined for a `local` database into properties: ids kept for existing
 * properties and options (so values survive renames), new ones generated, exactly one title.
 * `relationTargets` are the ids of databases a relation may point at.
 */
export function buildLocalProperties(
	inputs: PropertyInput[],
	previous: Property[],
	relationTargets: ReadonlySet<string>,
): Property[] {
	const titles = inputs.filter((input) => input.type === 'title')
	if (titles.length !== 1) {
		throw new AppError('VALIDATION_FAILED', {
			detail: 'A database needs exactly one title property.',
			errors: [{ field: 'properties', message: 'Exactly one property must be of type title.' }],
		})
	}
	const names = new Set<string>()
	const byId = new Map(previous.map((property) => [property.id, property]))
	const properties = inputs.map((input, index): Property => {
		const field = `properties.${index}`
		const key = input.name.toLowerCase()
		if (names.has(key)) {
			throw new AppError('VALIDATION_FAILED', {
				detail: `Two properties are named "${input.name}".`,
				errors: [{ field: `${field}.name`, message: 'Property names must be unique.' }],
			})
		}
		names.add(key)
		const old = input.id ? byId.get(input.id) : undefined
		if (input.id && !old) {
			throw new AppError('VALIDATION_FAILED', {
				errors: [{ field: `${field}.id`, message: `There is no property ${input.id} to keep.` }],
			})
		}
		const id = input.type === 'title' ? 'title' : (old?.id ?? shortId())
		const property: Property = { id, name: input.name, type: input.type }
		if (input.type === 'number') {
			property.format = input.format ?? 'number'
		}
		if (input.type === 'select' || input.type === 'multi_select' || input.type === 'status') {
			const oldOptions = new Map((old?.options ?? []).map((option) => [option.id, option]))
			const optionNames = new Set<string>()
			property.options = (input.options ?? []).map((option) => {
				if (optionNames.has(option.name)) {
					throw new AppError('VALIDATION_FAILED', {
						errors: [{ field: `${field}.options`, message: `The option "${option.name}" appears twice.` }],
					})
				}
				optionNames.add(option.name)
				return {
					id: option.id && oldOptions.has(option.id) ? option.id : shortId(),
					name: option.name,
					color: option.color ?? 'default',
				}
			})
			if (input.type === 'status') {
				if (property.options.length === 0) {
					throw new AppError('VALIDATION_FAILED', {
						errors: [{ field: `${field}.options`, message: 'A status property needs at least one option.' }],
					})
				}
				property.groups = statusGroups(property.options.map((option) => option.id))
			}
		}
		if (input.type === 'relation') {
			if (!input.relationDatabaseId || !relationTargets.has(input.relationDatabaseId)) {
				throw new AppError('VALIDATION_FAILED', {
					errors: [
						{ field: `${field}.relationDatabaseId`, message: 'Choose a database of this workspace to relate to.' },
					],
				})
			}
			property.relationDatabaseId = input.relationDatabaseId
		}
		return property
	})
	// The title first, as Notion shows it.
	return [...properties.filter((p) => p.type === 'title'), ...properties.filter((p) => p.type !== 'title')]
}

/** Notion's three status groups: the first option is to do, the last complete, the rest in progress. */
function statusGroups(optionIds: string[]): StatusGroup[] {
	const first = optionIds.slice(0, 1)
	const last = optionIds.length > 1 ? optionIds.slice(-1) : []
	const middle = optionIds.slice(1, optionIds.length > 1 ? -1 : 1)
	return [
		{ id: 'to-do', name: 'To-do', color: 'gray', optionIds: first },
		{ id: 'in-progress', name: 'In progress', color: 'blue', optionIds: middle },
		{ id: 'complete', name: 'Complete', color: 'green', optionIds: last },
	]
}
