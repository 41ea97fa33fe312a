import {
	type ChartFigures,
	chartDisplaySchema,
	chartEmbedSchema,
	type PublicChart,
} from '@blocksmith/contracts/charts.ts'
import { describe, expect, test } from 'vitest'
import { type ChartPageInput, renderChartPage, scopeSvgIds } from './charts.page.ts'
import { renderChartSvg } from './charts.render.ts'

const now = new Date('2026-11-24T12:00:00.000Z')

const figures: ChartFigures = {
	type: 'bar',
	xKind: 'category',
	categories: [
		{ key: 'a', label: 'Design <b>' },
		{ key: 'b', label: 'Build' },
	],
	series: [
		{
			key: 's1',
			name: 'Hours & "cost"',
			seriesId: 's1',
			group: null,
			isOther: false,
			isComparison: false,
			values: [1200, 80.5],
		},
	],
	rowCount: 12,
	isTruncated: false,
	problems: [],
	computedAt: '2026-11-24T11:00:00.000Z',
}

async function chartOf(overrides: Partial<PublicChart> = {}): Promise<PublicChart> {
	const display = chartDisplaySchema.parse({ numberFormat: { style: 'currency', currency: 'USD' } })
	const type = overrides.type ?? 'bar'
	return {
		id: 'ch_1',
		name: 'Hours <script>alert(1)</script>',
		type,
		display,
		embed: chartEmbedSchema.parse({}),
		figures,
		svg: await renderChartSvg({ type, display, figures, width: 640, theme: 'light', transparent: true }),
		dataUpdatedAt: '2026-11-24T11:55:00.000Z',
		...overrides,
	}
}

function page(overrides: Partial<ChartPageInput>) {
	const rendered = renderChartPage({
		chart: null,
		pageUrl: 'https://charts.example.org/charts/ch_1',
		imageUrl: 'https://charts.example.org/api/notion_charts/charts/ch_1/image.png',
		theme: 'light',
		transparent: true,
		now,
		...overrides,
	})
	if ('redirect' in rendered) {
		throw new Error('no redirect expected')
	}
	return { ...rendered, body: rendered.body ?? '' }
}

describe('renderChartPage', () => {
	test('the chart is drawn into the body: visible without any script', async () => {
		const { status, body, data } = page({ chart: await chartOf() })
		expect(status).toBe(200)
		expect(body).toMatch(/^<main class="bs-chart bs-theme-light" data-type="bar">/)
		expect(body).toContain('<svg')
		expect(body).toContain('ecmeta_tip="Design &lt;b&gt;&#10;Hours &amp; &quot;cost&quot;: $1,200"')
		expect(body).not.toMatch(/<script/i)
		expect(data).toEqual({
			chart: {
				id: 'ch_1',
				name: 'Hours <script>alert(1)</script>',
				type: 'bar',
				apiPath: '/api/notion_charts/charts/ch_1',
				theme: 'light',
				transparent: true,
				refreshSeconds: null,
				width: 640,
				numberFormat: { style: 'currency', currency: 'USD', decimals: null, compact: false },
				xAxisTitle: null,
				updatedAt: '2026-11-24T11:55:00.000Z',
			},
		})
	})

	test('the head: title, preview image, no indexing, the colour scheme; all escaped', async () => {
		const { head } = page({ chart: await chartOf(), theme: 'auto' })
		expect(head).toContain('<title>Hours &lt;script&gt;alert(1)&lt;/script&gt;</title>')
		expect(head).toContain('<meta property="og:title" content="Hours &lt;script&gt;alert(1)&lt;/script&gt;" />')
		expect(head).toContain(
			'<meta property="og:image" content="https://charts.example.org/api/notion_charts/charts/ch_1/image.png" />',
		)
		expect(head).toContain('<meta name="twitter:card" content="summary_large_image" />')
		expect(head).toContain('<meta name="robots" content="noindex" />')
		expect(head).toContain('<meta name="color-scheme" content="light dark" />')
		expect(head).not.toMatch(/<script/i)
		expect(page({ chart: await chartOf(), theme: 'dark' }).head).toContain(
			'<meta name="color-scheme" content="dark" />',
		)
	})

	test('auto: both drawings, each with its own ids, one shown by the viewer’s appearance', async () => {
		const chart = await chartOf()
		const darkSvg = await renderChartSvg({
			type: 'bar',
			display: chart.display,
			figures,
			width: 640,
			theme: 'dark',
			transparent: true,
		})
		const { body, head } = page({ chart, theme: 'auto', darkSvg })
		expect(body).toContain('data-variant="light"')
		expect(body).toContain('data-variant="dark"')
		expect(body.match(/<svg/g)).toHaveLength(2)
		expect(body).toContain('.bsl-cls-')
		expect(body).toContain('.bsd-cls-')
		expect(body).not.toMatch(/\bzr\d+-cls-/)
		expect(head).toMatch(
			/@media \(prefers-color-scheme:dark\)\{[^}]*\{[^}]*\}\.bs-theme-auto \[data-variant="light"\]\{display:none\}/,
		)
	})

	test('a table is an HTML table in the number format', async () => {
		const { body } = page({ chart: await chartOf({ type: 'table', svg: '' }) })
		expect(body).toContain('<table>')
		expect(body).toContain('<th scope="row">Design &lt;b&gt;</th><td class="bs-num">$1,200</td>')
		expect(body).toContain('<td class="bs-num">$80.50</td>')
		expect(body).toContain('<th scope="col" class="bs-num">Hours &amp; "cost"</th>')
		expect(body).toContain('<h1 class="bs-chart-title">Hours &lt;script&gt;alert(1)&lt;/script&gt;</h1>')
	})

	test('a KPI is its drawing', async () => {
		const kpiFigures: ChartFigures = {
			...figures,
			type: 'number',
			categories: [],
			series: [],
			kpi: { value: 42, previous: 40, change: 0.05, currentLabel: 'This week', previousLabel: 'Last week' },
		}
		const display = chartDisplaySchema.parse({})
		const svg = await renderChartSvg({
			type: 'number',
			display,
			figures: kpiFigures,
			width: 320,
			theme: 'light',
			transparent: true,
		})
		const { body } = page({ chart: await chartOf({ type: 'number', figures: kpiFigures, display, svg }) })
		expect(body).toContain('>42</text>')
		expect(body).toContain('▲ +5%')
	})

	test('"Updated" is relative with the absolute time beside it; downloads only when allowed', async () => {
		const closed = page({ chart: await chartOf() }).body
		expect(closed).toContain(
			'Updated <time datetime="2026-11-24T11:55:00.000Z" title="2026-11-24 11:55 UTC">5 min ago</time>',
		)
		expect(closed).not.toContain('image.png')
		const open = page({
			chart: await chartOf({ embed: chartEmbedSchema.parse({ allowDownloads: true }) }),
			tool: 'local',
			imageUrl: '',
		}).body
		for (const file of ['image.png', 'image.svg', 'figures.csv']) {
			expect(open).toContain(`href="/api/local_charts/charts/ch_1/${file}" download`)
		}
	})

	test('figures with problems say what is wrong, without a drawing', async () => {
		const broken = {
			...figures,
			categories: [],
			series: [],
			problems: [{ field: 'x.property', message: 'The <Status> property was removed.' }],
		}
		const { body } = page({ chart: await chartOf({ figures: broken, svg: '' }) })
		expect(body).toContain('role="alert"')
		expect(body).toContain('<li>The &lt;Status&gt; property was removed.</li>')
		expect(body).not.toContain('<svg')
	})

	test('an unpublished or deleted chart: a "not available" page with no figures', () => {
		const rendered = page({
			chart: null,
			error: { status: 404, code: 'NOT_FOUND', detail: 'Chart not found' },
			theme: 'auto',
		})
		expect(rendered.status).toBe(404)
		expect(rendered.head).toContain('<title>Chart not available</title>')
		expect(rendered.head).toContain('noindex')
		expect(rendered.head).not.toContain('og:image')
		expect(rendered.body).toContain('This chart is not available')
		expect(rendered.body).not.toContain('<svg')
		expect(rendered.data).toEqual({ error: { status: 404, code: 'NOT_FOUND', detail: 'Chart not found' } })
	})
})

test('scopeSvgIds renames only ECharts’ generated ids and classes', () => {
	const svg =
		'<svg><path class="zr12-cls-3" clip-path="url(#zr12-c0)"></path><text>zr12 stays</text><style>.zr12-cls-3:hover{}</style></svg>'
	expect(scopeSvgIds(svg, 'bsl')).toBe(
		'<svg><path class="bsl-cls-3" clip-path="url(#bsl-c0)"></path><text>zr12 stays</text><style>.bsl-cls-3:hover{}</style></svg>',
	)
})
