import { get, type UseFormReturn } from 'react-hook-form'
import type { ProfileFormValues } from '../lib/profile-form.ts'

export type ProfileForm = UseFormReturn<ProfileFormValues>

/** The message at a dotted path of the form's errors (the server's paths are the form's). */
export function errorAt(form: ProfileForm, path: string): string | undefined {
	const error = get(form.formState.errors, path) as { message?: string } | undefined
	return error?.message
}
