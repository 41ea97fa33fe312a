import { type ChartFigures, chartDisplaySchema } from '@blocksmith/contracts/charts.ts'
import { expect, test } from 'vitest'
import { figuresCsv } from './charts.csv.ts'

const display = chartDisplaySchema.parse({})

function figures(overrides: Partial<ChartFigures>): ChartFigures {
	return {
		type: 'bar',
		xKind: 'category',
		categories: [],
		series: [],
		rowCount: 0,
		isTruncated: false,
		problems: [],
		computedAt: '2026-11-24T10:00:00.000Z',
		...overrides,
	}
}

const series = (name: string, values: Array<number | null>, key = name) => ({
	key,
	name,
	seriesId: 's1',
	group: null,
	isOther: false,
	isComparison: false,
	values,
})

test('categories by series, numbers exactly as held, empty where there is no value', () => {
	const csv = figuresCsv(
		figures({
			categories: [
				{ key: '2026-01-01', label: 'Jan 2026' },
				{ key: '2026-02-01', label: 'Feb 2026' },
			],
			series: [series('Sum of Amount', [1234.5678, 0.1 + 0.2]), series('Count (previous period)', [-3, null], 'c')],
		}),
		{ ...display, xAxisTitle: 'Month' },
	)
	expect(csv).toBe(
		'Month,Sum of Amount,Count (previous period)\r\nJan 2026,1234.5678,-3\r\nFeb 2026,0.30000000000000004,\r\n',
	)
})

test('the first column is called Label without an axis title', () => {
	expect(figuresCsv(figures({ categories: [{ key: 'a', label: 'A' }], series: [series('Count', [1])] }), display)).toBe(
		'Label,Count\r\nA,1\r\n',
	)
})

test('quotes, commas and line breaks are quoted; formulas are defused', () => {
	const csv = figuresCsv(
		figures({
			categories: [
				{ key: '1', label: '=HYPERLINK("http://evil","x")' },
				{ key: '2', label: '+1' },
				{ key: '3', label: '-cmd' },
				{ key: '4', label: '@SUM(A1)' },
				{ key: '5', label: 'Smith, "Jr"\nline' },
				{ key: '6', label: '\tTab' },
			],
			series: [series('=1+1', [1, 2, 3, 4, 5, -6])],
		}),
		display,
	)
	expect(csv.split('\r\n')).toEqual([
		"Label,'=1+1",
		`"'=HYPERLINK(""http://evil"",""x"")",1`,
		"'+1,2",
		"'-cmd,3",
		"'@SUM(A1),4",
		'"Smith, ""Jr""\nline",5',
		"'\tTab,-6",
		'',
	])
})

test('a KPI: label, value, previous, change', () => {
	const csv = figuresCsv(
		figures({
			type: 'number',
			kpi: { value: 1250.5, previous: 1000, change: 0.2505, currentLabel: 'This month', previousLabel: 'Last month' },
		}),
		display,
	)
	expect(csv).toBe('label,value,previous,change\r\nThis month,1250.5,1000,0.2505\r\n')
	const alone = figuresCsv(
		figures({ kpi: { value: null, previous: null, change: null, currentLabel: 'All time', previousLabel: null } }),
		display,
	)
	expect(alone).toBe('label,value,previous,change\r\nAll time,,,\r\n')
})

test('scatter: a row per point', () => {
	const csv = figuresCsv(
		figures({
			type: 'scatter',
			points: [
				{ x: 1.5, y: -2, group: 'A', label: 'Row 1' },
				{ x: 3, y: 4, group: null, label: '=cmd' },
			],
		}),
		display,
	)
	expect(csv).toBe("x,y,group,label\r\n1.5,-2,A,Row 1\r\n3,4,,'=cmd\r\n")
})

test('figures with problems have only the header', () => {
	const csv = figuresCsv(figures({ problems: [{ field: 'x.property', message: 'Gone' }] }), display)
	expect(csv).toBe('Label\r\n')
})
