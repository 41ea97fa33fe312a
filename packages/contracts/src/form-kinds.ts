import { z } from 'zod'

// Kept apart from forms.ts so that the logic module (form-logic.ts) and the form schemas can both
// use the kinds without importing each other.

/** What a field asks for; each writes a property of the matching type. */
export const fieldKinds = [
	'short_text',
	'long_text',
	'number',
	'select',
	'multi_select',
	'status',
	'date',
	'checkbox',
	'url',
	'email',
	'phone',
	'people',
	'relation',
	'files',
] as const
export const fieldKindSchema = z.enum(fieldKinds)
export type FieldKind = z.infer<typeof fieldKindSchema>
