import { describe, expect, it } from 'vitest'
import { dateCell, formatPropertyNumber } from './portals.cells.ts'
import { portalBlocks } from './portals.visitor.ts'

describe('portal values as text', () => {
	it('numbers in the property’s format', () => {
		expect(formatPropertyNumber(1234.5, 'dollar')).toBe('$1,234.50')
		expect(formatPropertyNumber(5000, 'euro')).toBe('€5,000.00')
		expect(formatPropertyNumber(0.255, 'percent')).toBe('25.5%')
		expect(formatPropertyNumber(1234567.125, 'number_with_commas')).toBe('1,234,567.125')
		expect(formatPropertyNumber(42, 'number')).toBe('42')
		expect(formatPropertyNumber(7, undefined)).toBe('7')
	})

	it('dates: a day as it is, a time in its zone (UTC without one), a range with an arrow', () => {
		expect(dateCell({ start: '2026-01-05', end: null, timeZone: null })).toEqual({
			kind: 'date',
			start: '2026-01-05',
			end: null,
			text: 'Jan 5, 2026',
		})
		expect(dateCell({ start: '2026-01-05T13:00:00Z', end: null, timeZone: 'Europe/Berlin' })).toMatchObject({
			text: 'Jan 5, 2026, 2:00 PM',
		})
		expect(dateCell({ start: '2026-01-05T13:00:00Z', end: null, timeZone: 'Not/AZone' })).toMatchObject({
			text: 'Jan 5, 2026, 1:00 PM',
		})
		expect(dateCell({ start: '2026-01-05', end: '2026-02-04', timeZone: null })).toMatchObject({
			text: 'Jan 5, 2026 → Feb 4, 2026',
		})
	})
})

describe('page content as a member receives it', () => {
	it('a hosted file gets the portal’s link; other URLs only when http(s), at any depth', () => {
		const blocks = portalBlocks(
			[
				{ type: 'image', url: null, fileRef: { blockId: 'b1' }, caption: 'Moodboard' },
				{ type: 'bookmark', url: 'https://example.com/a' },
				{
					type: 'toggle',
					text: [{ text: 'More' }],
					children: [
						{ type: 'embed', url: 'javascript:alert(1)' },
						{ type: 'file', url: null, fileRef: { blockId: 'b2' }, name: 'brief.pdf' },
					],
				},
			],
			(blockId) => `/api/portal/acme/pages/p/rows/r/content/${blockId}?sig=x`,
		)
		expect(blocks).toEqual([
			{
				type: 'image',
				url: '/api/portal/acme/pages/p/rows/r/content/b1?sig=x',
				fileRef: { blockId: 'b1' },
				caption: 'Moodboard',
			},
			{ type: 'bookmark', url: 'https://example.com/a' },
			{
				type: 'toggle',
				text: [{ text: 'More' }],
				children: [
					{ type: 'embed', url: null },
					{
						type: 'file',
						url: '/api/portal/acme/pages/p/rows/r/content/b2?sig=x',
						fileRef: { blockId: 'b2' },
						name: 'brief.pdf',
					},
				],
			},
		])
	})
})
