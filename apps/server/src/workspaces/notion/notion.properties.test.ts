import type {
	PageObjectResponse,
	PropertyItemListResponse,
	PropertyItemObjectResponse,
	RichTextItemResponse,
} from '@notionhq/client'
import { describe, expect, it } from 'vitest'
import { ConnectorError, type ExternalRow } from '#src/workspaces/connector.ts'
import {
	blobIdsOf,
	fromPage,
	fromPropertyItems,
	type NotionPropertyConfig,
	splitText,
	toPageProperties,
	toProperties,
	truncatedPropertyIds,
	valuesMatch,
} from './notion.properties.ts'

// Shapes copied from foundations §3.7 (API version 2025-09-03).

function text(content: string): RichTextItemResponse {
	return {
		type: 'text',
		text: { content, link: null },
		annotations: {
			bold: false,
			italic: false,
			strikethrough: false,
			underline: false,
			code: false,
			color: 'default',
		},
		plain_text: content,
		href: null,
	}
}

function pageMention(id: string): RichTextItemResponse {
	return {
		type: 'mention',
		mention: { type: 'page', page: { id } },
		annotations: {
			bold: false,
			italic: false,
			strikethrough: false,
			underline: false,
			code: false,
			color: 'default',
		},
		plain_text: 'Linked page',
		href: `https://www.notion.so/${id.replaceAll('-', '')}`,
	}
}

const relatedDataSourceId = '9a1b2c3d-0000-4000-8000-00000000c1ie'

const dataSourceProperties = {
	Amount: { id: '%3AUPp', name: 'Amount', description: null, type: 'number', number: { format: 'dollar' } },
	Status: {
		id: 'Q%3E%3Ds',
		name: 'Status',
		description: 'Where the invoice is',
		type: 'status',
		status: {
			options: [
				{ id: 'st-draft', name: 'Draft', color: 'gray', description: null },
				{ id: 'st-paid', name: 'Paid', color: 'green', description: null },
			],
			groups: [
				{ id: 'gr-todo', name: 'To-do', color: 'gray', option_ids: ['st-draft'] },
				{ id: 'gr-done', name: 'Complete', color: 'green', option_ids: ['st-paid'] },
			],
		},
	},
	Name: { id: 'title', name: 'Name', description: null, type: 'title', title: {} },
	Category: {
		id: 'Cat1',
		name: 'Category',
		description: null,
		type: 'select',
		select: { options: [{ id: 'opt-design', name: 'Design', color: 'blue', description: null }] },
	},
	Tags: { id: 'Tag1', name: 'Tags', description: null, type: 'multi_select', multi_select: { options: [] } },
	Due: { id: 'Due1', name: 'Due', description: null, type: 'date', date: {} },
	Paid: { id: 'Pai1', name: 'Paid', description: null, type: 'checkbox', checkbox: {} },
	Client: {
		id: 'Cli1',
		name: 'Client',
		description: null,
		type: 'relation',
		relation: {
			database_id: '2f26ee68-df30-4251-aad4-8ddc420cba3d',
			data_source_id: relatedDataSourceId,
			type: 'dual_property',
			dual_property: { synced_property_id: 'Syn1', synced_property_name: 'Invoices' },
		},
	},
	Total: {
		id: 'Tot1',
		name: 'Total',
		description: null,
		type: 'formula',
		formula: { expression: '{{notion:block_property:%3AUPp}} * 1.21' },
	},
	Hours: {
		id: 'Hou1',
		name: 'Hours',
		description: null,
		type: 'rollup',
		rollup: {
			function: 'sum',
			relation_property_name: 'Time',
			relation_property_id: 'Tim1',
			rollup_property_name: 'Hours',
			rollup_property_id: 'Hrs1',
		},
	},
	'Invoice #': { id: 'Inv1', name: 'Invoice #', description: null, type: 'unique_id', unique_id: { prefix: 'INV' } },
	Owner: { id: 'Own1', name: 'Owner', description: null, type: 'people', people: {} },
	Files: { id: 'Fil1', name: 'Files', description: null, type: 'files', files: {} },
	Created: { id: 'Cre1', name: 'Created', description: null, type: 'created_time', created_time: {} },
	Email: { id: 'Ema1', name: 'Email', description: null, type: 'email', email: {} },
	Notes: { id: 'Not1', name: 'Notes', description: null, type: 'rich_text', rich_text: {} },
	Website: { id: 'Web1', name: 'Website', description: null, type: 'url', url: {} },
	Phone: { id: 'Pho1', name: 'Phone', description: null, type: 'phone_number', phone_number: {} },
	'Created by': { id: 'CrB1', name: 'Created by', description: null, type: 'created_by', created_by: {} },
	Edited: { id: 'Edi1', name: 'Edited', description: null, type: 'last_edited_time', last_edited_time: {} },
	'Edited by': { id: 'EdB1', name: 'Edited by', description: null, type: 'last_edited_by', last_edited_by: {} },
	Send: { id: 'Btn1', name: 'Send', description: null, type: 'button', button: {} },
	Office: { id: 'Pla1', name: 'Office', description: null, type: 'place', place: {} },
	Verified: { id: 'Ver1', name: 'Verified', description: null, type: 'verification', verification: {} },
	Mystery: { id: 'Mys1', name: 'Mystery', description: null, type: 'hologram', hologram: {} },
} as unknown as Record<string, NotionPropertyConfig>

const userA = '0c1d2e3f-1111-4111-8111-111111111111'
const userB = '0c1d2e3f-2222-4222-8222-222222222222'
const clientPage = '7f7e7d7c-3333-4333-8333-333333333333'

function invoicePage(overrides: Partial<Record<string, unknown>> = {}): PageObjectResponse {
	return {
		object: 'page',
		id: '59833787-2cf9-4fdf-8782-e53db20768a5',
		created_time: '2026-01-05T10:00:00.000Z',
		last_edited_time: '2026-01-06T11:30:00.000Z',
		created_by: { object: 'user', id: userA },
		last_edited_by: { object: 'user', id: userB },
		parent: {
			type: 'data_source_id',
			data_source_id: 'c174b72c-d782-432f-8dc0-b647e1c96df6',
			database_id: '2f26ee68-df30-4251-aad4-8ddc420cba3d',
		},
		in_trash: false,
		archived: false,
		is_archived: false,
		is_locked: false,
		icon: null,
		cover: null,
		url: 'https://www.notion.so/INV-001-598337872cf94fdf8782e53db20768a5',
		public_url: null,
		properties: {
			Name: { id: 'title', type: 'title', title: [text('Acme '), text('Ltd')] },
			Amount: { id: '%3AUPp', type: 'number', number: 1200.5 },
			Status: { id: 'Q%3E%3Ds', type: 'status', status: { id: 'st-draft', name: 'Draft', color: 'gray' } },
			Category: { id: 'Cat1', type: 'select', select: null },
			Tags: {
				id: 'Tag1',
				type: 'multi_select',
				multi_select: [
					{ id: 't1', name: 'Design', color: 'blue' },
					{ id: 't2', name: 'Print', color: 'red' },
				],
			},
			Due: { id: 'Due1', type: 'date', date: { start: '2026-02-01', end: null, time_zone: null } },
			Paid: { id: 'Pai1', type: 'checkbox', checkbox: false },
			Client: { id: 'Cli1', type: 'relation', relation: [{ id: clientPage }], has_more: false },
			Owner: { id: 'Own1', type: 'people', people: [{ object: 'user', id: userA }] },
			Files: {
				id: 'Fil1',
				type: 'files',
				files: [
					{
						name: 'receipt.pdf',
						type: 'file',
						file: { url: 'https://files.notion.test/receipt.pdf?sig=1', expiry_time: '2026-01-06T12:30:00.000Z' },
					},
					{ name: 'spec', type: 'external', external: { url: 'https://example.com/spec' } },
				],
			},
			Email: { id: 'Ema1', type: 'email', email: null },
			Notes: { id: 'Not1', type: 'rich_text', rich_text: [] },
			Website: { id: 'Web1', type: 'url', url: 'https://acme.test' },
			Phone: { id: 'Pho1', type: 'phone_number', phone_number: '+32 2 555 01 01' },
			Total: { id: 'Tot1', type: 'formula', formula: { type: 'number', number: 1452.6 } },
			Hours: { id: 'Hou1', type: 'rollup', rollup: { type: 'number', number: 12, function: 'sum' } },
			'Invoice #': { id: 'Inv1', type: 'unique_id', unique_id: { prefix: 'INV', number: 42 } },
			Created: { id: 'Cre1', type: 'created_time', created_time: '2026-01-05T10:00:00.000Z' },
			'Created by': { id: 'CrB1', type: 'created_by', created_by: { object: 'user', id: userA } },
			Edited: { id: 'Edi1', type: 'last_edited_time', last_edited_time: '2026-01-06T11:30:00.000Z' },
			'Edited by': { id: 'EdB1', type: 'last_edited_by', last_edited_by: { object: 'user', id: userB } },
			Send: { id: 'Btn1', type: 'button', button: {} },
			Office: { id: 'Pla1', type: 'place', place: { lat: 50.85, lon: 4.35, name: 'Brussels office', address: null } },
			Verified: {
				id: 'Ver1',
				type: 'verification',
				verification: { state: 'unverified', date: null, verified_by: null },
			},
			...overrides,
		},
	} as PageObjectResponse
}

const properties = toProperties(dataSourceProperties)
const byName = (name: string) => {
	const property = properties.find((candidate) => candidate.name === name)
	if (!property) {
		throw new Error(`no property ${name}`)
	}
	return property
}

describe('toProperties', () => {
	it('puts the title first and keeps Notion order after it', () => {
		expect(properties.map((property) => property.name).slice(0, 4)).toEqual(['Name', 'Amount', 'Status', 'Category'])
		expect(properties).toHaveLength(Object.keys(dataSourceProperties).length)
	})

	it('maps every Notion type', () => {
		expect(Object.fromEntries(properties.map((property) => [property.name, property.type]))).toEqual({
			Name: 'title',
			Amount: 'number',
			Status: 'status',
			Category: 'select',
			Tags: 'multi_select',
			Due: 'date',
			Paid: 'checkbox',
			Client: 'relation',
			Total: 'formula',
			Hours: 'rollup',
			'Invoice #': 'unique_id',
			Owner: 'people',
			Files: 'files',
			Created: 'created_time',
			Email: 'email',
			Notes: 'rich_text',
			Website: 'url',
			Phone: 'phone_number',
			'Created by': 'created_by',
			Edited: 'last_edited_time',
			'Edited by': 'last_edited_by',
			Send: 'button',
			Office: 'place',
			Verified: 'verification',
			Mystery: 'unsupported',
		})
	})

	it('keeps ids, formats, options, groups, relation targets, rollup result types and prefixes', () => {
		expect(byName('Amount')).toEqual({
			id: '%3AUPp',
			name: 'Amount',
			type: 'number',
			format: 'dollar',
			description: null,
		})
		expect(byName('Status')).toEqual({
			id: 'Q%3E%3Ds',
			name: 'Status',
			type: 'status',
			description: 'Where the invoice is',
			options: [
				{ id: 'st-draft', name: 'Draft', color: 'gray' },
				{ id: 'st-paid', name: 'Paid', color: 'green' },
			],
			groups: [
				{ id: 'gr-todo', name: 'To-do', color: 'gray', optionIds: ['st-draft'] },
				{ id: 'gr-done', name: 'Complete', color: 'green', optionIds: ['st-paid'] },
			],
		})
		expect(byName('Category').options).toEqual([{ id: 'opt-design', name: 'Design', color: 'blue' }])
		expect(byName('Tags').options).toEqual([])
		expect(byName('Client').relationDatabaseId).toBe(relatedDataSourceId)
		expect(byName('Hours').resultType).toBe('number')
		expect(byName('Invoice #').prefix).toBe('INV')
	})

	it('classifies rollup results by function and tolerates unknown colours', () => {
		const mapped = toProperties({
			Name: { id: 'title', name: 'Name', description: null, type: 'title', title: {} },
			Last: {
				id: 'r1',
				name: 'Last',
				description: null,
				type: 'rollup',
				rollup: {
					function: 'latest_date',
					relation_property_name: 'a',
					relation_property_id: 'b',
					rollup_property_name: 'c',
					rollup_property_id: 'd',
				},
			},
			All: {
				id: 'r2',
				name: 'All',
				description: null,
				type: 'rollup',
				rollup: {
					function: 'show_original',
					relation_property_name: 'a',
					relation_property_id: 'b',
					rollup_property_name: 'c',
					rollup_property_id: 'd',
				},
			},
			Pick: {
				id: 's1',
				name: 'Pick',
				description: null,
				type: 'select',
				select: { options: [{ id: 'o', name: 'Odd', color: 'ultraviolet', description: null }] },
			},
		} as unknown as Record<string, NotionPropertyConfig>)
		expect(mapped.map((property) => property.resultType)).toEqual([undefined, 'date', 'array', undefined])
		expect(mapped[3]?.options).toEqual([{ id: 'o', name: 'Odd', color: 'default' }])
	})
})

describe('fromPage', () => {
	it('converts every value, keyed by property id', () => {
		const row = fromPage(invoicePage(), properties)
		expect(row).toEqual({
			externalId: '59833787-2cf9-4fdf-8782-e53db20768a5',
			title: 'Acme Ltd',
			url: 'https://www.notion.so/INV-001-598337872cf94fdf8782e53db20768a5',
			createdTime: '2026-01-05T10:00:00.000Z',
			lastEditedTime: '2026-01-06T11:30:00.000Z',
			values: {
				title: 'Acme Ltd',
				'%3AUPp': 1200.5,
				'Q%3E%3Ds': 'Draft',
				Cat1: null,
				Tag1: ['Design', 'Print'],
				Due1: { start: '2026-02-01', end: null, timeZone: null },
				Pai1: false,
				Cli1: [clientPage],
				Own1: [userA],
				Fil1: [
					{
						name: 'receipt.pdf',
						url: 'https://files.notion.test/receipt.pdf?sig=1',
						blobId: null,
						expiresAt: '2026-01-06T12:30:00.000Z',
					},
					{ name: 'spec', url: 'https://example.com/spec', blobId: null },
				],
				Ema1: null,
				Not1: null,
				Web1: 'https://acme.test',
				Pho1: '+32 2 555 01 01',
				Tot1: 1452.6,
				Hou1: 12,
				Inv1: { prefix: 'INV', number: 42 },
				Cre1: '2026-01-05T10:00:00.000Z',
				CrB1: [userA],
				Edi1: '2026-01-06T11:30:00.000Z',
				EdB1: [userB],
				Btn1: null,
				Pla1: 'Brussels office',
				Ver1: 'unverified',
			},
		})
		// Mystery is unknown to the page: left out, not guessed.
		expect(row.values).not.toHaveProperty('Mys1')
	})

	it('converts formula and rollup variants', () => {
		const dateTime = { start: '2026-03-01T09:00:00.000+01:00', end: '2026-03-01T10:00:00.000+01:00', time_zone: null }
		const page = invoicePage({
			Total: { id: 'Tot1', type: 'formula', formula: { type: 'date', date: dateTime } },
			Hours: {
				id: 'Hou1',
				type: 'rollup',
				rollup: {
					type: 'array',
					function: 'show_original',
					array: [
						{ type: 'title', title: [text('Design')] },
						{ type: 'number', number: 3 },
						{ type: 'date', date: { start: '2026-01-01', end: null, time_zone: 'Europe/Brussels' } },
						{ type: 'people', people: [{ object: 'user', id: userB }] },
					],
				},
			},
		})
		const values = fromPage(page, properties).values
		expect(values.Tot1).toEqual({ start: dateTime.start, end: dateTime.end, timeZone: null })
		expect(values.Hou1).toEqual(['Design', 3, { start: '2026-01-01', end: null, timeZone: 'Europe/Brussels' }, [userB]])

		const strings = fromPage(
			invoicePage({
				Total: { id: 'Tot1', type: 'formula', formula: { type: 'string', string: 'INV-42' } },
				Hours: { id: 'Hou1', type: 'rollup', rollup: { type: 'date', date: null, function: 'latest_date' } },
			}),
			properties,
		).values
		expect(strings.Tot1).toBe('INV-42')
		expect(strings.Hou1).toBeNull()

		const booleans = fromPage(
			invoicePage({
				Total: { id: 'Tot1', type: 'formula', formula: { type: 'boolean', boolean: true } },
				Hours: { id: 'Hou1', type: 'rollup', rollup: { type: 'unsupported', unsupported: {}, function: 'count' } },
			}),
			properties,
		).values
		expect(booleans.Tot1).toBe(true)
		expect(booleans.Hou1).toBeNull()
	})

	it('finds values by id even after a rename, and falls back to the name', () => {
		const renamed = invoicePage()
		const amount = renamed.properties.Amount
		if (amount) {
			renamed.properties['Amount (EUR)'] = amount
			delete renamed.properties.Amount
		}
		expect(fromPage(renamed, properties).values['%3AUPp']).toBe(1200.5)
		const withoutId = invoicePage({ Email: { id: 'other', type: 'email', email: 'a@b.test' } })
		expect(fromPage(withoutId, properties).values.Ema1).toBe('a@b.test')
	})

	it('gives an empty title as an empty string', () => {
		const row = fromPage(invoicePage({ Name: { id: 'title', type: 'title', title: [] } }), properties)
		expect(row.title).toBe('')
		expect(row.values.title).toBeNull()
	})
})

describe('truncatedPropertyIds', () => {
	it('names nothing on an ordinary page', () => {
		expect(truncatedPropertyIds(invoicePage())).toEqual([])
	})

	it('names relations with has_more or 25 entries, people with 25, and text with 25 mentions', () => {
		const ids = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `page-${index}` }))
		const page = invoicePage({
			Client: { id: 'Cli1', type: 'relation', relation: ids(25), has_more: true },
			Owner: { id: 'Own1', type: 'people', people: ids(25).map(({ id }) => ({ object: 'user', id })) },
			Notes: { id: 'Not1', type: 'rich_text', rich_text: ids(25).map(({ id }) => pageMention(id)) },
		})
		// Hou1, a rollup: a page object computes it from the first 25 relations only.
		expect(truncatedPropertyIds(page).sort()).toEqual(['Cli1', 'Hou1', 'Not1', 'Own1'])
		const hasMoreOnly = invoicePage({ Client: { id: 'Cli1', type: 'relation', relation: ids(3), has_more: true } })
		expect(truncatedPropertyIds(hasMoreOnly)).toEqual(['Cli1', 'Hou1'])
		const exactly24 = invoicePage({ Client: { id: 'Cli1', type: 'relation', relation: ids(24), has_more: false } })
		expect(truncatedPropertyIds(exactly24)).toEqual([])
	})

	it('names every rollup of a page once one of its relations was cut at 25, and none otherwise', () => {
		const ids = (count: number) => Array.from({ length: count }, (_, index) => ({ id: `page-${index}` }))
		const rollup = (id: string) => ({ id, type: 'rollup', rollup: { type: 'number', number: 25, function: 'sum' } })
		const cut = invoicePage({
			Client: { id: 'Cli1', type: 'relation', relation: ids(25), has_more: true },
			Hours: rollup('Hou1'),
			Minutes: rollup('Min1'),
		})
		expect(truncatedPropertyIds(cut).sort()).toEqual(['Cli1', 'Hou1', 'Min1'])
		const whole = invoicePage({ Client: { id: 'Cli1', type: 'relation', relation: ids(3), has_more: false } })
		expect(truncatedPropertyIds(whole)).toEqual([])
	})
})

describe('fromPropertyItems', () => {
	it('builds full relation, people and text values from property items', () => {
		const relationItems = Array.from(
			{ length: 30 },
			(_, index): PropertyItemObjectResponse => ({
				object: 'property_item',
				id: 'Cli1',
				type: 'relation',
				relation: { id: `page-${index}` },
			}),
		)
		expect(fromPropertyItems('relation', relationItems)).toHaveLength(30)
		expect(
			fromPropertyItems('people', [
				{ object: 'property_item', id: 'Own1', type: 'people', people: { object: 'user', id: userA } },
				{ object: 'property_item', id: 'Own1', type: 'people', people: { object: 'user', id: userB } },
			]),
		).toEqual([userA, userB])
		expect(
			fromPropertyItems('rich_text', [
				{ object: 'property_item', id: 'Not1', type: 'rich_text', rich_text: text('Hello ') },
				{ object: 'property_item', id: 'Not1', type: 'rich_text', rich_text: text('world') },
			]),
		).toBe('Hello world')
		expect(
			fromPropertyItems('title', [{ object: 'property_item', id: 'title', type: 'title', title: text('Acme') }]),
		).toBe('Acme')
		expect(fromPropertyItems('rich_text', [])).toBeNull()
	})

	it('reads a rollup from the last page: its value, or the rolled-up items of "show original"', () => {
		const relationItems = Array.from(
			{ length: 30 },
			(_, index): PropertyItemObjectResponse => ({
				object: 'property_item',
				id: 'Rel1',
				type: 'relation',
				relation: { id: `page-${index}` },
			}),
		)
		const summary = (rollup: Extract<PropertyItemListResponse['property_item'], { type: 'rollup' }>['rollup']) => ({
			type: 'rollup' as const,
			rollup,
			id: 'Hou1',
			next_url: null,
		})
		expect(fromPropertyItems('rollup', relationItems, summary({ type: 'number', number: 30, function: 'sum' }))).toBe(
			30,
		)
		expect(
			fromPropertyItems(
				'rollup',
				relationItems,
				summary({ type: 'date', date: { start: '2026-01-05', end: null, time_zone: null }, function: 'latest_date' }),
			),
		).toEqual({ start: '2026-01-05', end: null, timeZone: null })
		const numbers = [3, 4].map(
			(number): PropertyItemObjectResponse => ({ object: 'property_item', id: 'Hrs1', type: 'number', number }),
		)
		expect(
			fromPropertyItems('rollup', numbers, summary({ type: 'array', array: [], function: 'show_original' })),
		).toEqual([3, 4])
		// Notion could not finish it: no value rather than a partial one.
		expect(
			fromPropertyItems('rollup', relationItems, summary({ type: 'incomplete', incomplete: {}, function: 'sum' })),
		).toBeNull()
		expect(fromPropertyItems('rollup', relationItems)).toBeNull()
	})

	it('reads a simple property from its single item', () => {
		expect(fromPropertyItems('number', [{ object: 'property_item', id: 'x', type: 'number', number: 7 }])).toBe(7)
		expect(fromPropertyItems('number', [])).toBeNull()
	})
})

describe('toPageProperties', () => {
	const id = (name: string) => byName(name).id

	it('writes every writable type keyed by property name', () => {
		const body = toPageProperties(
			{
				[id('Name')]: 'Acme Ltd',
				[id('Notes')]: 'Net 30',
				[id('Amount')]: 99.5,
				[id('Status')]: 'Paid',
				[id('Category')]: 'Design',
				[id('Tags')]: ['Design', 'Print'],
				[id('Due')]: { start: '2026-02-01', end: null, timeZone: null },
				[id('Paid')]: true,
				[id('Website')]: 'https://acme.test',
				[id('Email')]: 'billing@acme.test',
				[id('Phone')]: '+32 2 555 01 01',
				[id('Owner')]: [userA],
				[id('Client')]: [clientPage],
				[id('Files')]: [
					{ name: 'spec', url: 'https://example.com/spec', blobId: null },
					{ name: 'scan.png', url: null, blobId: 'blob-1' },
				],
			},
			properties,
			new Map([['blob-1', 'upload-1']]),
		)
		expect(body).toEqual({
			Name: { title: [{ type: 'text', text: { content: 'Acme Ltd' } }] },
			Notes: { rich_text: [{ type: 'text', text: { content: 'Net 30' } }] },
			Amount: { number: 99.5 },
			Status: { status: { name: 'Paid' } },
			Category: { select: { name: 'Design' } },
			Tags: { multi_select: [{ name: 'Design' }, { name: 'Print' }] },
			Due: { date: { start: '2026-02-01', end: null, time_zone: null } },
			Paid: { checkbox: true },
			Website: { url: 'https://acme.test' },
			Email: { email: 'billing@acme.test' },
			Phone: { phone_number: '+32 2 555 01 01' },
			Owner: { people: [{ id: userA }] },
			Client: { relation: [{ id: clientPage }] },
			Files: {
				files: [
					{ name: 'spec', external: { url: 'https://example.com/spec' } },
					{ name: 'scan.png', type: 'file_upload', file_upload: { id: 'upload-1' } },
				],
			},
		})
	})

	it('clears with null', () => {
		const body = toPageProperties(
			{
				[id('Notes')]: null,
				[id('Amount')]: null,
				[id('Status')]: null,
				[id('Category')]: null,
				[id('Tags')]: null,
				[id('Due')]: null,
				[id('Website')]: null,
				[id('Owner')]: null,
				[id('Client')]: [],
				[id('Files')]: null,
				[id('Paid')]: null,
			},
			properties,
			new Map(),
		)
		expect(body).toEqual({
			Notes: { rich_text: [] },
			Amount: { number: null },
			Status: { status: null },
			Category: { select: null },
			Tags: { multi_select: [] },
			Due: { date: null },
			Website: { url: null },
			Owner: { people: [] },
			Client: { relation: [] },
			Files: { files: [] },
			Paid: { checkbox: false },
		})
	})

	it('splits long text into items of at most 2000 characters', () => {
		const long = 'a'.repeat(4500)
		const body = toPageProperties({ [id('Notes')]: long }, properties, new Map())
		const items = (body.Notes as { rich_text: Array<{ text: { content: string } }> }).rich_text
		expect(items.map((item) => item.text.content.length)).toEqual([2000, 2000, 500])
		expect(items.map((item) => item.text.content).join('')).toBe(long)
		// 200,000 characters is exactly 100 items: the most Notion takes.
		const max = toPageProperties({ [id('Notes')]: 'b'.repeat(200_000) }, properties, new Map())
		expect((max.Notes as { rich_text: unknown[] }).rich_text).toHaveLength(100)
	})

	it('never splits a surrogate pair', () => {
		const chunks = splitText(`${'a'.repeat(1999)}😀tail`)
		expect(chunks[0]).toBe('a'.repeat(1999))
		expect(chunks[1]).toBe('😀tail')
	})

	it('refuses what Notion cannot take, naming the property', () => {
		const attempt = (name: string, value: unknown) => {
			try {
				toPageProperties({ [id(name)]: value as never }, properties, new Map())
			} catch (error) {
				return error
			}
			return null
		}
		const tooLong = attempt('Notes', 'x'.repeat(200_001))
		expect(tooLong).toBeInstanceOf(ConnectorError)
		expect(tooLong).toMatchObject({ kind: 'invalid', property: 'Notes' })
		expect(
			attempt(
				'Client',
				Array.from({ length: 101 }, (_, index) => `page-${index}`),
			),
		).toMatchObject({
			kind: 'invalid',
			property: 'Client',
		})
		expect(
			attempt(
				'Owner',
				Array.from({ length: 101 }, (_, index) => `user-${index}`),
			),
		).toMatchObject({
			property: 'Owner',
		})
		expect(attempt('Website', `https://a.test/${'p'.repeat(2000)}`)).toMatchObject({ property: 'Website' })
		expect(attempt('Email', `${'e'.repeat(200)}@a.test`)).toMatchObject({ property: 'Email' })
		expect(attempt('Tags', ['a,b'])).toMatchObject({ property: 'Tags' })
		expect(attempt('Amount', Number.NaN)).toMatchObject({ property: 'Amount' })
		expect(attempt('Files', [{ name: 'x', url: null, blobId: 'not-uploaded' }])).toMatchObject({ property: 'Files' })
	})

	it('never writes read-only types', () => {
		for (const name of [
			'Total',
			'Hours',
			'Invoice #',
			'Created',
			'Created by',
			'Edited',
			'Send',
			'Office',
			'Mystery',
		]) {
			expect(() => toPageProperties({ [id(name)]: null }, properties, new Map())).toThrow(ConnectorError)
		}
		expect(() => toPageProperties({ nope: 'x' }, properties, new Map())).toThrow(/Unknown property/)
	})

	it('lists the blobs to upload first', () => {
		expect(
			blobIdsOf(
				{
					[id('Files')]: [
						{ name: 'a', url: null, blobId: 'blob-1' },
						{ name: 'b', url: 'https://x.test', blobId: null },
					],
					[id('Name')]: 'x',
				},
				properties,
			),
		).toEqual(['blob-1'])
	})
})

describe('valuesMatch', () => {
	const row: ExternalRow = fromPage(invoicePage(), properties)
	const id = (name: string) => byName(name).id

	it('matches the values the row holds, normalised', () => {
		expect(
			valuesMatch(
				row,
				{
					[id('Name')]: '  Acme Ltd ',
					[id('Amount')]: 1200.5,
					[id('Status')]: 'Draft',
					[id('Category')]: null,
					[id('Tags')]: ['Print', 'Design'],
					[id('Due')]: { start: '2026-02-01', end: null, timeZone: 'Europe/Brussels' },
					[id('Paid')]: false,
					[id('Client')]: [clientPage.replaceAll('-', '')],
					[id('Notes')]: '',
					[id('Email')]: null,
					[id('Files')]: [
						{ name: 'spec', url: 'https://example.com/spec', blobId: null },
						{ name: 'receipt.pdf', url: null, blobId: 'blob-9' },
					],
				},
				properties,
			),
		).toBe(true)
	})

	it('compares date-times by instant', () => {
		const withTime = fromPage(
			invoicePage({
				Due: { id: 'Due1', type: 'date', date: { start: '2026-02-01T08:00:00.000+00:00', end: null, time_zone: null } },
			}),
			properties,
		)
		expect(
			valuesMatch(
				withTime,
				{ [id('Due')]: { start: '2026-02-01T10:00+02:00', end: null, timeZone: null } },
				properties,
			),
		).toBe(true)
		expect(
			valuesMatch(
				withTime,
				{ [id('Due')]: { start: '2026-02-01T10:00+00:00', end: null, timeZone: null } },
				properties,
			),
		).toBe(false)
	})

	it('does not match a different value', () => {
		expect(valuesMatch(row, { [id('Name')]: 'Acme' }, properties)).toBe(false)
		expect(valuesMatch(row, { [id('Amount')]: 1200 }, properties)).toBe(false)
		expect(valuesMatch(row, { [id('Tags')]: ['Design'] }, properties)).toBe(false)
		expect(valuesMatch(row, { [id('Paid')]: true }, properties)).toBe(false)
		expect(valuesMatch(row, { [id('Email')]: 'a@b.test' }, properties)).toBe(false)
		expect(valuesMatch(row, { [id('Due')]: null }, properties)).toBe(false)
		expect(valuesMatch(row, { unknown: 'x' }, properties)).toBe(false)
	})
})
