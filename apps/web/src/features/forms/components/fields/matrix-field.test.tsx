import { act, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { field } from '../../public/testing.ts'
import { FieldHarness, shownValue } from './field-testing.tsx'
import { MatrixField } from './matrix-field.tsx'

// Matrix: a table whose controls are named by row and column (radios, or checkboxes when
// several columns a row are allowed), the same rows stacked as groups when the field is narrow.

const matrix = field('m', 'matrix', 'Rate each part', {
	matrix: { rows: ['Food', 'Service'], columns: ['Bad', 'OK', 'Good'], multiple: false },
})
const value = () => shownValue(screen.getByTestId('value'))

/** A ResizeObserver that reports the width given, as the browser would for the field's box. */
function observeWidth(width: number) {
	const callbacks: ResizeObserverCallback[] = []
	vi.stubGlobal(
		'ResizeObserver',
		class {
			constructor(callback: ResizeObserverCallback) {
				callbacks.push(callback)
			}
			observe() {
				for (const callback of callbacks) {
					callback([{ contentRect: { width } } as ResizeObserverEntry], this as unknown as ResizeObserver)
				}
			}
			disconnect() {}
		},
	)
}

afterEach(() => vi.unstubAllGlobals())

describe('MatrixField', () => {
	it('answers one column per row in a table, each radio named by its row and column', async () => {
		const { user } = renderWithUser(<FieldHarness field={matrix} component={MatrixField} initial={{}} />)
		const table = screen.getByRole('table')
		expect(
			within(table)
				.getAllByRole('columnheader')
				.map((header) => header.textContent),
		).toEqual(['Bad', 'OK', 'Good'])
		expect(
			within(table)
				.getAllByRole('rowheader')
				.map((header) => header.textContent),
		).toEqual(['Food', 'Service'])
		await user.click(screen.getByRole('radio', { name: 'Food Good' }))
		await user.click(screen.getByRole('radio', { name: 'Service OK' }))
		expect(value()).toEqual({ Food: 'Good', Service: 'OK' })
		// Each row is its own radio group: the arrow keys move within the row.
		await user.keyboard('{ArrowLeft}')
		expect(value()).toEqual({ Food: 'Good', Service: 'Bad' })
		expect(screen.getByRole('radio', { name: 'Service Bad' })).toHaveFocus()
	})

	it('ticks several columns a row when the field allows, kept in the columns’ order', async () => {
		const { user } = renderWithUser(
			<FieldHarness
				field={{ ...matrix, matrix: { rows: ['Food', 'Service'], columns: ['Bad', 'OK', 'Good'], multiple: true } }}
				component={MatrixField}
				initial={{}}
			/>,
		)
		await user.click(screen.getByRole('checkbox', { name: 'Food Good' }))
		await user.click(screen.getByRole('checkbox', { name: 'Food Bad' }))
		expect(value()).toEqual({ Food: ['Bad', 'Good'] })
		await user.click(screen.getByRole('checkbox', { name: 'Food Bad' }))
		await user.click(screen.getByRole('checkbox', { name: 'Food Good' }))
		// A row with nothing ticked is no answer for it.
		expect(value()).toEqual({})
	})

	it('stacks the rows as groups of options when the field is too narrow for the columns', async () => {
		observeWidth(300)
		const { user } = renderWithUser(
			<FieldHarness field={matrix} component={MatrixField} initial={{ Service: 'Good' }} />,
		)
		await act(async () => {})
		expect(screen.queryByRole('table')).not.toBeInTheDocument()
		const food = screen.getByRole('group', { name: 'Food' })
		await user.click(within(food).getByRole('radio', { name: 'OK' }))
		expect(value()).toEqual({ Service: 'Good', Food: 'OK' })
		expect(within(screen.getByRole('group', { name: 'Service' })).getByRole('radio', { name: 'Good' })).toBeChecked()
	})

	it('keeps the table when there is room', async () => {
		observeWidth(800)
		renderWithUser(<FieldHarness field={matrix} component={MatrixField} initial={{}} />)
		await act(async () => {})
		expect(screen.getByRole('table')).toBeInTheDocument()
	})
})
