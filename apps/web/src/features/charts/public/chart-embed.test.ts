import { afterEach, describe, expect, test, vi } from 'vitest'
import { type ChartPageData, readPageData, startEmbed } from './chart-embed.ts'

// A drawing as the server writes it (charts.render.ts on ECharts' SSR output, trimmed): two bar
// series with data labels, a legend item per series, the tooltip text on each bar.
const drawing = (tip = 'Jan') => `<svg width="400" height="200" viewBox="0 0 400 200">
<rect width="400" height="200" x="0" y="0" fill="none"></rect>
<path d="M0 0" fill="#337ea9" ecmeta_series_index="0" ecmeta_data_index="0" ecmeta_ssr_type="chart" ecmeta_tip="${tip}&#10;Alpha: $1,200" class="zr0-cls-1"></path>
<path d="M0 0" fill="#337ea9" ecmeta_series_index="0" ecmeta_data_index="1" ecmeta_ssr_type="chart" ecmeta_tip="Feb&#10;Alpha: $3,400.50" class="zr0-cls-1"></path>
<text ecmeta_series_index="0" ecmeta_data_index="0" ecmeta_ssr_type="label">$1,200</text>
<path d="M0 0" fill="#d9730d" ecmeta_series_index="1" ecmeta_data_index="0" ecmeta_ssr_type="chart" ecmeta_tip="Jan&#10;Beta &lt;b&gt;: $800" class="zr0-cls-2"></path>
<path d="M8 4" transform="translate(10 5)" fill="#337ea9" ecmeta_series_index="0" ecmeta_data_index="0" ecmeta_ssr_type="legend"></path>
<text transform="translate(10 5)">Alpha</text>
<path d="M0 0l40 0" transform="translate(10 5)" fill="none" pointer-events="visible" ecmeta_series_index="0" ecmeta_data_index="0" ecmeta_ssr_type="legend"></path>
<path d="M8 4" transform="translate(80 5)" fill="#d9730d" ecmeta_series_index="1" ecmeta_data_index="1" ecmeta_ssr_type="legend"></path>
<text transform="translate(80 5)">Beta &lt;b&gt;</text>
<path d="M0 0l40 0" transform="translate(80 5)" fill="none" pointer-events="visible" ecmeta_series_index="1" ecmeta_data_index="1" ecmeta_ssr_type="legend"></path>
<defs><clipPath id="zr0-c0"><path d="M0 0"></path></clipPath></defs>
</svg>`

const data: ChartPageData = {
	id: 'ch_1',
	name: 'Revenue',
	type: 'bar',
	apiPath: '/api/notion_charts/charts/ch_1',
	theme: 'light',
	transparent: true,
	refreshSeconds: null,
	width: null,
	numberFormat: { style: 'currency', currency: 'USD', decimals: null, compact: false },
	xAxisTitle: null,
	updatedAt: '2026-11-24T11:55:00.000Z',
}

function mount(pageData: ChartPageData = data): HTMLElement {
	document.body.innerHTML = `<script type="application/json" id="blocksmith-page">${JSON.stringify({ chart: pageData })}</script><div id="root"><main class="bs-chart bs-theme-light" data-type="bar"><div class="bs-chart-body"><div class="bs-chart-svg" data-variant="only">${drawing()}</div></div><footer class="bs-chart-meta"><span>Updated <time datetime="${pageData.updatedAt}">5 min ago</time></span></footer></main></div>`
	return document.querySelector('main') as HTMLElement
}

function bar(series: number, index: number, root: ParentNode = document): Element {
	const element = root.querySelector(
		`[ecmeta_ssr_type="chart"][ecmeta_series_index="${series}"][ecmeta_data_index="${index}"]`,
	)
	if (!element) {
		throw new Error('no such bar')
	}
	return element
}

const tooltip = () => document.querySelector<HTMLElement>('.bs-tip')

afterEach(() => {
	document.body.innerHTML = ''
	vi.useRealTimers()
})

describe('the chart embed', () => {
	test('reads the page data block', () => {
		mount()
		expect(readPageData(document)).toEqual(data)
	})

	test('a tooltip on hover shows the point’s text, and goes on leaving', () => {
		const root = mount()
		startEmbed(root, data)
		bar(1, 0).dispatchEvent(new MouseEvent('pointermove', { bubbles: true, clientX: 50, clientY: 60 }))
		expect(tooltip()?.hidden).toBe(false)
		expect(tooltip()?.textContent).toBe('Jan\nBeta <b>: $800')
		// Text, never markup.
		expect(tooltip()?.querySelector('b')).toBeNull()
		expect(tooltip()?.style.left).toBe('62px')
		root.querySelector('rect')?.dispatchEvent(new MouseEvent('pointermove', { bubbles: true }))
		expect(tooltip()?.hidden).toBe(true)
	})

	test('points can be focused, and focus shows the tooltip', () => {
		const root = mount()
		startEmbed(root, data)
		const point = bar(0, 1) as SVGElement
		expect(point.getAttribute('tabindex')).toBe('0')
		expect(point.getAttribute('aria-label')).toBe('Feb, Alpha: $3,400.50')
		point.dispatchEvent(new FocusEvent('focusin', { bubbles: true }))
		expect(tooltip()?.textContent).toBe('Feb\nAlpha: $3,400.50')
		point.dispatchEvent(new FocusEvent('focusout', { bubbles: true }))
		expect(tooltip()?.hidden).toBe(true)
	})

	test('a legend click hides its series (bars and labels) and dims the item; a second shows it again', () => {
		const root = mount()
		startEmbed(root, data)
		const hitArea = root.querySelector('[ecmeta_ssr_type="legend"][ecmeta_series_index="0"][pointer-events="visible"]')
		hitArea?.dispatchEvent(new MouseEvent('click', { bubbles: true }))
		expect(bar(0, 0).hasAttribute('data-hidden')).toBe(true)
		expect(bar(0, 1).hasAttribute('data-hidden')).toBe(true)
		expect(root.querySelector('[ecmeta_ssr_type="label"]')?.hasAttribute('data-hidden')).toBe(true)
		expect(bar(1, 0).hasAttribute('data-hidden')).toBe(false)
		const itemParts = [...root.querySelectorAll('[transform="translate(10 5)"]')]
		expect(itemParts).toHaveLength(3)
		expect(itemParts.every((part) => part.hasAttribute('data-off'))).toBe(true)
		expect(hitArea?.getAttribute('aria-pressed')).toBe('false')
		// A hidden point has no tooltip.
		bar(0, 0).dispatchEvent(new MouseEvent('pointermove', { bubbles: true }))
		expect(tooltip()?.hidden).toBe(true)

		hitArea?.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }))
		expect(bar(0, 0).hasAttribute('data-hidden')).toBe(false)
		expect(itemParts.some((part) => part.hasAttribute('data-off'))).toBe(false)
	})

	test('in a pie a legend item hides its slice only', () => {
		const root = mount({ ...data, type: 'pie' })
		startEmbed(root, { ...data, type: 'pie' })
		root
			.querySelector('[ecmeta_ssr_type="legend"][ecmeta_series_index="1"]')
			?.dispatchEvent(new MouseEvent('click', { bubbles: true }))
		// Series 1, data index 1: no such slice here, and nothing else is touched.
		expect(root.querySelectorAll('[data-hidden]')).toHaveLength(0)
		root
			.querySelector('[ecmeta_ssr_type="legend"][ecmeta_series_index="0"]')
			?.dispatchEvent(new MouseEvent('click', { bubbles: true }))
		expect(bar(0, 0).hasAttribute('data-hidden')).toBe(true)
		expect(bar(0, 1).hasAttribute('data-hidden')).toBe(false)
	})

	test('a refresh puts the new drawing in place, keeps hidden series hidden and updates the time', async () => {
		const fetch = vi.fn(async () =>
			Response.json({
				type: 'bar',
				svg: drawing('January'),
				dataUpdatedAt: '2026-11-24T12:00:00.000Z',
				figures: { problems: [], computedAt: '2026-11-24T12:00:00.000Z' },
			}),
		)
		vi.stubGlobal('fetch', fetch)
		const root = mount()
		const embed = startEmbed(root, data)
		root
			.querySelector('[ecmeta_ssr_type="legend"][ecmeta_series_index="1"]')
			?.dispatchEvent(new MouseEvent('click', { bubbles: true }))
		await embed.refresh()
		expect(fetch).toHaveBeenCalledWith(
			expect.stringMatching(/^\/api\/notion_charts\/charts\/ch_1\?theme=light&width=\d+$/),
			expect.anything(),
		)
		expect(bar(0, 0).getAttribute('ecmeta_tip')).toBe('January\nAlpha: $1,200')
		expect(bar(1, 0).hasAttribute('data-hidden')).toBe(true)
		expect(root.querySelector('clipPath')?.id).toBe('bso-c0')
		expect(root.querySelector('time')?.dateTime).toBe('2026-11-24T12:00:00.000Z')
	})

	test('a drawing made for a width far from its frame’s is redrawn at the frame’s width', () => {
		const fetch = vi.fn(async () => new Response('{}', { status: 500 }))
		vi.stubGlobal('fetch', fetch)
		const root = mount()
		startEmbed(root, { ...data, width: 1600 })
		expect(fetch).toHaveBeenCalledTimes(1)
		startEmbed(mount(), { ...data, width: 120 })
		expect(fetch).toHaveBeenCalledTimes(1)
	})

	test('a frame resized far from its drawing redraws once the resizing stops', () => {
		vi.useFakeTimers()
		const fetch = vi.fn(async () => new Response('{}', { status: 500 }))
		vi.stubGlobal('fetch', fetch)
		const root = mount()
		// jsdom lays nothing out: the body's width is what a browser would measure.
		const body = root.querySelector('.bs-chart-body') as HTMLElement
		let width = 400
		Object.defineProperty(body, 'clientWidth', { get: () => width })
		startEmbed(root, { ...data, width: 400 })
		width = 440
		window.dispatchEvent(new Event('resize'))
		vi.advanceTimersByTime(300)
		expect(fetch).not.toHaveBeenCalled()
		width = 360
		window.dispatchEvent(new Event('resize'))
		width = 200
		window.dispatchEvent(new Event('resize'))
		vi.advanceTimersByTime(300)
		expect(fetch).toHaveBeenCalledTimes(1)
		expect(fetch).toHaveBeenCalledWith(expect.stringMatching(/&width=200$/), expect.anything())
	})

	test('refreshes every refreshSeconds while visible', () => {
		vi.useFakeTimers()
		const fetch = vi.fn(async () => new Response('{}', { status: 500 }))
		vi.stubGlobal('fetch', fetch)
		startEmbed(mount(), { ...data, refreshSeconds: 60 })
		expect(fetch).not.toHaveBeenCalled()
		vi.advanceTimersByTime(60_000)
		expect(fetch).toHaveBeenCalledTimes(1)
	})
})
