import { z } from 'zod'

// Kept apart from forms.ts so that the logic module (form-rules.ts) and the form schemas can both
// use the kinds without importing each other.

/** What a question asks for; each writes a property of a fitting type, or is kept with the answer only. */
export const questionKinds = [
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
	/** Stars, 1 to `scale.max` (3–10). */
	'rating',
	/** A linear scale from `scale.min` (0 or 1) to `scale.max` (2–10), with labels at its ends. */
	'scale',
	/** Net Promoter Score: 0–10. */
	'nps',
	/** Every choice of `choices` (or of the multi-select property) put in order. */
	'ranking',
	/** Drawn by the visitor, stored as a PNG file. */
	'signature',
	/** Rows × columns: one column (or several) per row. */
	'matrix',
	/** A number worked out from earlier answers (`calculation`), never typed. */
	'calculated',
] as const

/** Parts of the page that ask nothing: text, pictures, and the breaks between pages. */
export const contentKinds = ['heading', 'paragraph', 'image', 'divider', 'page_break'] as const

/** Everything a form's `fields` list may hold, in the order the page shows it. */
export const fieldKinds = [...questionKinds, ...contentKinds] as const
export const fieldKindSchema = z.enum(fieldKinds)
export type FieldKind = z.infer<typeof fieldKindSchema>
export type QuestionKind = (typeof questionKinds)[number]
export type ContentKind = (typeof contentKinds)[number]

const contentKindSet: ReadonlySet<string> = new Set(contentKinds)

/** Whether an item of the form is content (never answered) rather than a question. */
export function isContentKind(kind: FieldKind): kind is ContentKind {
	return contentKindSet.has(kind)
}

/** Questions that can be asked without a database property: their answers stay with the submission. */
export const unboundQuestionKinds: readonly QuestionKind[] = [
	'short_text',
	'long_text',
	'number',
	'select',
	'multi_select',
	'date',
	'checkbox',
	'url',
	'email',
	'phone',
	'files',
	'rating',
	'scale',
	'nps',
	'ranking',
	'signature',
	'matrix',
	'calculated',
]

/** Kinds whose answers are numbers (what a calculation may read, and what number conditions test). */
export const numericKinds: readonly FieldKind[] = ['number', 'rating', 'scale', 'nps', 'calculated']
