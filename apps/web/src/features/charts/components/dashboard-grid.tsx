import 'react-grid-layout/css/styles.css'
import { type Chart, type DashboardTile, dashboardColumns, dashboardRowHeight } from '@blocksmith/contracts/charts.ts'
import { useQuery } from '@tanstack/react-query'
import {
	ArrowDownToLine,
	ArrowUpToLine,
	ExternalLink,
	GripVertical,
	MoreHorizontal,
	MoveHorizontal,
	MoveVertical,
	Trash2,
	TriangleAlert,
} from 'lucide-react'
import { useMemo } from 'react'
import ReactGridLayout, { type Layout, verticalCompactor } from 'react-grid-layout'
import { Link } from 'react-router'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import {
	DropdownMenu,
	DropdownMenuContent,
	DropdownMenuItem,
	DropdownMenuSeparator,
	DropdownMenuTrigger,
} from '#src/components/ui/dropdown-menu.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { tileRenderQuery } from '../api/dashboards.ts'
import { chartPaths } from '../lib/chart-paths.ts'
import { useElementWidth } from '../lib/hooks.ts'
import { ChartPreview } from './chart-preview.tsx'

// The editor's grid: react-grid-layout moves and resizes the tiles; the same changes are offered
// from each tile's menu for keyboards. One row is `dashboardRowHeight` pixels from the next, gap
// included, as on the public page.

const gap = 12
/** Inside the grid's box, so a tile's shadow and the resize corner are not clipped. */
const padding = 6
const minW = 2
const minH = 2
/** The tile's padding on each side, out of the drawing's width. */
const tilePadding = 12

// ---- layout arithmetic ----

function toLayout(tiles: DashboardTile[]): Layout {
	return tiles.map((tile) => ({ i: tile.chartId, x: tile.x, y: tile.y, w: tile.w, h: tile.h, minW, minH }))
}

/**
 * The tiles placed as `layout` says, in their own order; the same array when nothing moved, so a
 * grid that reports the layout it was given changes nothing.
 */
function tilesFromLayout(tiles: DashboardTile[], layout: Layout): DashboardTile[] {
	const byId = new Map(layout.map((item) => [item.i, item]))
	let isChanged = false
	const next = tiles.map((tile) => {
		const item = byId.get(tile.chartId)
		if (!item || (item.x === tile.x && item.y === tile.y && item.w === tile.w && item.h === tile.h)) {
			return tile
		}
		isChanged = true
		return { ...tile, x: item.x, y: item.y, w: item.w, h: item.h }
	})
	return isChanged ? next : tiles
}

/** Tiles pushed up into the gaps, and apart where they overlap: what the grid shows. */
export function compactTiles(tiles: DashboardTile[]): DashboardTile[] {
	return tilesFromLayout(tiles, verticalCompactor.compact(toLayout(tiles), dashboardColumns))
}

/** New tiles at the bottom, half the width each, two to a row (as the server places them). */
export function withAddedTiles(tiles: DashboardTile[], chartIds: string[]): DashboardTile[] {
	const top = tiles.reduce((bottom, tile) => Math.max(bottom, tile.y + tile.h), 0)
	const w = dashboardColumns / 2
	const added = chartIds.map((chartId, index) => ({
		chartId,
		x: (index % 2) * w,
		y: top + Math.floor(index / 2) * 8,
		w,
		h: 8,
	}))
	return compactTiles([...tiles, ...added])
}

type Arrangement = 'wider' | 'narrower' | 'taller' | 'shorter' | 'earlier' | 'later'

/** What each keyboard-reachable change does to one tile (the grid keeps the others out of its way). */
function arrangeTile(tiles: DashboardTile[], chartId: string, change: Arrangement): DashboardTile[] {
	const tile = tiles.find((candidate) => candidate.chartId === chartId)
	if (!tile) {
		return tiles
	}
	if (change === 'earlier' || change === 'later') {
		// Reading order: row by row, left to right. The tile swaps places with its neighbour.
		const ordered = [...tiles].sort((left, right) => left.y - right.y || left.x - right.x)
		const index = ordered.indexOf(tile)
		const other = ordered[change === 'earlier' ? index - 1 : index + 1]
		if (!other) {
			return tiles
		}
		// The two swap places (a wide tile kept inside the grid); compaction closes any gap.
		const fit = (x: number, w: number) => Math.min(x, dashboardColumns - w)
		return compactTiles(
			tiles.map((candidate) =>
				candidate === tile
					? { ...tile, x: fit(other.x, tile.w), y: other.y }
					: candidate === other
						? { ...other, x: fit(tile.x, other.w), y: tile.y }
						: candidate,
			),
		)
	}
	const w = change === 'wider' ? tile.w + 1 : change === 'narrower' ? tile.w - 1 : tile.w
	const h = change === 'taller' ? tile.h + 1 : change === 'shorter' ? tile.h - 1 : tile.h
	const sized = {
		...tile,
		w: Math.min(dashboardColumns, Math.max(minW, w)),
		h: Math.min(40, Math.max(minH, h)),
	}
	sized.x = Math.min(sized.x, dashboardColumns - sized.w)
	return compactTiles(tiles.map((candidate) => (candidate === tile ? sized : candidate)))
}

/** The pixel height of a tile's drawing: its rows less its title bar and padding, in steps of 20 px. */
function drawingHeight(h: number): number {
	return Math.max(120, Math.round((h * dashboardRowHeight - 72) / 20) * 20)
}

/** The pixel width of a tile's drawing on a grid `gridWidth` wide, in steps of 40 px. */
function drawingWidth(gridWidth: number, w: number): number {
	const column = (gridWidth - gap * (dashboardColumns - 1) - padding * 2) / dashboardColumns
	const tileWidth = column * w + gap * (w - 1) - tilePadding * 2
	return Math.min(4000, Math.max(120, Math.round(tileWidth / 40) * 40))
}

// ---- the grid ----

type DashboardGridProps = {
	tiles: DashboardTile[]
	/** The organization's charts by id; undefined while they load. */
	charts: Map<string, Chart> | undefined
	theme: 'light' | 'dark'
	/** Problems of a save, by tile (`tiles.0.chartId` → the first tile). */
	tileErrors: Record<string, string>
	onTilesChange: (tiles: DashboardTile[]) => void
	onRemove: (chartId: string) => void
}

export function DashboardGrid({ tiles, charts, theme, tileErrors, onTilesChange, onRemove }: DashboardGridProps) {
	// jsdom measures nothing: the public page's own width stands in.
	const [measureRef, width] = useElementWidth(1200, 1)
	const layout = useMemo(() => toLayout(tiles), [tiles])
	return (
		<div
			ref={measureRef}
			className={cn(
				'-mx-1.5 min-h-40',
				// The library's placeholder is red and its corner handle black: the app's colours, in both themes.
				'[&_.react-grid-placeholder]:rounded-xl [&_.react-grid-placeholder]:bg-primary!',
				'[&_.react-resizable-handle]:z-10 [&_.react-resizable-handle]:after:border-muted-foreground!',
				'[&_.react-resizable-handle]:pointer-coarse:opacity-100!',
			)}
		>
			<ReactGridLayout
				width={width}
				layout={layout}
				gridConfig={{
					cols: dashboardColumns,
					rowHeight: dashboardRowHeight - gap,
					margin: [gap, gap],
					containerPadding: [padding, padding],
				}}
				dragConfig={{ enabled: true, handle: '.dashboard-tile-handle', cancel: 'button, a, [role="menuitem"]' }}
				resizeConfig={{ enabled: true, handles: ['se'] }}
				compactor={verticalCompactor}
				onLayoutChange={(next) => {
					const moved = tilesFromLayout(tiles, next)
					if (moved !== tiles) {
						onTilesChange(moved)
					}
				}}
			>
				{tiles.map((tile, index) => (
					<div key={tile.chartId}>
						<TileCard
							tile={tile}
							chart={charts?.get(tile.chartId)}
							isChartsLoading={charts === undefined}
							width={drawingWidth(width, tile.w)}
							height={drawingHeight(tile.h)}
							theme={theme}
							error={tileErrors[`tiles.${index}.chartId`] ?? tileErrors[`tiles.${index}`]}
							onArrange={(change) => onTilesChange(arrangeTile(tiles, tile.chartId, change))}
							onRemove={() => onRemove(tile.chartId)}
						/>
					</div>
				))}
			</ReactGridLayout>
		</div>
	)
}

type TileCardProps = {
	tile: DashboardTile
	chart: Chart | undefined
	isChartsLoading: boolean
	width: number
	height: number
	theme: 'light' | 'dark'
	error: string | undefined
	onArrange: (change: Arrangement) => void
	onRemove: () => void
}

function TileCard({ tile, chart, isChartsLoading, width, height, theme, error, onArrange, onRemove }: TileCardProps) {
	const isRemoved = !isChartsLoading && !chart
	const name = chart?.name ?? (isRemoved ? 'Removed chart' : 'Loading…')
	return (
		<section
			aria-label={name}
			className={cn(
				'flex size-full flex-col overflow-hidden rounded-xl border bg-card text-card-foreground shadow-xs',
				error && 'border-error',
			)}
		>
			<header className="dashboard-tile-handle flex shrink-0 cursor-grab items-center gap-1.5 border-b px-2 py-1.5 active:cursor-grabbing">
				<GripVertical aria-hidden className="size-4 shrink-0 text-muted-foreground" />
				<h3 className="min-w-0 flex-1 truncate font-medium text-sm">
					{chart ? (
						<Link to={chartPaths.edit(chart.id, chart.tool)} className="hover:underline">
							{chart.name}
						</Link>
					) : (
						<span className={cn(isRemoved && 'text-muted-foreground')}>{name}</span>
					)}
				</h3>
				<span className="hidden shrink-0 text-muted-foreground text-xs tabular-nums sm:inline">
					{tile.w}×{tile.h}
				</span>
				<TileMenu name={name} chart={chart} onArrange={onArrange} onRemove={onRemove} />
			</header>
			<div className="relative min-h-0 flex-1 overflow-hidden p-3">
				{error ? (
					<p role="alert" className="mb-2 flex items-start gap-1.5 text-error text-sm">
						<TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0" />
						{error}
					</p>
				) : null}
				{isChartsLoading ? (
					<SkeletonGroup label="Loading the chart…" className="size-full">
						<Skeleton className="size-full" />
					</SkeletonGroup>
				) : chart ? (
					<TileDrawing chart={chart} width={width} height={height} theme={theme} />
				) : (
					<div className="grid size-full content-center justify-items-center gap-3 rounded-lg border border-dashed p-3 text-center">
						<p className="text-muted-foreground text-sm">
							This chart was deleted. The public page shows an empty tile in its place until you remove it.
						</p>
						<Button variant="outline" size="sm" onClick={onRemove}>
							<Trash2 aria-hidden /> Remove the tile
						</Button>
					</div>
				)}
			</div>
		</section>
	)
}

function TileMenu({
	name,
	chart,
	onArrange,
	onRemove,
}: {
	name: string
	chart: Chart | undefined
	onArrange: (change: Arrangement) => void
	onRemove: () => void
}) {
	const arrangements: { change: Arrangement; label: string; icon: typeof MoveHorizontal }[] = [
		{ change: 'earlier', label: 'Move earlier', icon: ArrowUpToLine },
		{ change: 'later', label: 'Move later', icon: ArrowDownToLine },
		{ change: 'wider', label: 'Wider', icon: MoveHorizontal },
		{ change: 'narrower', label: 'Narrower', icon: MoveHorizontal },
		{ change: 'taller', label: 'Taller', icon: MoveVertical },
		{ change: 'shorter', label: 'Shorter', icon: MoveVertical },
	]
	return (
		<DropdownMenu>
			<DropdownMenuTrigger asChild>
				<Button variant="ghost" size="icon-sm" className="size-7" aria-label={`Tile actions for ${name}`}>
					<MoreHorizontal aria-hidden />
				</Button>
			</DropdownMenuTrigger>
			<DropdownMenuContent align="end">
				{chart ? (
					<>
						<DropdownMenuItem asChild>
							<Link to={chartPaths.edit(chart.id, chart.tool)}>
								<ExternalLink aria-hidden /> Open the chart
							</Link>
						</DropdownMenuItem>
						<DropdownMenuSeparator />
					</>
				) : null}
				{arrangements.map(({ change, label, icon: Icon }) => (
					<DropdownMenuItem
						key={change}
						// Open after a choice: a tile is usually nudged a few steps at a time.
						onSelect={(event) => {
							event.preventDefault()
							onArrange(change)
						}}
					>
						<Icon aria-hidden /> {label}
					</DropdownMenuItem>
				))}
				<DropdownMenuSeparator />
				<DropdownMenuItem isDestructive onSelect={onRemove}>
					<Trash2 aria-hidden /> Remove from the dashboard
				</DropdownMenuItem>
			</DropdownMenuContent>
		</DropdownMenu>
	)
}

/** The saved chart as the server draws it, fitted to the tile; or why it cannot be drawn. */
function TileDrawing({
	chart,
	width,
	height,
	theme,
}: {
	chart: Chart
	width: number
	height: number
	theme: 'light' | 'dark'
}) {
	const render = useQuery({
		...tileRenderQuery({ tool: chart.tool, chartId: chart.id, width, height, theme }),
		enabled: Boolean(chart.databaseId),
		meta: { isErrorShownInPage: true },
	})
	if (!chart.databaseId) {
		return <TileNote>The database of this chart was removed: there is nothing to draw.</TileNote>
	}
	if (render.isPending) {
		return (
			<SkeletonGroup label={`Drawing ${chart.name}…`} className="size-full">
				<Skeleton className="size-full" />
			</SkeletonGroup>
		)
	}
	if (!render.data) {
		return <TileNote isProblem>{errorMessage(render.error)}</TileNote>
	}
	const { figures, svg } = render.data
	if (figures.problems.length > 0) {
		return (
			<div
				role="alert"
				className="grid size-full content-center gap-2 overflow-auto rounded-lg border border-warning/40 border-dashed bg-warning/5 p-3 text-sm"
			>
				<p className="flex items-center gap-2 font-medium">
					<TriangleAlert aria-hidden className="size-4 shrink-0 text-warning" />
					This chart cannot be drawn
				</p>
				<ul className="grid gap-1 text-muted-foreground">
					{figures.problems.map((problem) => (
						<li key={`${problem.field}:${problem.message}`}>{problem.message}</li>
					))}
				</ul>
				<Link
					to={chartPaths.edit(chart.id, chart.tool)}
					className="font-medium text-sm underline-offset-4 hover:underline"
				>
					Fix it in the chart
				</Link>
			</div>
		)
	}
	if (figures.type === 'table') {
		return (
			<div className="size-full overflow-auto">
				<ChartPreview
					render={render.data}
					error={null}
					isLoading={false}
					isUpdating={false}
					height={200}
					numberFormat={chart.config.display.numberFormat}
					onReveal={() => {}}
				/>
			</div>
		)
	}
	return (
		<div className={cn('relative size-full transition-opacity', render.isPlaceholderData && 'opacity-60')}>
			{render.isPlaceholderData ? (
				<span className="absolute top-0 right-0 z-10">
					<Spinner />
					<span className="sr-only">Redrawing…</span>
				</span>
			) : null}
			{svg ? (
				<div
					data-testid="tile-svg"
					className="size-full [&>svg]:size-full"
					// The server's drawing of the figures: SVG markup without scripts, from our own API.
					// biome-ignore lint/security/noDangerouslySetInnerHtml: the markup is the server's chart drawing, not user HTML
					dangerouslySetInnerHTML={{ __html: svg }}
				/>
			) : (
				<TileNote>Nothing to draw yet.</TileNote>
			)}
		</div>
	)
}

function TileNote({ children, isProblem = false }: { children: string; isProblem?: boolean }) {
	return (
		<p
			className={cn(
				'flex size-full items-center justify-center rounded-lg border border-dashed p-3 text-center text-sm',
				isProblem ? 'text-error' : 'text-muted-foreground',
			)}
		>
			{children}
		</p>
	)
}
