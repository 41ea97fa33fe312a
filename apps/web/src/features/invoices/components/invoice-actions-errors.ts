import { toast } from 'sonner'
import type { ApiError } from '#src/lib/api-client.ts'

/**
 * A 400's field errors by the fields a dialog shows (a field also takes the paths below it:
 * `lines` takes `lines.0.quantity`); the rest are told in a toast, so no message is lost.
 */
export function fieldErrorsOf(error: ApiError, fields: readonly string[]): Record<string, string> {
	const shown: Record<string, string> = {}
	const unshown: string[] = []
	for (const { field, message } of error.fieldErrors) {
		if (fields.some((name) => field === name || field.startsWith(`${name}.`))) {
			shown[field] ??= message
		} else {
			unshown.push(field ? `${field}: ${message}` : message)
		}
	}
	if (unshown.length > 0) {
		toast.error(error.detail, { description: unshown.join('\n') })
	}
	return shown
}
