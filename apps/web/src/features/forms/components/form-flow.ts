import { isContent } from '@blocksmith/contracts/form-pages.ts'
import type { FormEvaluation, LogicRule, PageOfForm } from '@blocksmith/contracts/form-rules.ts'
import type { FormLayout, PublicField } from '@blocksmith/contracts/forms.ts'
import type { Engine } from './form-engine.ts'

// How the public form moves: the screens a visitor sees (a page at a time, or one question at a
// time), where Next and Back go, and how far along they are. Pure, worked out again from the
// answers on every change by the same rules (form-rules.ts) the server checks the answers with, so
// a jump follows the answers and a page the path skips is never shown, checked or sent.

/** What one screen shows: a page (classic), or a question with the content just before it. */
export type Screen = {
	/** The page id (classic, or a page of content only) or the question's id (one at a time). */
	id: string
	pageId: string
	/** The items shown, in form order: questions and content, never the page break itself. */
	fieldIds: string[]
	/** Whether a question is on it (one at a time: the one it asks). */
	hasQuestion: boolean
}

/** Where Next leads: another screen, or the end (the screen shows Submit). */
type Next = { screen: Screen } | { end: true }

export type Flow = {
	evaluation: FormEvaluation
	pages: PageOfForm[]
	/** The screens of each page, given the answers (none for a page with nothing shown or off the path). */
	screensByPage: Map<string, Screen[]>
	screenOf: (id: string) => Screen | undefined
	/** The screen that shows a field, whatever screen id it was saved under. */
	screenOfField: (fieldId: string) => Screen | undefined
	next: (from: Screen) => Next
	first: Screen
}

/** More hops than a form has pages only in a broken form: stop there rather than loop. */
const maxHops = 1000

function shownItems(page: PageOfForm, byId: Map<string, PublicField>, evaluation: FormEvaluation): PublicField[] {
	return page.fieldIds
		.map((id) => byId.get(id))
		.filter(
			(field): field is PublicField =>
				field !== undefined &&
				field.kind !== 'page_break' &&
				!field.hidden &&
				(evaluation.fields[field.id]?.visible ?? true),
		)
}

/**
 * One at a time: each question with the content before it; content after a page's last question
 * stays with that question, and a page of content only is a screen of its own.
 */
function questionScreens(page: PageOfForm, items: PublicField[]): Screen[] {
	const screens: Screen[] = []
	let pending: string[] = []
	for (const item of items) {
		pending.push(item.id)
		if (!isContent(item.kind)) {
			screens.push({ id: item.id, pageId: page.id, fieldIds: pending, hasQuestion: true })
			pending = []
		}
	}
	const last = screens.at(-1)
	if (pending.length > 0 && last) {
		last.fieldIds.push(...pending)
	} else if (pending.length > 0) {
		screens.push({ id: page.id, pageId: page.id, fieldIds: pending, hasQuestion: false })
	}
	return screens
}

export function buildFlow(
	engine: Engine,
	fields: PublicField[],
	rules: LogicRule[],
	answers: Record<string, unknown>,
	display: FormLayout['display'],
): Flow {
	const { evaluateForm, formPages, nextPageId } = engine
	const evaluation = evaluateForm(fields, rules, answers)
	const pages = formPages(fields)
	const byId = new Map(fields.map((field) => [field.id, field]))
	const screensByPage = new Map<string, Screen[]>()
	const screens = new Map<string, Screen>()
	const byField = new Map<string, Screen>()
	for (const page of pages) {
		const items = shownItems(page, byId, evaluation)
		const pageScreens =
			items.length === 0
				? []
				: display === 'one_at_a_time'
					? questionScreens(page, items)
					: [
							{
								id: page.id,
								pageId: page.id,
								fieldIds: items.map((item) => item.id),
								hasQuestion: items.some((item) => !isContent(item.kind)),
							},
						]
		screensByPage.set(page.id, pageScreens)
		for (const screen of pageScreens) {
			screens.set(screen.id, screen)
			for (const id of screen.fieldIds) {
				byField.set(id, screen)
			}
		}
	}

	/** The first screen of the page `pageId` or, when it shows nothing, of the next one that does. */
	const firstFrom = (pageId: string): Next => {
		let id = pageId
		for (let hop = 0; hop < maxHops && id !== 'end'; hop++) {
			const first = screensByPage.get(id)?.[0]
			if (first) {
				return { screen: first }
			}
			id = nextPageId(fields, rules, answers, id)
		}
		return { end: true }
	}

	const next = (from: Screen): Next => {
		const onPage = screensByPage.get(from.pageId) ?? []
		const at = onPage.findIndex((screen) => screen.id === from.id)
		const following = at >= 0 ? onPage[at + 1] : undefined
		if (following) {
			return { screen: following }
		}
		const pageId = nextPageId(fields, rules, answers, from.pageId)
		return pageId === 'end' ? { end: true } : firstFrom(pageId)
	}

	const start = firstFrom(pages[0]?.id ?? 'start')
	// A form with nothing to show still has a screen: its Submit.
	const first: Screen =
		'screen' in start ? start.screen : { id: 'start', pageId: 'start', fieldIds: [], hasQuestion: false }

	return {
		evaluation,
		pages,
		screensByPage,
		screenOf: (id) => screens.get(id),
		screenOfField: (fieldId) => byField.get(fieldId),
		next,
		first,
	}
}

/**
 * The screens walked so far, as they are now: each saved id still shown (a question's id found
 * on its page's screen once the display changed), repeats dropped; the first screen when nothing
 * is left, so there is always a current screen.
 */
export function resolveTrail(flow: Flow, trail: readonly string[]): Screen[] {
	const resolved: Screen[] = []
	for (const id of trail) {
		const screen = flow.screenOf(id) ?? flow.screenOfField(id)
		if (screen && !resolved.some((seen) => seen.id === screen.id)) {
			resolved.push(screen)
		}
	}
	return resolved.length > 0 ? resolved : [flow.first]
}

/**
 * How far along the visitor is, by the path so far: the screens behind them, and the ones the
 * answers lead to from here (a page a jump skips does not count). One at a time counts questions.
 */
export function progressOf(
	flow: Flow,
	trail: readonly Screen[],
	display: FormLayout['display'],
): { current: number; total: number } {
	const current = trail.at(-1) ?? flow.first
	const counts = (screen: Screen) => display === 'classic' || screen.hasQuestion
	const behind = trail.slice(0, -1).filter(counts).length
	let ahead = counts(current) ? 1 : 0
	let at: Screen = current
	for (let hop = 0; hop < maxHops; hop++) {
		const next = flow.next(at)
		if (!('screen' in next)) {
			break
		}
		at = next.screen
		ahead += counts(at) ? 1 : 0
	}
	const position = behind + 1
	return { current: position, total: Math.max(position, behind + ahead) }
}
