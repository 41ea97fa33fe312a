import type { PublicField } from '@blocksmith/contracts/forms.ts'

// The values of the question kinds that are neither typed nor picked from a list: points
// (rating, scale, NPS), a ranking's order and a matrix's rows, each read defensively because
// they come from a default, a saved draft or a link as well as from the inputs.

/** A matrix's answers so far: the column (or columns) ticked in each row answered. */
export type MatrixDraft = Record<string, string | string[]>

export function isMatrixDraft(value: unknown): value is MatrixDraft {
	return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** The whole numbers a rating, scale or NPS takes (the server's scaleRangeOf, same defaults). */
export function scaleRangeOf(field: Pick<PublicField, 'kind' | 'scale'>): { min: number; max: number } {
	if (field.kind === 'nps') {
		return { min: 0, max: 10 }
	}
	const max = field.scale?.max ?? 5
	return field.kind === 'rating' ? { min: 1, max } : { min: field.scale?.min ?? 1, max }
}

/** A point as its input keeps it, or undefined when it is not a whole number in the field's range. */
export function pointOf(field: PublicField, raw: unknown): string | undefined {
	const value = typeof raw === 'string' && /^\s*\d{1,2}\s*$/.test(raw) ? Number(raw) : raw
	const { min, max } = scaleRangeOf(field)
	return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
		? String(value)
		: undefined
}

/** A ranking's order when it holds every choice of the field exactly once; otherwise none. */
export function rankingOf(field: PublicField, raw: unknown): string[] {
	const options = field.options ?? []
	if (!Array.isArray(raw) || raw.length !== options.length || new Set(raw).size !== raw.length) {
		return []
	}
	return raw.every((item) => typeof item === 'string' && options.includes(item)) ? (raw as string[]) : []
}

/** A matrix's answers for the rows and columns it still has, each row's columns in the question's order. */
export function matrixOf(field: PublicField, raw: unknown): MatrixDraft {
	const spec = field.matrix
	const draft: MatrixDraft = {}
	if (!spec || !isMatrixDraft(raw)) {
		return draft
	}
	for (const row of spec.rows) {
		const cell = Object.hasOwn(raw, row) ? raw[row] : undefined
		if (spec.multiple) {
			const ticked = Array.isArray(cell) ? spec.columns.filter((column) => cell.includes(column)) : []
			if (ticked.length > 0) {
				draft[row] = ticked
			}
		} else if (typeof cell === 'string' && spec.columns.includes(cell)) {
			draft[row] = cell
		}
	}
	return draft
}

/** The rows of a matrix left unanswered. */
export function unansweredRows(field: PublicField, draft: MatrixDraft): string[] {
	return (field.matrix?.rows ?? []).filter((row) => {
		const cell = draft[row]
		return cell === undefined || cell.length === 0
	})
}
