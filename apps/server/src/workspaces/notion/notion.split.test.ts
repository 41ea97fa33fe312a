import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { describe, expect, it } from 'vitest'
import { chooseSplit, type Dimension, dimensionsOf, type Sample } from './notion.split.ts'

const minute = '2026-04-01T10:00:00.000Z'
const title: Property = { id: 'title', name: 'Name', type: 'title' } as Property
const dimensions = dimensionsOf([title])

function rows(titles: string[], edited: (index: number) => string = () => minute): Sample[] {
	return titles.map(
		(name, index) =>
			new Map<string, string | number | boolean | null>([
				['created_time', minute],
				['last_edited_time', edited(index)],
				['title', name],
			]),
	)
}

describe('cutting an over-full minute', () => {
	it('prefers a unique id, then the other timestamp, and keeps the title for last', () => {
		const withId = dimensionsOf([title, { id: 'a%3Bb', name: 'ID', type: 'unique_id' } as Property])
		expect(withId.map((dimension: Dimension) => dimension.kind)).toEqual(['number', 'timestamp', 'timestamp', 'title'])
		const edited = rows(['a', 'a', 'a', 'a'], (index) => (index < 2 ? minute : '2026-04-01T10:05:00.000Z'))
		expect(chooseSplit(edited, dimensions, new Set())).toEqual([
			{
				filters: [{ timestamp: 'last_edited_time', last_edited_time: { before: '2026-04-01T10:05:00.000Z' } }],
				pins: [],
			},
			{
				filters: [{ timestamp: 'last_edited_time', last_edited_time: { on_or_after: '2026-04-01T10:05:00.000Z' } }],
				pins: [],
			},
		])
	})

	it('cuts titles by a character about half of them contain, empty titles apart', () => {
		const parts = chooseSplit(rows(['Lead 1', 'Lead 2', 'Lead 12', 'Lead 3']), dimensions, new Set())
		expect(parts?.map((part) => part.filters)).toEqual([
			[{ property: 'title', title: { contains: '1' } }],
			[
				{ property: 'title', title: { is_not_empty: true } },
				{ property: 'title', title: { does_not_contain: '1' } },
			],
			[{ property: 'title', title: { is_empty: true } }],
		])
		// Once a cut has set empty titles apart, its parts do not ask again.
		const inner = chooseSplit(rows(['Lead 1', 'Lead 12']), dimensions, new Set(parts?.[0]?.pins))
		expect(inner).toHaveLength(2)
	})

	it('sets one exact title apart once, then gives up on rows nothing tells apart', () => {
		const same = rows(['Imported', 'Imported', 'Imported'])
		const parts = chooseSplit(same, dimensions, new Set())
		expect(parts?.[0]).toEqual({
			filters: [{ property: 'title', title: { equals: 'Imported' } }],
			pins: ['title=Imported', 'title:not-empty'],
		})
		expect(chooseSplit(same, dimensions, new Set(parts?.[0]?.pins))).toBeNull()
		const blank = rows(['', ''])
		const empty = chooseSplit(blank, dimensions, new Set())
		expect(empty?.map((part) => part.pins)).toEqual([['title='], ['title:not-empty']])
		expect(chooseSplit(blank, dimensions, new Set(empty?.[0]?.pins))).toBeNull()
	})
})
