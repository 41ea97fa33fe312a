import type { FormField } from '@blocksmith/contracts/forms.ts'
import { asStringList, formatDate, isDateValue } from '#src/workspaces/lib/values.ts'

// An answer as one line of text in the submissions table.

export type AnswerLookups = {
	/** A person's name by user id, when known. */
	personName: (id: string) => string | undefined
	/** A linked row's title by its workspace id, when known. */
	rowTitle: (id: string) => string | undefined
}

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 10 })

export function formatAnswer(field: Pick<FormField, 'kind'>, value: unknown, lookups: AnswerLookups): string {
	if (value === null || value === undefined || value === '') {
		return field.kind === 'checkbox' ? 'No' : ''
	}
	switch (field.kind) {
		case 'checkbox':
			return value === true ? 'Yes' : 'No'
		case 'number':
			return typeof value === 'number' ? numberFormat.format(value) : String(value)
		case 'date':
			if (typeof value === 'string') {
				return formatDate({ start: value, end: null, timeZone: null })
			}
			return isDateValue(value) ? formatDate(value) : ''
		case 'multi_select':
			return asStringList(value).join(', ')
		case 'people':
			return asStringList(value)
				.map((id) => lookups.personName(id) ?? id)
				.join(', ')
		case 'relation':
			return asStringList(value)
				.map((id) => lookups.rowTitle(id) ?? id)
				.join(', ')
		case 'files':
			return Array.isArray(value)
				? value
						.map((file) => (file && typeof file === 'object' ? String((file as { name?: unknown }).name) : ''))
						.join(', ')
				: ''
		default:
			return typeof value === 'string' ? value : JSON.stringify(value)
	}
}
