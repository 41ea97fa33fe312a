import type { FieldValues, Path, UseFormReturn } from 'react-hook-form'
import { toast } from 'sonner'
import { ApiError } from './api-client.ts'

/**
 * A failed submit: field errors from the problem land on their fields; anything the form
 * has no field for (rate limits, conflicts, server errors) becomes a toast.
 */
export function showProblem<T extends FieldValues>(form: UseFormReturn<T>, error: unknown): void {
	if (!(error instanceof ApiError)) {
		toast.error('Something went wrong. Try again.')
		return
	}
	const fields = new Set(Object.keys(form.getValues()))
	let shown = 0
	for (const fieldError of error.fieldErrors) {
		const name = fieldError.field.split('.')[0] ?? ''
		if (fields.has(name)) {
			form.setError(fieldError.field as Path<T>, { type: 'server', message: fieldError.message })
			shown += 1
		}
	}
	if (shown === 0 || shown < error.fieldErrors.length) {
		toast.error(error.detail)
	}
}
