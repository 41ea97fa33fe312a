import { render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { buildFilters, filterableProperties } from './filters.tsx'
import { row, rowsPage } from './testing.ts'
import { BoardView, GalleryView, ListView, TableView, type ViewProps } from './views.tsx'

function props(overrides: Partial<ViewProps> = {}): ViewProps {
	return {
		page: rowsPage(),
		rows: [row('r1', 'Website redesign', 'Active'), row('r2', 'Brand book', 'Done')],
		basePath: '/p/acme',
		sort: null,
		onSort: () => {},
		...overrides,
	}
}

/** The cells every view shows for a row: option, number, relation (a link inside the portal), file, date. */
function expectCells(scope: HTMLElement, options: { files?: boolean } = {}) {
	const inScope = within(scope)
	expect(inScope.getByRole('link', { name: 'Website redesign' })).toHaveAttribute('href', '/p/acme/projects/r1')
	expect(inScope.getByText('Active')).toBeInTheDocument()
	expect(inScope.getAllByText('$1,200.00').length).toBeGreaterThan(0)
	expect(inScope.getAllByRole('link', { name: 'Globex' })[0]).toHaveAttribute('href', '/p/acme/clients/c1')
	expect(inScope.getAllByText('Dec 1, 2026').length).toBeGreaterThan(0)
	if (options.files === false) {
		return
	}
	const file = inScope.getAllByRole('link', { name: 'brief.png' })[0]
	expect(file).toHaveAttribute('href', '/api/portal/acme/files/r1')
	expect(file).toHaveAttribute('rel', 'noopener noreferrer')
}

describe('the page views', () => {
	it('table: a row per item, a cell per shown property, sortable headers', async () => {
		const onSort = vi.fn()
		const { container } = render(
			<TableView {...props({ onSort, sort: { property: 'budget', direction: 'ascending' } })} />,
		)
		expectCells(container)
		expect(screen.getAllByRole('row')).toHaveLength(3)
		const budget = screen.getByRole('columnheader', { name: /Budget/ })
		expect(budget).toHaveAttribute('aria-sort', 'ascending')
		await userEvent.click(within(budget).getByRole('button'))
		expect(onSort).toHaveBeenLastCalledWith({ property: 'budget', direction: 'descending' })
		await userEvent.click(within(screen.getByRole('columnheader', { name: /Status/ })).getByRole('button'))
		expect(onSort).toHaveBeenLastCalledWith({ property: 'status', direction: 'ascending' })
	})

	it('list: each item with its properties, the empty ones left out', () => {
		const empty = row('r3', 'Empty one', null)
		const { container } = render(<ListView {...props({ rows: [row('r1', 'Website redesign', 'Active'), empty] })} />)
		expectCells(container)
		const item = screen.getByRole('link', { name: 'Empty one' }).closest('li') as HTMLElement
		expect(within(item).queryByText('Status')).toBeNull()
		expect(within(item).getByText('Budget')).toBeInTheDocument()
	})

	it("board: a column per option in the property's order, an empty column says so, rows without a value apart", () => {
		const rows = [row('r1', 'Website redesign', 'Active'), row('r2', 'Brand book', 'Done'), row('r3', 'Loose', null)]
		const { container } = render(
			<BoardView {...props({ rows, page: rowsPage({ view: 'board', groupBy: 'status' }) })} />,
		)
		const columns = screen.getAllByRole('region')
		expect(columns.map((column) => column.getAttribute('aria-label'))).toEqual([
			'Planned',
			'Active',
			'Done',
			'No status',
		])
		expect(within(columns[0] as HTMLElement).getByText('Nothing here')).toBeInTheDocument()
		expect(within(columns[1] as HTMLElement).getByRole('link', { name: 'Website redesign' })).toBeInTheDocument()
		expect(within(columns[3] as HTMLElement).getByRole('link', { name: 'Loose' })).toBeInTheDocument()
		expectCells(container)
	})

	it('gallery: the first image of the cover property as the card cover', () => {
		const { container } = render(
			<GalleryView {...props({ page: rowsPage({ view: 'gallery', coverProperty: 'files' }) })} />,
		)
		const covers = container.querySelectorAll('img')
		expect([...covers].map((img) => img.getAttribute('src'))).toEqual([
			'/api/portal/acme/files/r1',
			'/api/portal/acme/files/r2',
		])
		// The cover stands for its property on the card.
		expectCells(container, { files: false })
	})

	it('gallery: no empty cover frames when no row has a cover', () => {
		const bare = row('r1', 'Website redesign', 'Active')
		bare.cells.files = { kind: 'files', files: [] }
		const { container } = render(
			<GalleryView {...props({ rows: [bare], page: rowsPage({ view: 'gallery', coverProperty: 'files' }) })} />,
		)
		expect(container.querySelector('img')).toBeNull()
		expect(container.querySelector('.aspect-video')).toBeNull()
	})

	it('a url cell with an unsafe scheme is text, not a link', () => {
		const unsafe = row('r1', 'Website redesign', 'Active')
		unsafe.cells.budget = { kind: 'url', url: 'javascript:alert(1)', text: 'Click me' }
		render(<ListView {...props({ rows: [unsafe] })} />)
		expect(screen.getByText('Click me').closest('a')).toBeNull()
	})
})

describe('the filters', () => {
	it('turns the controls into the API filter for each kind of property', () => {
		const page = rowsPage({ filterable: ['status', 'due', 'budget', 'client', 'notes', 'done', 'tags'] })
		page.properties.push(
			{ id: 'notes', name: 'Notes', type: 'rich_text' },
			{ id: 'done', name: 'Done', type: 'checkbox' },
			{ id: 'tags', name: 'Tags', type: 'multi_select', options: [] },
		)
		const properties = filterableProperties(page.properties, page.filterable)
		// A relation is never offered: its values are ids the member cannot choose from.
		expect(properties.map((property) => property.id)).toEqual(['status', 'budget', 'due', 'notes', 'done', 'tags'])
		expect(
			buildFilters(properties, {
				status: 'Active',
				budget: '1200',
				due: { after: '2026-01-01', before: '' },
				notes: ' urgent ',
				done: 'false',
				tags: 'Design',
			}),
		).toEqual([
			{ property: 'status', operator: 'equals', value: 'Active' },
			{ property: 'budget', operator: 'equals', value: 1200 },
			{ property: 'due', operator: 'on_or_after', value: '2026-01-01' },
			{ property: 'notes', operator: 'contains', value: 'urgent' },
			{ property: 'done', operator: 'equals', value: false },
			{ property: 'tags', operator: 'contains', value: 'Design' },
		])
		expect(buildFilters(properties, { status: '', due: { after: '', before: '' } })).toEqual([])
	})
})
