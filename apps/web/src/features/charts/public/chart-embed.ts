import { formatChartNumber, formatUpdatedAgo } from '@blocksmith/contracts/chart-format.ts'
import type { ChartFigures, ChartNumberFormat } from '@blocksmith/contracts/charts.ts'

// The public chart page's script. The server drew the chart into the HTML; this adds what a
// drawing cannot do: tooltips on hover and focus, legend items that hide their series, redraws
// at the frame's real width, refreshes and the "Updated …" line kept current. Plain DOM, no
// React and no ECharts: every drawn element carries its series, data index and tooltip text as
// `ecmeta_*` attributes (apps/server/src/features/charts/charts.render.ts).

/** The page's JSON block, as charts.page.ts writes it. */
export type ChartPageData = {
	id: string
	name: string
	type: ChartFigures['type']
	apiPath: string
	theme: 'auto' | 'light' | 'dark'
	transparent: boolean
	refreshSeconds: number | null
	width: number | null
	numberFormat: ChartNumberFormat
	xAxisTitle: string | null
	updatedAt: string
}

type PublicChartResponse = {
	type: ChartFigures['type']
	figures: ChartFigures
	svg: string
	dataUpdatedAt: string | null
}

export function readPageData(doc: Document): ChartPageData | null {
	const text = doc.getElementById('blocksmith-page')?.textContent
	if (!text) {
		return null
	}
	try {
		const parsed = JSON.parse(text) as { chart?: ChartPageData }
		return parsed.chart ?? null
	} catch {
		return null
	}
}

/** A dashboard page's tiles, in order; null for a tile whose chart was removed. */
export function readDashboardTiles(doc: Document): (ChartPageData | null)[] {
	const text = doc.getElementById('blocksmith-page')?.textContent
	try {
		const parsed = text ? (JSON.parse(text) as { dashboard?: { tiles?: (ChartPageData | null)[] } }) : null
		return parsed?.dashboard?.tiles ?? []
	} catch {
		return []
	}
}

// ---- tooltips -----------------------------------------------------------------------------

const tipSelector = '[ecmeta_tip]'
/** Past this many points, only the pointer gets tooltips: a thousand tab stops help nobody. */
const maxFocusable = 300

/** Data points reachable by keyboard, named for screen readers by their tooltip. */
function makeFocusable(root: Element): void {
	const points = root.querySelectorAll(tipSelector)
	if (points.length > maxFocusable) {
		return
	}
	for (const point of points) {
		point.setAttribute('tabindex', '0')
		point.setAttribute('role', 'img')
		point.setAttribute('aria-label', (point.getAttribute('ecmeta_tip') ?? '').replaceAll('\n', ', '))
	}
}

function installTooltips(root: HTMLElement): void {
	const tip = root.ownerDocument.createElement('div')
	tip.className = 'bs-tip'
	tip.setAttribute('role', 'tooltip')
	tip.hidden = true
	root.append(tip)
	const view = root.ownerDocument.defaultView
	const show = (point: Element, x: number, y: number) => {
		tip.textContent = point.getAttribute('ecmeta_tip')
		tip.hidden = false
		const width = view?.innerWidth ?? 0
		const height = view?.innerHeight ?? 0
		const box = tip.getBoundingClientRect()
		// Beside the pointer, flipped to the other side near the frame's edges.
		const left = x + 12 + box.width > width ? Math.max(0, x - 12 - box.width) : x + 12
		const top = y + 12 + box.height > height ? Math.max(0, y - 12 - box.height) : y + 12
		tip.style.left = `${left}px`
		tip.style.top = `${top}px`
	}
	const hide = () => {
		tip.hidden = true
	}
	root.addEventListener('pointermove', (event) => {
		const point = (event.target as Element | null)?.closest?.(tipSelector)
		if (point && !point.closest('[data-hidden]')) {
			show(point, event.clientX, event.clientY)
		} else {
			hide()
		}
	})
	root.addEventListener('pointerleave', hide)
	root.addEventListener('focusin', (event) => {
		const point = (event.target as Element | null)?.closest?.(tipSelector)
		if (point) {
			const box = point.getBoundingClientRect()
			show(point, box.left + box.width / 2, box.top)
		}
	})
	root.addEventListener('focusout', hide)
}

// ---- legend -------------------------------------------------------------------------------

/** Hidden legend items: a series index, or for a pie `series:slice`. */
const hidden = new WeakMap<HTMLElement, Set<string>>()

function keyOf(item: Element, isPie: boolean): string {
	const series = item.getAttribute('ecmeta_series_index') ?? ''
	return isPie ? `${series}:${item.getAttribute('ecmeta_data_index') ?? ''}` : series
}

/** Shows or hides what each legend item stands for, in every drawing of the page (light and dark). */
function applyHidden(root: HTMLElement, isPie: boolean): void {
	const keys = hidden.get(root) ?? new Set<string>()
	for (const element of root.querySelectorAll('[ecmeta_series_index]')) {
		const isLegend = element.getAttribute('ecmeta_ssr_type') === 'legend'
		const isOff = keys.has(keyOf(element, isPie))
		if (isLegend) {
			// The item's icon, text and hit area share one transform: dim them together.
			const transform = element.getAttribute('transform')
			const parts = transform
				? [...(element.parentElement?.children ?? [])].filter((part) => part.getAttribute('transform') === transform)
				: [element]
			for (const part of parts) {
				part.toggleAttribute('data-off', isOff)
			}
			element.setAttribute('aria-pressed', String(!isOff))
		} else {
			element.toggleAttribute('data-hidden', isOff)
		}
	}
}

function installLegend(root: HTMLElement, isPie: () => boolean): void {
	const toggle = (target: EventTarget | null) => {
		const item = (target as Element | null)?.closest?.('[ecmeta_ssr_type="legend"]')
		if (!item) {
			return false
		}
		const keys = hidden.get(root) ?? new Set<string>()
		const key = keyOf(item, isPie())
		if (!keys.delete(key)) {
			keys.add(key)
		}
		hidden.set(root, keys)
		applyHidden(root, isPie())
		return true
	}
	root.addEventListener('click', (event) => {
		toggle(event.target)
	})
	root.addEventListener('keydown', (event) => {
		if ((event.key === 'Enter' || event.key === ' ') && toggle(event.target)) {
			event.preventDefault()
		}
	})
}

/** Legend hit areas as buttons: one per item (the last element of the item that has the series). */
function makeLegendButtons(root: Element): void {
	for (const item of root.querySelectorAll('[ecmeta_ssr_type="legend"][pointer-events="visible"]')) {
		item.setAttribute('tabindex', '0')
		item.setAttribute('role', 'button')
		item.setAttribute('aria-pressed', item.hasAttribute('data-off') ? 'false' : 'true')
	}
}

// ---- drawings and refreshes ---------------------------------------------------------------

/** As charts.page.ts does: each drawing in the page gets ids and classes of its own. */
function scopeSvgIds(svg: string, prefix: string): string {
	return svg.replace(/\bzr\d+-(?=c\d|cls-\d)/g, `${prefix}-`)
}

function tableOf(doc: Document, figures: ChartFigures, data: ChartPageData): HTMLElement {
	const wrap = doc.createElement('div')
	wrap.className = 'bs-chart-table'
	const table = doc.createElement('table')
	const headRow = table.createTHead().insertRow()
	for (const [index, label] of [data.xAxisTitle ?? '', ...figures.series.map((s) => s.name)].entries()) {
		const th = doc.createElement('th')
		th.scope = 'col'
		if (index > 0) {
			th.className = 'bs-num'
		}
		th.textContent = label
		headRow.append(th)
	}
	const body = table.createTBody()
	figures.categories.forEach((category, row) => {
		const tr = body.insertRow()
		const th = doc.createElement('th')
		th.scope = 'row'
		th.textContent = category.label
		tr.append(th)
		for (const series of figures.series) {
			const td = tr.insertCell()
			td.className = 'bs-num'
			td.textContent = formatChartNumber(series.values[row], series.format ?? data.numberFormat)
		}
	})
	wrap.append(table)
	return wrap
}

export type Embed = {
	/** Fetches the chart again and puts the new drawing (or table) and time in place. */
	refresh: () => Promise<void>
	updateTime: () => void
}

export function startEmbed(root: HTMLElement, data: ChartPageData, win: Window = window): Embed {
	const doc = root.ownerDocument
	const isPie = () => data.type === 'pie'
	installTooltips(root)
	installLegend(root, isPie)
	makeFocusable(root)
	makeLegendButtons(root)

	const time = root.querySelector<HTMLTimeElement>('.bs-chart-meta time')
	const updateTime = () => {
		if (time) {
			time.textContent = formatUpdatedAgo(time.dateTime, new Date())
			time.title = new Date(time.dateTime).toLocaleString()
		}
	}
	updateTime()

	const darkQuery = win.matchMedia?.('(prefers-color-scheme: dark)')
	const themeNow = (): 'light' | 'dark' =>
		data.theme === 'auto' ? (darkQuery?.matches ? 'dark' : 'light') : data.theme
	const widthNow = () =>
		Math.min(4000, Math.max(120, Math.round(root.querySelector('.bs-chart-body')?.clientWidth ?? 0)))

	// The width the drawing in the page was made for: a page far wider or narrower redraws.
	let drawnWidth = data.width
	const load = async (theme: 'light' | 'dark'): Promise<PublicChartResponse> => {
		drawnWidth = widthNow()
		const url = `${data.apiPath}?theme=${theme}&width=${drawnWidth}`
		const response = await win.fetch(url, { headers: { accept: 'application/json' } })
		if (!response.ok) {
			throw new Error(`${url}: ${response.status}`)
		}
		return (await response.json()) as PublicChartResponse
	}

	const refresh = async () => {
		const containers = [...root.querySelectorAll<HTMLElement>('.bs-chart-svg')]
		const hasTable = root.querySelector('.bs-chart-table') !== null
		// A drawing that appeared or went away (problems fixed or found): the page knows how to show it.
		const variants = containers.map((container) => container.dataset.variant ?? 'only')
		const results = await Promise.all(
			(variants.length > 0 ? variants : ['only']).map((variant) =>
				load(variant === 'light' || variant === 'dark' ? variant : themeNow()),
			),
		)
		const first = results[0]
		if (!first) {
			return
		}
		const isDrawing = first.svg !== '' && first.figures.problems.length === 0
		if (isDrawing !== containers.length > 0 || (!isDrawing && hasTable !== (first.type === 'table'))) {
			win.location.reload()
			return
		}
		if (isDrawing) {
			containers.forEach((container, index) => {
				const variant = container.dataset.variant ?? 'only'
				container.innerHTML = scopeSvgIds(results[index]?.svg ?? '', `bs${variant[0]}`)
			})
			applyHidden(root, isPie())
			makeFocusable(root)
			makeLegendButtons(root)
		} else if (first.type === 'table') {
			root.querySelector('.bs-chart-table')?.replaceWith(tableOf(doc, first.figures, data))
		}
		if (time) {
			time.dateTime = first.dataUpdatedAt ?? first.figures.computedAt
		}
		updateTime()
	}

	const safely = () => {
		refresh().catch(() => {
			// A failed refresh keeps the chart shown; the next one tries again.
		})
	}
	// Drawn at a guessed width: redraw at the frame's own when it is far off, now and after a
	// resize (a Notion block made wider, a phone turned), once the resizing stops.
	const isFarOff = () => drawnWidth !== null && Math.abs(widthNow() - drawnWidth) / drawnWidth > 0.2
	if (isFarOff()) {
		safely()
	}
	let resizing: ReturnType<typeof setTimeout> | undefined
	win.addEventListener?.('resize', () => {
		clearTimeout(resizing)
		resizing = setTimeout(() => {
			if (isFarOff()) {
				safely()
			}
		}, 250)
	})
	// Without both drawings in the page, an auto theme redraws when the appearance changes.
	if (data.theme === 'auto' && !root.querySelector('[data-variant="dark"]')) {
		darkQuery?.addEventListener?.('change', safely)
	}
	if (data.refreshSeconds) {
		win.setInterval(() => {
			if (doc.visibilityState !== 'hidden') {
				safely()
			}
		}, data.refreshSeconds * 1000)
	}
	win.setInterval(updateTime, 60_000)
	return { refresh, updateTime }
}
