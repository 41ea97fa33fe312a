import { describe, expect, test } from 'vitest'
import {
	chartableProperties,
	errorsByPath,
	newSeries,
	operatorsFor,
	sectionOf,
	typeChoiceOf,
	withAggregation,
	withFilterProperty,
	withoutErrors,
	withTypeChoice,
} from './chart-config.ts'
import { database, makeConfig } from './testing.tsx'

const properties = chartableProperties(database.properties)
const byId = (id: string) => properties.find((property) => property.id === id) as (typeof properties)[number]

describe('chart settings', () => {
	test('the row timestamps are chartable in every database', () => {
		expect(properties.map((property) => property.id).slice(-2)).toEqual(['created_time', 'last_edited_time'])
	})

	test('a donut is a pie with its ring; picking pie again takes the ring off', () => {
		const donut = withTypeChoice(makeConfig(), 'donut')
		expect(donut.type).toBe('pie')
		expect(donut.display.donut).toBe(true)
		expect(typeChoiceOf(donut)).toBe('donut')
		expect(typeChoiceOf(withTypeChoice(donut, 'pie'))).toBe('pie')
	})

	test('a property that cannot be summed is dropped when the aggregation becomes a sum', () => {
		const series = { ...newSeries([]), aggregation: 'count_distinct' as const, property: 'name' }
		expect(withAggregation(series, 'sum', properties).property).toBeNull()
		expect(withAggregation({ ...series, property: 'weighted' }, 'average', properties).property).toBe('weighted')
		expect(withAggregation({ ...series, property: 'amount' }, 'count', properties).property).toBeNull()
	})

	test('new series get ids no other series has', () => {
		const first = newSeries([])
		const second = newSeries([first, { ...first, id: 's2' }])
		expect([first.id, second.id]).toEqual(['s1', 's3'])
	})

	test('operators follow the property: numbers compare, dates fall before or after, a text formula contains', () => {
		expect(operatorsFor(byId('weighted'))).toContain('greater_than')
		expect(operatorsFor(byId('created_time'))).toContain('on_or_after')
		expect(operatorsFor(byId('owner_name'))[0]).toBe('contains')
		expect(withFilterProperty({ property: 'name', operator: 'contains', value: 'x' }, byId('amount'))).toEqual({
			property: 'amount',
			operator: 'equals',
			value: '',
		})
	})

	test('a save’s `config.` paths and the preview’s paths land on the same fields and tabs', () => {
		const errors = errorsByPath([
			{ field: 'config.x.property', message: 'Gone.' },
			{ field: 'name', message: 'Name it.' },
			{ field: 'config.display.title', message: 'Too long.' },
		])
		expect(errors).toEqual({ 'x.property': 'Gone.', name: 'Name it.', 'display.title': 'Too long.' })
		expect(withoutErrors(errors, 'x')).toEqual({ name: 'Name it.', 'display.title': 'Too long.' })
		expect(
			['x.property', 'filters.0.value', 'display.title', 'display.stacking', 'embed.theme', 'name'].map(sectionOf),
		).toEqual(['data', 'filters', 'style', 'data', 'share', 'data'])
	})
})
