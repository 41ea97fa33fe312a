import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form'
import { toast } from 'sonner'

/** The part of an API problem this needs (lib/api-client's ApiError has it). */
type ProblemWithFieldErrors = {
	detail: string
	fieldErrors: readonly { field: string; message: string }[]
}

/**
 * Shows a problem's field errors on the form's fields and whatever no field can show as a toast; the first
 * field with an error gets the focus. `fields` lists the fields this form renders; a listed field also takes
 * errors for paths below it (`lines` takes `lines.0.quantity`).
 *
 * Returns false, and shows nothing, when the problem has no field errors: the query client's global error
 * handler toasts those (mark the mutation `meta: { isFormMutation: true }` so it leaves field errors to this).
 */
export function showFieldErrors<T extends FieldValues>(
	problem: ProblemWithFieldErrors,
	setError: UseFormSetError<T>,
	fields: readonly FieldPath<T>[],
): boolean {
	if (problem.fieldErrors.length === 0) {
		return false
	}
	const unshown: string[] = []
	let isFirst = true
	for (const { field, message } of problem.fieldErrors) {
		const isShown = fields.some((name) => field === name || field.startsWith(`${name}.`))
		if (isShown) {
			// The server's dotted path is react-hook-form's path syntax too.
			setError(field as FieldPath<T>, { type: 'server', message }, { shouldFocus: isFirst })
			isFirst = false
		} else {
			unshown.push(field ? `${field}: ${message}` : message)
		}
	}
	if (unshown.length > 0) {
		toast.error(problem.detail, { description: unshown.join('\n') })
	}
	return true
}
