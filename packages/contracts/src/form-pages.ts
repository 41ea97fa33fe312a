import type { FieldKind } from './form-kinds.ts'
import type { LogicProblem, LogicRule } from './form-rule-types.ts'

// The pages of a form and the jump rules between them: the "Pages and jumps" part of the header
// of form-rules.ts, split from it to keep each file about one thing. Zod-free like it: form-kinds.ts
// has zod in it, so the few facts about kinds needed here are restated (exhaustively typed) below.

/** A page of the form: `start` for the first, its page break's field id for the others. */
export type PageOfForm = { id: string; index: number; fieldIds: string[] }

/** Where a jump goes to submit straight away (after the last page). */
export const endPageId = 'end'
export const startPageId = 'start'

// Records rather than lists so that a new kind cannot be forgotten: the compiler asks for it.
const isContentKind: Record<FieldKind, boolean> = {
	short_text: false,
	long_text: false,
	number: false,
	select: false,
	multi_select: false,
	status: false,
	date: false,
	checkbox: false,
	url: false,
	email: false,
	phone: false,
	people: false,
	relation: false,
	files: false,
	rating: false,
	scale: false,
	nps: false,
	ranking: false,
	signature: false,
	matrix: false,
	calculated: false,
	heading: true,
	paragraph: true,
	image: true,
	divider: true,
	page_break: true,
}

/** Content (headings, text, images, dividers, page breaks) asks nothing and never has an answer. */
export function isContent(kind: FieldKind): boolean {
	return isContentKind[kind]
}

/** The kinds whose answers are numbers: what a calculation may read (as `numericKinds` in form-kinds.ts). */
export function isNumericKind(kind: FieldKind): boolean {
	return kind === 'number' || kind === 'rating' || kind === 'scale' || kind === 'nps' || kind === 'calculated'
}

/**
 * The pages of a form, in order. Each page break starts a page that holds it and the items after it;
 * a page break that is the form's first item starts no page of its own (the first page would be
 * empty): it titles the first page, whose id stays `start`.
 */
export function formPages(fields: readonly { id: string; kind: FieldKind }[]): PageOfForm[] {
	const pages: PageOfForm[] = [{ id: startPageId, index: 0, fieldIds: [] }]
	fields.forEach((field, position) => {
		if (field.kind === 'page_break' && position > 0) {
			pages.push({ id: field.id, index: pages.length, fieldIds: [] })
		}
		pages[pages.length - 1]?.fieldIds.push(field.id)
	})
	return pages
}

/** The page index of each field id (the first field of that id, should two share one). */
export function pageIndexByField(pages: readonly PageOfForm[]): Map<string, number> {
	const byField = new Map<string, number>()
	for (const page of pages) {
		for (const id of page.fieldIds) {
			if (!byField.has(id)) {
				byField.set(id, page.index)
			}
		}
	}
	return byField
}

/** A jump rule placed in the form: it leaves page `source` for page `target` (pages.length: the end). */
export type PlacedJump = { source: number; target: number }

/**
 * Where a jump rule applies, or null when it never does: no condition on a field of the form (so
 * no page to leave), or a target that is no page of the form or not after the source page.
 */
export function placeJump(
	rule: Pick<LogicRule, 'action' | 'conditions' | 'toPageId'>,
	pages: readonly PageOfForm[],
	fieldOrder: ReadonlyMap<string, number>,
	pageOfField: ReadonlyMap<string, number>,
): PlacedJump | null {
	if (rule.action !== 'jump') {
		return null
	}
	const source = sourcePage(rule, fieldOrder, pageOfField)
	const target = targetPage(rule.toPageId, pages)
	return source !== null && target !== null && target > source ? { source, target } : null
}

/** The page of the rule's last condition field in form order; null when none is in the form. */
function sourcePage(
	rule: Pick<LogicRule, 'conditions'>,
	fieldOrder: ReadonlyMap<string, number>,
	pageOfField: ReadonlyMap<string, number>,
): number | null {
	let last: string | null = null
	for (const condition of rule.conditions) {
		const order = fieldOrder.get(condition.fieldId)
		if (order !== undefined && (last === null || order > (fieldOrder.get(last) ?? -1))) {
			last = condition.fieldId
		}
	}
	return last === null ? null : (pageOfField.get(last) ?? null)
}

/** The index of a jump's target (pages.length for `end`), or null when it names no page. */
function targetPage(toPageId: string | undefined, pages: readonly PageOfForm[]): number | null {
	if (toPageId === endPageId) {
		return pages.length
	}
	// 'start' is never a target: it is no later page, and the loop below would find it at index 0.
	const page = pages.find((item) => item.id === toPageId)
	return page ? page.index : null
}

/**
 * The pages a visitor goes through: from the first, each page leads to the earliest target of its
 * matching jumps, or to the next page. Jumps only go forward, so the walk ends.
 */
export function walkPages(
	pageCount: number,
	jumps: readonly PlacedJump[],
	matches: (jump: number) => boolean,
): number[] {
	const path: number[] = []
	for (let page = 0; page < pageCount; ) {
		path.push(page)
		// A matching jump's target is always after `page`; the earliest of them wins.
		let earliest = Number.POSITIVE_INFINITY
		jumps.forEach((jump, position) => {
			if (jump.source === page && matches(position)) {
				earliest = Math.min(earliest, jump.target)
			}
		})
		page = Number.isFinite(earliest) ? earliest : page + 1
	}
	return path
}

/**
 * Problems of the form's jump rules, for the builder and the server's 400: a jump without a page
 * to go to, to a page not in the form, or to a page that is not after the one it leaves. Loops of
 * jumps cannot be built: a jump only goes forward, so only that last problem needs saying.
 */
export function jumpProblems(
	fields: readonly { id: string; kind: FieldKind }[],
	rules: readonly LogicRule[],
): LogicProblem[] {
	const pages = formPages(fields)
	const fieldOrder = new Map(fields.map((field, position) => [field.id, position]))
	const pageOfField = pageIndexByField(pages)
	const problems: LogicProblem[] = []
	rules.forEach((rule, r) => {
		if (rule.action !== 'jump') {
			return
		}
		const path = `logic.${r}.toPageId`
		if (!rule.toPageId) {
			problems.push({ path, message: 'Pick the page to go to.' })
			return
		}
		const target = targetPage(rule.toPageId, pages)
		if (target === null) {
			problems.push({ path, message: 'This page is not in the form: pick a later page or the end.' })
			return
		}
		const source = sourcePage(rule, fieldOrder, pageOfField)
		if (source !== null && target <= source) {
			problems.push({
				path,
				message: 'Jump to a page after the one this rule leaves (the page of its last condition), or to the end.',
			})
		}
	})
	return problems
}
