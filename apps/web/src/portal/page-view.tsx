import type { PortalRow, PortalRows } from '@blocksmith/contracts/portals.ts'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { setTitle } from './branding.ts'
import { buildFilters, Filters, type FilterValues, filterableProperties } from './filters.tsx'
import { PortalApiError } from './portal-api.ts'
import { usePortal } from './portal-context.tsx'
import { inputClasses, Loading, Message, Notice, secondaryButtonClasses } from './ui.tsx'
import { type Sort, views } from './views.tsx'

// One page of the portal: its rows for the member (search, filters and sort run on the server),
// "Load more" by cursor, and the page's view.

const pageSize = 50
const searchDelayMs = 300

type State = {
	key: string
	status: 'loading' | 'ready' | 'error'
	data: PortalRows | null
	rows: PortalRow[]
	nextCursor: string | null
	error: PortalApiError | null
	isLoadingMore: boolean
}

function query(options: { search: string; filter: string; sort: Sort; cursor?: string | null }): string {
	const params = new URLSearchParams({ limit: String(pageSize) })
	if (options.search.trim()) {
		params.set('search', options.search.trim())
	}
	if (options.filter !== '[]') {
		params.set('filter', options.filter)
	}
	if (options.sort) {
		params.set('sort', JSON.stringify([options.sort]))
	}
	if (options.cursor) {
		params.set('cursor', options.cursor)
	}
	return params.toString()
}

export function PageView({ pageId }: { pageId: string }) {
	const { call, info, basePath } = usePortal()
	const [searchInput, setSearchInput] = useState('')
	const [search, setSearch] = useState('')
	const [filterValues, setFilterValues] = useState<FilterValues>({})
	const [sort, setSort] = useState<Sort>(null)
	const [state, setState] = useState<State | null>(null)
	const searchId = useId()
	const requestRef = useRef<AbortController | null>(null)

	// The typed search goes out once typing pauses.
	useEffect(() => {
		const timer = setTimeout(() => setSearch(searchInput), searchDelayMs)
		return () => clearTimeout(timer)
	}, [searchInput])

	const page = state?.data?.page ?? null
	const filterProps = useMemo(() => (page ? filterableProperties(page.properties, page.filterable) : []), [page])
	const filter = JSON.stringify(buildFilters(filterProps, filterValues))
	const key = `${pageId}|${search}|${filter}|${JSON.stringify(sort)}`
	const base = `/pages/${encodeURIComponent(pageId)}/rows`

	useEffect(() => {
		const controller = new AbortController()
		requestRef.current?.abort()
		requestRef.current = controller
		setState((current) => (current ? { ...current, key, status: 'loading', isLoadingMore: false } : current))
		call<PortalRows>(`${base}?${query({ search, filter, sort })}`, { signal: controller.signal }).then(
			(data) =>
				setState({
					key,
					status: 'ready',
					data,
					rows: data.rows,
					nextCursor: data.nextCursor,
					error: null,
					isLoadingMore: false,
				}),
			(error: unknown) => {
				if (controller.signal.aborted) {
					return
				}
				setState((current) => ({
					key,
					status: 'error',
					data: current?.data ?? null,
					rows: [],
					nextCursor: null,
					error: error instanceof PortalApiError ? error : new PortalApiError(0, 'UNKNOWN', 'Something went wrong.'),
					isLoadingMore: false,
				}))
			},
		)
		return () => controller.abort()
	}, [key, base, search, filter, sort, call])

	useEffect(() => {
		setTitle(state?.data?.page.title, info.name)
	}, [state?.data?.page.title, info.name])

	const loadMore = () => {
		if (!state?.nextCursor) {
			return
		}
		const controller = new AbortController()
		requestRef.current = controller
		setState({ ...state, isLoadingMore: true })
		call<PortalRows>(`${base}?${query({ search, filter, sort, cursor: state.nextCursor })}`, {
			signal: controller.signal,
		}).then(
			(data) =>
				setState((current) =>
					current && current.key === key
						? { ...current, rows: [...current.rows, ...data.rows], nextCursor: data.nextCursor, isLoadingMore: false }
						: current,
				),
			(error: unknown) => {
				if (!controller.signal.aborted) {
					setState((current) =>
						current
							? {
									...current,
									isLoadingMore: false,
									error: error instanceof PortalApiError ? error : null,
								}
							: current,
					)
				}
			},
		)
	}

	if (!state || (!state.data && state.status === 'loading')) {
		return <Loading />
	}
	if (!state.data) {
		return state.error?.status === 404 ? (
			<Message title="This page is not here">It may have been removed from the portal.</Message>
		) : (
			<Message title="This page could not be loaded">{state.error?.message}</Message>
		)
	}

	const { data, rows } = state
	const View = views[data.page.view] ?? views.table
	const isNarrowed = search.trim() !== '' || filter !== '[]'
	return (
		<div className="space-y-4">
			<h1 className="text-2xl font-semibold">{data.page.title}</h1>
			{data.page.isSearchable || filterProps.length > 0 ? (
				<search className="flex flex-wrap items-end gap-3">
					{data.page.isSearchable ? (
						<div className="space-y-1">
							<label htmlFor={searchId} className="block text-xs font-medium text-muted-foreground">
								Search
							</label>
							<input
								id={searchId}
								type="search"
								value={searchInput}
								onChange={(event) => setSearchInput(event.target.value)}
								placeholder={`Search ${data.page.title.toLowerCase()}`}
								className={`${inputClasses} w-64 max-w-full`}
							/>
						</div>
					) : null}
					<Filters properties={filterProps} values={filterValues} onChange={setFilterValues} />
				</search>
			) : null}
			{state.status === 'error' && state.error ? <Notice tone="error">{state.error.message}</Notice> : null}
			<div aria-busy={state.status === 'loading'} className={state.status === 'loading' ? 'opacity-60' : ''}>
				{rows.length === 0 && state.status !== 'error' ? (
					<p className="rounded-lg border border-dashed border-border px-4 py-10 text-center text-muted-foreground">
						{isNarrowed
							? `No ${data.page.title.toLowerCase()} match your search and filters.`
							: `No ${data.page.title.toLowerCase()} shared with you yet.`}
					</p>
				) : rows.length > 0 ? (
					<View page={data.page} rows={rows} basePath={basePath} sort={sort} onSort={setSort} />
				) : null}
			</div>
			{state.nextCursor ? (
				<div className="flex justify-center">
					<button type="button" className={secondaryButtonClasses} onClick={loadMore} disabled={state.isLoadingMore}>
						{state.isLoadingMore ? 'Loading…' : 'Load more'}
					</button>
				</div>
			) : null}
		</div>
	)
}
