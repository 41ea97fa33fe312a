import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { describe, expect, test } from 'vitest'
import {
	batches,
	buildProperties,
	convertRows,
	convertValue,
	inferColumns,
	inferType,
	parseCsv,
	parseDate,
	parseNumber,
	planProblems,
	setTitleColumn,
} from './csv-import.ts'

const sample = `\uFEFFName,Amount,Paid,Due,Contact,Site,Stage,Tags,Notes
Acme,"1,200.50",yes,2024-05-01,ana@acme.test,https://acme.test,Lead,"web, design",First call went well
Globex,300,no,2024/6/2,bo@globex.test,https://globex.test,Won,"design",
Initech,-12,Yes,2024-07-03 14:30Z,cy@initech.test,www.initech.test,Lead,"web, seo",Wants a quote

Umbrella,,No,,dee@umbrella.test,,Won,"seo, web",Call back
`

describe('parseCsv', () => {
	test('reads the header row, drops the BOM and blank lines, names missing headers', () => {
		const csv = parseCsv('a,,c\n1,2,3\n\n4,5,6,7\n')
		expect(csv.headers).toEqual(['a', 'Column 2', 'c', 'Column 4'])
		expect(csv.rows).toEqual([
			['1', '2', '3'],
			['4', '5', '6', '7'],
		])
		expect(parseCsv(sample).headers[0]).toBe('Name')
		expect(parseCsv(sample).rows).toHaveLength(4)
	})
})

describe('reading values', () => {
	test('numbers with thousands separators, signs, currency and exponents', () => {
		expect(parseNumber('1,234.5')).toBe(1234.5)
		expect(parseNumber('-3')).toBe(-3)
		expect(parseNumber('$12.50')).toBe(12.5)
		expect(parseNumber('.5')).toBe(0.5)
		expect(parseNumber('1e3')).toBe(1000)
		expect(parseNumber('12a')).toBeNull()
		expect(parseNumber('1,23')).toBeNull()
		expect(parseNumber('')).toBeNull()
		expect(parseNumber('-')).toBeNull()
	})

	test('ISO-ish dates, date-times and ranges', () => {
		expect(parseDate('2024-05-01')).toEqual({ start: '2024-05-01', end: null, timeZone: null })
		expect(parseDate('2024/5/1')).toEqual({ start: '2024-05-01', end: null, timeZone: null })
		expect(parseDate('2024-05-01T09:30:00+0200')?.start).toBe('2024-05-01T09:30:00+02:00')
		expect(parseDate('2024-05-01 09:30Z')?.start).toBe('2024-05-01T09:30:00Z')
		expect(parseDate('2024-05-01 → 2024-05-03')).toEqual({ start: '2024-05-01', end: '2024-05-03', timeZone: null })
		expect(parseDate('2024-13-01')).toBeNull()
		expect(parseDate('May 1')).toBeNull()
	})
})

describe('inferType', () => {
	test.each([
		[['1', '2.5', '', '-3'], 'number'],
		[['true', 'No', 'YES'], 'checkbox'],
		[['2024-01-01', '2024-02-01T10:00Z'], 'date'],
		[['a@b.test', 'c@d.test'], 'email'],
		[['https://a.test', 'www.b.test'], 'url'],
		[['Lead', 'Won', 'Lead'], 'select'],
		[['web, design', 'design', 'web'], 'multi_select'],
		[['alpha', 'beta', 'gamma'], 'rich_text'],
		[['Hello, world', 'Goodbye, moon'], 'rich_text'],
		[['', ' '], 'rich_text'],
	] as const)('%j → %s', (values, type) => {
		expect(inferType(values)).toBe(type)
	})

	test('more than 20 distinct values is text, not a select', () => {
		const values = Array.from({ length: 50 }, (_, index) => `value ${index % 25}`)
		expect(inferType(values)).toBe('rich_text')
	})
})

describe('inferColumns', () => {
	test('guesses every column and makes the first text column the title', () => {
		const columns = inferColumns(parseCsv(sample))
		expect(columns.map((column) => [column.name, column.type])).toEqual([
			['Name', 'title'],
			['Amount', 'number'],
			['Paid', 'checkbox'],
			['Due', 'date'],
			['Contact', 'email'],
			['Site', 'url'],
			['Stage', 'select'],
			['Tags', 'multi_select'],
			['Notes', 'rich_text'],
		])
	})

	test('without a text column the first column is the title; duplicate names get a number', () => {
		const columns = inferColumns(parseCsv('n,n\n1,2\n3,4\n'))
		expect(columns.map((column) => [column.name, column.type])).toEqual([
			['n', 'title'],
			['n 2', 'number'],
		])
	})

	test('choosing another title gives the old one back its type', () => {
		const columns = setTitleColumn(inferColumns(parseCsv(sample)), 8)
		expect(columns[0]?.type).toBe('rich_text')
		expect(columns[8]?.type).toBe('title')
		expect(planProblems(columns)).toEqual([])
		expect(
			planProblems(columns.map((column) => ({ ...column, type: column.type === 'title' ? null : column.type }))),
		).toEqual(['Mark one column as the title.'])
		expect(planProblems(columns.map((column) => ({ ...column, name: 'Same' })))).toContain(
			'Column names must be different.',
		)
	})
})

describe('building and converting', () => {
	const csv = parseCsv(sample)
	const columns = inferColumns(csv).map((column) => (column.name === 'Site' ? { ...column, type: null } : column))

	test('properties carry options collected from the data', () => {
		const properties = buildProperties(columns, csv.rows)
		expect(properties.map((property) => property.name)).not.toContain('Site')
		expect(properties.find((property) => property.name === 'Stage')?.options?.map((option) => option.name)).toEqual([
			'Lead',
			'Won',
		])
		expect(properties.find((property) => property.name === 'Tags')?.options?.map((option) => option.name)).toEqual([
			'web',
			'design',
			'seo',
		])
	})

	test('rows become typed values keyed by the created property ids', () => {
		const created: Property[] = buildProperties(columns, csv.rows).map((input, index) => ({
			id: `p${index}`,
			name: input.name,
			type: input.type,
		}))
		const [first, , , last] = convertRows(columns, csv.rows, created)
		expect(first).toEqual({
			p0: 'Acme',
			p1: 1200.5,
			p2: true,
			p3: { start: '2024-05-01', end: null, timeZone: null },
			p4: 'ana@acme.test',
			p5: 'Lead',
			p6: ['web', 'design'],
			p7: 'First call went well',
		})
		expect(last).toMatchObject({ p1: null, p2: false, p3: null, p7: 'Call back' })
	})

	test('single values by type', () => {
		expect(convertValue(' x ', 'checkbox')).toBe(true)
		expect(convertValue('', 'checkbox')).toBe(false)
		expect(convertValue('a, b, a', 'multi_select')).toEqual(['a', 'b'])
		expect(convertValue('', 'select')).toBeNull()
		expect(convertValue('  hi ', 'rich_text')).toBe('hi')
		expect(convertValue('', 'title')).toBeNull()
		expect(convertValue('oops', 'number')).toBeNull()
	})

	test('wide rows are batched by size too, so a batch never exceeds the body limit', () => {
		const wide = Array.from({ length: 1000 }, () => ({ notes: 'x'.repeat(2000) }))
		const result = batches(wide)
		expect(result.length).toBeGreaterThan(1)
		expect(result.flat()).toHaveLength(1000)
		for (const batch of result) {
			expect(JSON.stringify({ rows: batch.map((values) => ({ values })) }).length).toBeLessThan(1024 * 1024)
		}
	})

	test('batches of at most 1000', () => {
		expect(batches(Array.from({ length: 2500 }, (_, index) => index)).map((batch) => batch.length)).toEqual([
			1000, 1000, 500,
		])
	})
})
