import { get, type UseFormReturn } from 'react-hook-form'
import type { PortalFormValues } from '../lib/portal-form.ts'

export type PortalForm = UseFormReturn<PortalFormValues>

/** The message at a dotted path of the form's errors (the server's paths are the form's). */
export function errorAt(form: PortalForm, path: string): string | undefined {
	const error = get(form.formState.errors, path) as { message?: string } | undefined
	return error?.message
}

/** Whether anything at or below a path has an error (a page with a problem in any of its fields). */
export function hasErrorAt(form: PortalForm, path: string): boolean {
	return get(form.formState.errors, path) !== undefined
}
