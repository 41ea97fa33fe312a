import type { PublicField } from '@blocksmith/contracts/forms.ts'
import type { KeyboardEvent } from 'react'
import type { DraftValue } from './fields/field-values.ts'
import { scaleRangeOf } from './fields/kind-values.ts'

// One question at a time, Typeform's way: the keys that answer and move without a mouse. Enter
// goes on (Shift+Enter is a new line in a long answer), ↑ and ↓ move back and on, letters pick
// the choices (A is the first) and digits the points of a rating, scale or NPS. Letters, digits
// and arrows only act where they cannot be typing: never in a text box, a list or a date.

/** Inputs whose keys belong to them (typing, a list's own keys), so the screen leaves them alone. */
const typedInputTypes = new Set([
	'text',
	'email',
	'url',
	'tel',
	'number',
	'search',
	'password',
	'date',
	'datetime-local',
	'time',
])

function isTyping(target: HTMLElement): boolean {
	if (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') {
		return true
	}
	return target instanceof HTMLInputElement && typedInputTypes.has(target.type)
}

/** Kinds answered by a letter per choice. */
const lettered: ReadonlySet<string> = new Set(['select', 'status', 'multi_select', 'checkbox'])
/** Kinds answered by a number key. */
const numbered: ReadonlySet<string> = new Set(['rating', 'scale', 'nps'])

/** The letter that picks the choice at `index` (A for the first). */
function choiceLetter(index: number): string {
	return String.fromCharCode(65 + index)
}

/**
 * The words under a question that say which keys answer it, or null when none do.
 * @public loaded lazily by form-loaders.ts, which knip does not follow.
 */
export function keyHint(field: PublicField | undefined): string | null {
	if (!field) {
		return null
	}
	if (lettered.has(field.kind)) {
		const count = field.kind === 'checkbox' ? 1 : (field.options?.length ?? 0)
		if (count === 0 || count > 26) {
			return null
		}
		return count === 1 ? 'Press A to choose.' : `Press A to ${choiceLetter(count - 1)} to choose.`
	}
	if (numbered.has(field.kind)) {
		const { min, max } = scaleRangeOf(field)
		return max === 10 ? `Press ${min} to 9, or 1 then 0 for 10.` : `Press ${min} to ${max} to choose.`
	}
	return null
}

type ScreenKeys = {
	/** The question on the screen, if any. */
	question: PublicField | undefined
	value: DraftValue | undefined
	onChange: (value: DraftValue) => void
	onNext: () => void
	onBack: (() => void) | null
	/** Where focus goes on Escape: out of a text box, so the arrows and letters work again. */
	screen: HTMLElement | null
}

/** Two digits typed this close together make one number (1 then 0: ten). */
const digitPairMs = 800
let lastDigit: { digit: number; at: number } | null = null

function pickByLetter(keys: ScreenKeys, index: number): boolean {
	const { question, value, onChange } = keys
	if (!question) {
		return false
	}
	if (question.kind === 'checkbox') {
		if (index !== 0) {
			return false
		}
		onChange(value !== true)
		return true
	}
	const options = question.options ?? []
	const option = options[index]
	if (option === undefined) {
		return false
	}
	if (question.kind === 'multi_select') {
		const chosen = Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
		// Kept in the options' order, as the checkboxes keep it.
		onChange(
			options.filter((candidate) => (candidate === option ? !chosen.includes(option) : chosen.includes(candidate))),
		)
	} else {
		onChange(option)
		// The focus goes to the chosen radio, as a click puts it, so the arrows move on from there.
		keys.screen?.querySelectorAll<HTMLInputElement>('input[type="radio"]')[index]?.focus()
	}
	return true
}

function pickByDigit(keys: ScreenKeys, digit: number, now: number): boolean {
	const { question, onChange } = keys
	if (!question) {
		return false
	}
	const { min, max } = scaleRangeOf(question)
	let points = digit
	if (max === 10 && digit === 0 && lastDigit?.digit === 1 && now - lastDigit.at < digitPairMs) {
		points = 10
	}
	lastDigit = { digit, at: now }
	if (points < min || points > max) {
		return false
	}
	onChange(String(points))
	// As after a letter: the arrows go on from the chosen point, not from where the focus was.
	keys.screen?.querySelector<HTMLInputElement>(`input[type="radio"][value="${points}"]`)?.focus()
	return true
}

/**
 * The screen's keys: call from the form's onKeyDown; it prevents the default of what it handles.
 * @public loaded lazily by form-loaders.ts, which knip does not follow.
 */
export function handleScreenKey(event: KeyboardEvent<HTMLElement>, keys: ScreenKeys): void {
	const target = event.target as HTMLElement
	if (event.defaultPrevented || event.nativeEvent.isComposing || event.ctrlKey || event.metaKey || event.altKey) {
		return
	}
	const isButton = target.tagName === 'BUTTON' || target.tagName === 'A'
	if (event.key === 'Enter') {
		// A button does its own thing; a long answer takes Shift+Enter as a new line.
		if (isButton || (event.shiftKey && target.tagName === 'TEXTAREA')) {
			return
		}
		event.preventDefault()
		keys.onNext()
		return
	}
	if (event.key === 'Escape') {
		if (isTyping(target) && keys.screen) {
			keys.screen.focus()
		}
		return
	}
	if (isTyping(target) || event.shiftKey) {
		return
	}
	// Radios move between their options with the arrows: theirs, not the screen's.
	const isRadio = target instanceof HTMLInputElement && target.type === 'radio'
	if (event.key === 'ArrowDown' && !isRadio) {
		event.preventDefault()
		keys.onNext()
		return
	}
	if (event.key === 'ArrowUp' && !isRadio) {
		event.preventDefault()
		keys.onBack?.()
		return
	}
	const question = keys.question
	if (question && lettered.has(question.kind) && /^[a-z]$/i.test(event.key)) {
		if (pickByLetter(keys, event.key.toLowerCase().charCodeAt(0) - 97)) {
			event.preventDefault()
		}
		return
	}
	if (question && numbered.has(question.kind) && /^\d$/.test(event.key)) {
		if (pickByDigit(keys, Number(event.key), event.timeStamp || Date.now())) {
			event.preventDefault()
		}
	}
}
