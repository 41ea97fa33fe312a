import type { TimeMapping } from '@blocksmith/contracts/time.ts'
import { timeMappingSchema } from '@blocksmith/contracts/time.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { describe, expect, test } from 'vitest'
import { AppError } from '#src/lib/errors.ts'
import { checkMapping, type MappingTarget, reviewMapping, suggestMapping } from './time.mapping.ts'

// Mappings guessed from names and types, and checked before they are saved. The sample's and the
// fake Notion's databases are covered end to end (time.int.test.ts, time.notion.int.test.ts).

const p = (id: string, name: string, type: Property['type'], extra: Partial<Property> = {}): Property => ({
	id,
	name,
	type,
	...extra,
})

function target(properties: Property[], projectProperties: Property[] = []): MappingTarget {
	return { properties, projectProperties: () => projectProperties }
}

function fieldsOf(error: unknown): string[] {
	expect(error).toBeInstanceOf(AppError)
	return ((error as AppError).errors ?? []).map((e) => e.field)
}

describe('suggestMapping', () => {
	test('separate start and end dates, a duration in minutes, a project select and a client on the entry', () => {
		const mapping = suggestMapping(
			target([
				p('t', 'What did you do', 'title'),
				p('s', 'Started at', 'date'),
				p('e', 'Ended at', 'date'),
				p('d', 'Due date', 'date'),
				p('m', 'Minutes', 'number'),
				p('u', 'Tracked by', 'people'),
				p('pr', 'Project', 'select'),
				p('c', 'Customer', 'relation'),
				p('n', 'Notes', 'rich_text'),
				p('a', 'Activity', 'select'),
				p('l', 'Labels', 'multi_select'),
				p('b', 'Billable?', 'checkbox'),
				p('x', 'Done', 'checkbox'),
			]),
		)
		expect(mapping).toEqual({
			start: 's',
			end: 'e',
			duration: 'm',
			durationUnit: 'minutes',
			person: 'u',
			project: 'pr',
			client: { propertyId: 'c', through: 'entry' },
			task: 'a',
			tags: 'l',
			billable: 'b',
			description: 'n',
		})
		expect(
			reviewMapping(
				mapping,
				target([p('s', 'Started at', 'date'), p('e', 'Ended at', 'date'), p('m', 'Minutes', 'number')]),
			).isComplete,
		).toBe(true)
	})

	test('a database with nothing to hold the time is not complete, and says so', () => {
		const properties = [p('t', 'Name', 'title'), p('x', 'Done', 'checkbox')]
		const review = reviewMapping(suggestMapping(target(properties)), target(properties))
		expect(review.isComplete).toBe(false)
		const start = review.fields.find((check) => check.field === 'start')
		expect(start).toMatchObject({ isMapped: false, isRequired: true, message: expect.stringMatching(/date/) })
		expect(review.fields.find((check) => check.field === 'billable')).toMatchObject({
			isMapped: false,
			isRequired: false,
		})
	})
})

describe('checkMapping', () => {
	const properties = [
		p('t', 'Name', 'title'),
		p('w', 'When', 'date'),
		p('h', 'Hours', 'number'),
		p('pr', 'Project', 'relation', { relationDatabaseId: 'projects' }),
		p('k', 'Kind', 'select'),
	]
	const base: TimeMapping = timeMappingSchema.parse({
		start: 'w',
		end: 'w',
		project: 'pr',
		description: 't',
		task: 't',
	})

	test('a range and a title shared by task and description pass', () => {
		expect(() => checkMapping(base, target(properties, [p('c', 'Client', 'relation')]))).not.toThrow()
	})

	test('one property for two other fields, a client through a select project, or no end are refused by field', () => {
		const check = (mapping: Partial<TimeMapping>) => {
			try {
				checkMapping({ ...base, ...mapping }, target(properties, [p('c', 'Client', 'relation')]))
			} catch (error) {
				return fieldsOf(error)
			}
			return []
		}
		expect(check({ task: 'k', project: 'k' })).toEqual(['mapping.task'])
		expect(check({ project: 'k', client: { propertyId: 'c', through: 'project' } })).toEqual(['mapping.client.through'])
		expect(check({ client: { propertyId: 'c', through: 'project' } })).toEqual([])
		expect(check({ end: null })).toEqual(['mapping.end'])
		expect(check({ end: null, duration: 'h' })).toEqual([])
	})
})
