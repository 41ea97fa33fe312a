import { type FieldKind, isContentKind, numericKinds } from '@blocksmith/contracts/form-kinds.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import { type SQL, sql } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import { formSubmissions } from './forms.schema.ts'

// Search and the field filter of a form's submissions, as SQL on the stored answers (never by
// loading rows). Answers are searched by their values only: field ids and the keys inside an
// answer (a file's `blobId`, a date's `timeZone`) never match, and neither do the ids that
// people and relation answers hold (what they name is not in the answer).

export type SubmissionFilters = { q?: string | undefined; field?: string | undefined; value?: string | undefined }

/** Kinds whose answers are ids of people or rows, or a bare yes/no: nothing a person would type to find them. */
const unsearchedKinds: ReadonlySet<FieldKind> = new Set<FieldKind>(['people', 'relation', 'checkbox'])
/** Kinds whose answers are files: found by their names. */
const fileKinds: ReadonlySet<FieldKind> = new Set<FieldKind>(['files', 'signature'])
/** Kinds whose answer is one choice, or a list of them: the value must be one of the choices, not a part of one. */
const choiceKinds: ReadonlySet<FieldKind> = new Set<FieldKind>(['select', 'status', 'multi_select', 'ranking'])

/** `%text%` for ILIKE, with the text's own `%`, `_` and `\` taken literally. */
function containing(text: string): string {
	return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}

/** The JSON path to the text of an answer of this kind: its file names, or every value at any depth. */
function leavesPath(kind: FieldKind): string {
	return fileKinds.has(kind) ? 'strict $[*].name' : 'strict $.**'
}

function list(values: string[]): SQL {
	return sql.join(
		values.map((value) => sql`${value}`),
		sql`, `,
	)
}

/**
 * Whether any text of the answer `answer` (a jsonb expression) matches `predicate` (on the text,
 * named `leaf_text`). Strings and numbers at any depth count, keys never do. Silent: an answer of
 * an unexpected shape matches nothing instead of failing the query.
 */
function anyLeaf(answer: SQL, path: SQL, predicate: SQL): SQL {
	return sql`exists (select 1 from jsonb_path_query(${answer}, (${path})::jsonpath, '{}'::jsonb, true) as leaf(item)
		cross join lateral (select leaf.item #>> '{}' as leaf_text) as text_of
		where jsonb_typeof(leaf.item) in ('string', 'number') and ${predicate})`
}

/** Answers holding `q` in any question's value, case-insensitive. */
function searchCondition(fields: FormField[], q: string): SQL {
	const searched = fields.filter((field) => !isContentKind(field.kind) && !unsearchedKinds.has(field.kind))
	if (searched.length === 0) {
		return sql`false`
	}
	const fileIds = searched.filter((field) => fileKinds.has(field.kind)).map((field) => field.id)
	const path =
		fileIds.length > 0
			? sql`case when answer.key in (${list(fileIds)}) then ${leavesPath('files')} else ${leavesPath('short_text')} end`
			: sql`${leavesPath('short_text')}`
	return sql`exists (select 1 from jsonb_each(${formSubmissions.answers}) as answer(key, value)
		where answer.key in (${list(searched.map((field) => field.id))})
		and ${anyLeaf(sql`answer.value`, path, sql`text_of.leaf_text ilike ${containing(q)}`)})`
}

function badValue(message: string): AppError {
	return new AppError('VALIDATION_FAILED', { detail: message, errors: [{ field: 'value', message }] })
}

/** Answers whose `field` holds `value`: one of its choices, a number equal to it, text within it. */
function fieldCondition(field: FormField, value: string): SQL {
	const answer = sql`(${formSubmissions.answers} -> ${field.id})`
	if (numericKinds.includes(field.kind)) {
		if (!/^-?\d{1,15}(\.\d{1,6})?$/.test(value)) {
			throw badValue(`"${field.label}" holds numbers: enter one, such as 4 or 12.5.`)
		}
		// jsonb compares numbers by value: 4 finds 4.0.
		return sql`${answer} = to_jsonb(${value}::numeric)`
	}
	if (field.kind === 'checkbox') {
		const checked = /^(yes|true|checked|1)$/i.test(value)
		if (!checked && !/^(no|false|unchecked|0)$/i.test(value)) {
			throw badValue(`"${field.label}" is ticked or not: enter yes or no.`)
		}
		// An unticked box may be stored as false or not at all.
		return checked ? sql`${answer} = 'true'::jsonb` : sql`coalesce(${answer}, 'false'::jsonb) = 'false'::jsonb`
	}
	if (field.kind === 'people' || field.kind === 'relation') {
		return sql`${answer} @> ${JSON.stringify([value])}::jsonb`
	}
	if (choiceKinds.has(field.kind)) {
		return anyLeaf(answer, sql`${leavesPath(field.kind)}`, sql`lower(text_of.leaf_text) = lower(${value})`)
	}
	return anyLeaf(answer, sql`${leavesPath(field.kind)}`, sql`text_of.leaf_text ilike ${containing(value)}`)
}

/**
 * The SQL conditions of a search and a field filter on a form's submissions. A `field` that is
 * not one of the form's questions, or a filter missing its other half, is a 400 naming it.
 */
export function filterConditions(fields: FormField[], filters: SubmissionFilters): SQL[] {
	const conditions: SQL[] = []
	if (filters.q) {
		conditions.push(searchCondition(fields, filters.q))
	}
	const hasField = filters.field !== undefined && filters.field !== ''
	const hasValue = filters.value !== undefined && filters.value !== ''
	if (hasField !== hasValue) {
		const missing = hasField ? 'value' : 'field'
		const message = hasField ? 'Enter the value to look for.' : 'Choose the question to look in.'
		throw new AppError('VALIDATION_FAILED', { detail: message, errors: [{ field: missing, message }] })
	}
	if (hasField && hasValue) {
		const field = fields.find((candidate) => candidate.id === filters.field)
		if (!field || isContentKind(field.kind)) {
			const message = 'This form has no such question.'
			throw new AppError('VALIDATION_FAILED', { detail: message, errors: [{ field: 'field', message }] })
		}
		conditions.push(fieldCondition(field, filters.value as string))
	}
	return conditions
}
