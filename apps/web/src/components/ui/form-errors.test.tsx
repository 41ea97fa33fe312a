import { act, screen } from '@testing-library/react'
import { type UseFormSetError, useForm } from 'react-hook-form'
import { toast } from 'sonner'
import { describe, expect, it, vi } from 'vitest'
import { renderWithUser } from '#src/test/render.tsx'
import { Field } from './field.tsx'
import { showFieldErrors } from './form-errors.ts'
import { Input } from './input.tsx'

type Values = { name: string; email: string }

function InvoiceClientForm({ onReady }: { onReady: (setError: UseFormSetError<Values>) => void }) {
	const form = useForm<Values>({ defaultValues: { name: '', email: '' } })
	onReady(form.setError)
	return (
		<form>
			<Field label="Name" error={form.formState.errors.name}>
				<Input {...form.register('name')} />
			</Field>
			<Field label="E-mail" error={form.formState.errors.email}>
				<Input {...form.register('email')} />
			</Field>
		</form>
	)
}

function renderForm(): UseFormSetError<Values> {
	let setError: UseFormSetError<Values> | undefined
	renderWithUser(
		<InvoiceClientForm
			onReady={(value) => {
				setError = value
			}}
		/>,
	)
	if (!setError) {
		throw new Error('form did not render')
	}
	return setError
}

describe('showFieldErrors', () => {
	it('puts field errors on their fields, focuses the first, and toasts nothing when every error has a field', () => {
		const toastError = vi.spyOn(toast, 'error')
		const setError = renderForm()
		let isHandled = false
		act(() => {
			isHandled = showFieldErrors(
				{
					detail: 'The request is invalid.',
					fieldErrors: [
						{ field: 'email', message: 'This e-mail address is already a client.' },
						{ field: 'name', message: 'Enter a name.' },
					],
				},
				setError,
				['name', 'email'],
			)
		})
		expect(isHandled).toBe(true)
		const email = screen.getByLabelText('E-mail')
		expect(email).toHaveAccessibleDescription('This e-mail address is already a client.')
		expect(email).toHaveFocus()
		expect(screen.getByLabelText('Name')).toHaveAccessibleDescription('Enter a name.')
		expect(toastError).not.toHaveBeenCalled()
	})

	it('toasts the errors no field shows', () => {
		const toastError = vi.spyOn(toast, 'error')
		const setError = renderForm()
		act(() => {
			showFieldErrors(
				{
					detail: 'The request is invalid.',
					fieldErrors: [
						{ field: 'name', message: 'Enter a name.' },
						{ field: 'currency', message: 'Unknown currency.' },
					],
				},
				setError,
				['name', 'email'],
			)
		})
		expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true')
		expect(toastError).toHaveBeenCalledWith('The request is invalid.', { description: 'currency: Unknown currency.' })
	})

	it('leaves a problem without field errors to the global handler', () => {
		const toastError = vi.spyOn(toast, 'error')
		const setError = renderForm()
		let isHandled = true
		act(() => {
			isHandled = showFieldErrors({ detail: 'Too many requests.', fieldErrors: [] }, setError, ['name'])
		})
		expect(isHandled).toBe(false)
		expect(toastError).not.toHaveBeenCalled()
		expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid')
	})
})
