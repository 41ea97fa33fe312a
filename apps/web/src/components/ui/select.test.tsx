import { screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { Select } from './select.tsx'

const currencies = [
	{ value: 'EUR', label: 'Euro' },
	{ value: 'USD', label: 'US dollar' },
	{ value: 'GBP', label: 'Pound sterling', isDisabled: true },
	{ value: 'CHF', label: 'Swiss franc' },
]

function CurrencySelect({ onChange }: { onChange: (value: string) => void }) {
	const [value, setValue] = useState('')
	return (
		<Select
			aria-label="Currency"
			placeholder="Choose a currency"
			options={currencies}
			value={value}
			onValueChange={(next) => {
				setValue(next)
				onChange(next)
			}}
		/>
	)
}

describe('Select', () => {
	it('opens, moves and chooses with the keyboard alone, skipping disabled options', async () => {
		const onChange = vi.fn()
		const { user } = renderWithUser(<CurrencySelect onChange={onChange} />)
		const trigger = screen.getByRole('combobox', { name: 'Currency' })
		expect(trigger).toHaveTextContent('Choose a currency')

		await user.tab()
		expect(trigger).toHaveFocus()
		await user.keyboard('{Enter}')
		expect(await screen.findByRole('listbox')).toBeInTheDocument()
		expect(screen.getByRole('option', { name: 'Pound sterling' })).toHaveAttribute('aria-disabled', 'true')

		// Euro is highlighted first; two steps down skip the disabled pound and land on the franc.
		await user.keyboard('{ArrowDown}{ArrowDown}{Enter}')
		expect(onChange).toHaveBeenLastCalledWith('CHF')
		expect(screen.queryByRole('listbox')).toBeNull()
		expect(trigger).toHaveTextContent('Swiss franc')
		expect(trigger).toHaveFocus()
	})

	it('closes on Escape without changing the value', async () => {
		const onChange = vi.fn()
		const { user } = renderWithUser(<CurrencySelect onChange={onChange} />)
		await user.tab()
		await user.keyboard('{ArrowDown}')
		expect(await screen.findByRole('listbox')).toBeInTheDocument()
		await user.keyboard('{ArrowDown}{Escape}')
		expect(screen.queryByRole('listbox')).toBeNull()
		expect(onChange).not.toHaveBeenCalled()
		expect(screen.getByRole('combobox', { name: 'Currency' })).toHaveTextContent('Choose a currency')
	})
})
