import type { PortalRow, PortalRows } from '@blocksmith/contracts/portals.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { Cell, isEmptyCell, OptionChip } from './cell.tsx'
import { Link, portalHref } from './router.tsx'
import { safeSrc } from './safe-url.ts'
import { cardClasses } from './ui.tsx'

// The four ways a page shows its rows: table, list, board (by a select or status) and gallery.
// Each gets the rows the server sent for the member and nothing else.

export type Sort = { property: string; direction: 'ascending' | 'descending' } | null

export type ViewProps = {
	page: PortalRows['page']
	rows: PortalRow[]
	basePath: string
	sort: Sort
	onSort: (sort: Sort) => void
}

/** The shown properties besides the title, which the row's own title stands for. */
function shownProperties(page: PortalRows['page']): Property[] {
	return page.properties.filter((property) => property.type !== 'title')
}

function RowLink({
	page,
	row,
	basePath,
	className,
}: {
	page: PortalRows['page']
	row: PortalRow
	basePath: string
	className?: string
}) {
	return (
		<Link
			href={portalHref(basePath, page.id, row.id)}
			className={`rounded-sm font-medium hover:underline focus-visible:outline-2 focus-visible:outline-ring ${className ?? ''}`}
		>
			{row.title || 'Untitled'}
		</Link>
	)
}

function nextSort(sort: Sort, property: string): Sort {
	if (sort?.property !== property) {
		return { property, direction: 'ascending' }
	}
	return sort.direction === 'ascending' ? { property, direction: 'descending' } : null
}

function SortHeader({
	label,
	property,
	sort,
	onSort,
}: {
	label: string
	property: string
	sort: Sort
	onSort: (sort: Sort) => void
}) {
	const direction = sort?.property === property ? sort.direction : null
	return (
		<th scope="col" aria-sort={direction ?? 'none'} className="px-3 py-2 text-left font-medium">
			<button
				type="button"
				onClick={() => onSort(nextSort(sort, property))}
				className="inline-flex items-center gap-1 rounded-sm whitespace-nowrap hover:text-foreground focus-visible:outline-2 focus-visible:outline-ring"
			>
				{label}
				<span aria-hidden="true" className="text-xs">
					{direction === 'ascending' ? '▲' : direction === 'descending' ? '▼' : '↕'}
				</span>
			</button>
		</th>
	)
}

export function TableView({ page, rows, basePath, sort, onSort }: ViewProps) {
	const titleProperty = page.properties.find((property) => property.type === 'title')
	const properties = shownProperties(page)
	return (
		<div className={`${cardClasses} overflow-x-auto`}>
			<table className="w-full border-collapse text-sm">
				<caption className="sr-only">{page.title}</caption>
				<thead className="border-b border-border text-muted-foreground">
					<tr>
						<SortHeader
							label={titleProperty?.name ?? 'Name'}
							property={titleProperty?.id ?? 'title'}
							sort={sort}
							onSort={onSort}
						/>
						{properties.map((property) => (
							<SortHeader key={property.id} label={property.name} property={property.id} sort={sort} onSort={onSort} />
						))}
					</tr>
				</thead>
				<tbody>
					{rows.map((row) => (
						<tr key={row.id} className="border-b border-border last:border-0">
							<th scope="row" className="px-3 py-2 text-left align-top">
								<RowLink page={page} row={row} basePath={basePath} />
							</th>
							{properties.map((property) => (
								<td key={property.id} className="px-3 py-2 align-top">
									<Cell cell={row.cells[property.id]} basePath={basePath} />
								</td>
							))}
						</tr>
					))}
				</tbody>
			</table>
		</div>
	)
}

/** A card's or list item's properties: name and value, the empty ones left out. */
function Details({
	page,
	row,
	basePath,
	skip,
}: {
	page: PortalRows['page']
	row: PortalRow
	basePath: string
	skip?: string | null
}) {
	const properties = shownProperties(page).filter(
		(property) => property.id !== skip && !isEmptyCell(row.cells[property.id]),
	)
	if (properties.length === 0) {
		return null
	}
	return (
		<dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
			{properties.map((property) => (
				<div key={property.id} className="contents">
					<dt className="text-muted-foreground">{property.name}</dt>
					<dd className="min-w-0">
						<Cell cell={row.cells[property.id]} basePath={basePath} />
					</dd>
				</div>
			))}
		</dl>
	)
}

export function ListView({ page, rows, basePath }: ViewProps) {
	return (
		<ul className={`${cardClasses} divide-y divide-border`}>
			{rows.map((row) => (
				<li key={row.id} className="p-4">
					<RowLink page={page} row={row} basePath={basePath} />
					<Details page={page} row={row} basePath={basePath} />
				</li>
			))}
		</ul>
	)
}

export function BoardView({ page, rows, basePath }: ViewProps) {
	const groupBy = page.properties.find((property) => property.id === page.groupBy)
	const columns: { name: string; color: string | null; rows: PortalRow[] }[] = (groupBy?.options ?? []).map(
		(option) => ({ name: option.name, color: option.color, rows: [] }),
	)
	const none: PortalRow[] = []
	for (const row of rows) {
		const cell = groupBy ? row.cells[groupBy.id] : undefined
		const name = cell?.kind === 'options' ? cell.options[0]?.name : undefined
		const column = columns.find((candidate) => candidate.name === name)
		;(column?.rows ?? none).push(row)
	}
	if (none.length > 0) {
		columns.push({ name: `No ${groupBy?.name.toLowerCase() ?? 'group'}`, color: null, rows: none })
	}
	return (
		<div className="flex gap-4 overflow-x-auto pb-2">
			{columns.map((column) => (
				<section key={column.name} aria-label={column.name} className="w-72 shrink-0 rounded-lg bg-muted p-2">
					<h2 className="mb-2 flex items-center justify-between px-1 text-sm">
						<OptionChip name={column.name} color={column.color} />
						<span className="text-xs text-muted-foreground">{column.rows.length}</span>
					</h2>
					{column.rows.length === 0 ? (
						<p className="px-1 py-4 text-center text-xs text-muted-foreground">Nothing here</p>
					) : (
						<ul className="space-y-2">
							{column.rows.map((row) => (
								<li key={row.id} className={`${cardClasses} p-3`}>
									<RowLink page={page} row={row} basePath={basePath} />
									<Details page={page} row={row} basePath={basePath} skip={groupBy?.id ?? null} />
								</li>
							))}
						</ul>
					)}
				</section>
			))}
		</div>
	)
}

function coverOf(row: PortalRow, coverProperty: string | null): string | null {
	const cell = coverProperty ? row.cells[coverProperty] : undefined
	if (cell?.kind !== 'files') {
		return null
	}
	return safeSrc(cell.files.find((file) => file.isImage)?.url)
}

export function GalleryView({ page, rows, basePath }: ViewProps) {
	// Without a single cover among the rows, empty frames would be all the cards show.
	const hasCovers = rows.some((row) => coverOf(row, page.coverProperty) !== null)
	return (
		<ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
			{rows.map((row) => {
				const cover = coverOf(row, page.coverProperty)
				return (
					<li key={row.id} className={`${cardClasses} overflow-hidden`}>
						{cover ? (
							<img src={cover} alt="" loading="lazy" className="aspect-video w-full object-cover" />
						) : hasCovers ? (
							<div className="aspect-video w-full bg-muted" aria-hidden="true" />
						) : null}
						<div className="p-4">
							<RowLink page={page} row={row} basePath={basePath} />
							<Details page={page} row={row} basePath={basePath} skip={page.coverProperty} />
						</div>
					</li>
				)
			})}
		</ul>
	)
}

export const views = { table: TableView, list: ListView, board: BoardView, gallery: GalleryView }
