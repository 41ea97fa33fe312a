import { render, screen } from '@testing-library/react'
import { useForm } from 'react-hook-form'
import { describe, expect, it } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { Checkbox } from './checkbox.tsx'
import { Field } from './field.tsx'
import { Input } from './input.tsx'
import { Select } from './select.tsx'

function SignUp() {
	const form = useForm({ defaultValues: { email: '' } })
	return (
		<form noValidate onSubmit={form.handleSubmit(() => {})}>
			<Field label="E-mail" error={form.formState.errors.email}>
				<Input type="email" {...form.register('email', { required: 'Enter your e-mail address.' })} />
			</Field>
			<button type="submit">Create account</button>
		</form>
	)
}

describe('Field', () => {
	it('names the control by its label and describes it by its description and error', () => {
		render(
			<Field label="E-mail" description="We send the receipt here." error="Enter a valid e-mail address.">
				<Input type="email" />
			</Field>,
		)
		const input = screen.getByLabelText('E-mail')
		expect(input.tagName).toBe('INPUT')
		expect(input).toHaveAccessibleDescription('We send the receipt here. Enter a valid e-mail address.')
		expect(input).toHaveAttribute('aria-invalid', 'true')
		expect(input).toBeInvalid()
	})

	it('leaves a control without an error valid, and takes react-hook-form error objects', () => {
		const { rerender } = render(
			<Field label="Name" description="As on your invoices.">
				<Input />
			</Field>,
		)
		const input = screen.getByLabelText('Name')
		expect(input).not.toHaveAttribute('aria-invalid')
		expect(input).toHaveAccessibleDescription('As on your invoices.')

		rerender(
			<Field label="Name" description="As on your invoices." error={{ message: 'Enter a name.' }}>
				<Input />
			</Field>,
		)
		expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true')
		expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('As on your invoices. Enter a name.')
	})

	it('marks required fields for screen readers without reading the asterisk as part of the name', () => {
		render(
			<Field label="Company" isRequired>
				<Input />
			</Field>,
		)
		const input = screen.getByRole('textbox', { name: 'Company' })
		expect(input).toHaveAttribute('aria-required', 'true')
	})

	it('gives each field its own id', () => {
		render(
			<>
				<Field label="First">
					<Input />
				</Field>
				<Field label="Second">
					<Input />
				</Field>
			</>,
		)
		expect(screen.getByLabelText('First').id).not.toBe(screen.getByLabelText('Second').id)
	})

	it('labels a Select and a Checkbox too', async () => {
		const { user } = renderWithUser(
			<>
				<Field label="Currency" error="Choose a currency.">
					<Select options={[{ value: 'EUR', label: 'Euro' }]} />
				</Field>
				<Field label="Send me a copy" orientation="horizontal">
					<Checkbox />
				</Field>
			</>,
		)
		const select = screen.getByRole('combobox', { name: 'Currency' })
		expect(select).toHaveAccessibleDescription('Choose a currency.')
		expect(select).toHaveAttribute('aria-invalid', 'true')

		const checkbox = screen.getByRole('checkbox', { name: 'Send me a copy' })
		expect(checkbox).not.toBeChecked()
		// A click on the label toggles the box, as with a native checkbox.
		await user.click(screen.getByText('Send me a copy'))
		expect(checkbox).toBeChecked()
	})

	it('works with react-hook-form register: validation errors land on the field and focus it', async () => {
		const { user } = renderWithUser(<SignUp />)
		await user.click(screen.getByRole('button', { name: 'Create account' }))
		const input = screen.getByLabelText('E-mail')
		expect(input).toHaveAttribute('aria-invalid', 'true')
		expect(input).toHaveAccessibleDescription('Enter your e-mail address.')
		expect(input).toHaveFocus()

		await user.type(input, 'ada@example.com')
		await user.click(screen.getByRole('button', { name: 'Create account' }))
		expect(input).not.toHaveAttribute('aria-invalid')
	})
})
