import { parameterName } from '@blocksmith/contracts/form-thanks.ts'
import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { type DraftValues, draftFromParam, hasAnswers, initialValues, restoreValues } from './fields/field-values.ts'

// What the public form keeps in this browser: the answers being typed with the key of this
// filling-in and where the visitor is (so a reload loses nothing and a retried submit counts
// once), this browser's respondent token, and what the page's address brings (prefill values, a
// portal member's identity).

const draftKeyPrefix = 'blocksmith.form-draft.'
/** A draft older than this is an abandoned visit, not work in progress. */
const draftMaxAgeMs = 30 * 24 * 60 * 60 * 1000
/** More steps than any form has (fields are at most a few hundred): a longer trail is damaged. */
const maxTrail = 500

export type Draft = {
	values: DraftValues
	idempotencyKey: string
	savedAt: number
	/**
	 * The screens the visitor went through, the current one last: page ids (classic) or question
	 * ids (one at a time). Back walks it; absent in drafts saved before pages existed.
	 */
	trail?: string[]
}

function readDraft(formId: string): Draft | null {
	try {
		const raw = window.localStorage.getItem(draftKeyPrefix + formId)
		const draft = raw ? (JSON.parse(raw) as Partial<Draft>) : null
		if (!draft || typeof draft.idempotencyKey !== 'string' || typeof draft.savedAt !== 'number') {
			return null
		}
		if (Date.now() - draft.savedAt > draftMaxAgeMs) {
			return null
		}
		const trail =
			Array.isArray(draft.trail) && draft.trail.length <= maxTrail
				? draft.trail.filter((step): step is string => typeof step === 'string')
				: []
		return { ...(draft as Draft), trail }
	} catch {
		// Storage blocked (privacy settings) or a damaged entry: start afresh.
		return null
	}
}

export function writeDraft(formId: string, draft: Draft | null): void {
	try {
		if (draft) {
			window.localStorage.setItem(draftKeyPrefix + formId, JSON.stringify(draft))
		} else {
			window.localStorage.removeItem(draftKeyPrefix + formId)
		}
	} catch {
		// As above: the answers then last as long as the page.
	}
}

const respondentKeyPrefix = 'blocksmith.form-respondent.'

/**
 * This browser's token for a form that takes one answer per browser: the same on every visit, so
 * the server can tell a second answer from this browser.
 */
export function respondentToken(formId: string): string {
	try {
		const saved = window.localStorage.getItem(respondentKeyPrefix + formId)
		if (saved && saved.length >= 16 && saved.length <= 100) {
			return saved
		}
		const token = newIdempotencyKey()
		window.localStorage.setItem(respondentKeyPrefix + formId, token)
		return token
	} catch {
		// Storage blocked: a token for this page only, so the answer is still taken.
		return newIdempotencyKey()
	}
}

/** A key per filled-in form: the server stores a submit once however often it is retried with it. */
export function newIdempotencyKey(): string {
	if (typeof crypto.randomUUID === 'function') {
		return crypto.randomUUID()
	}
	// randomUUID exists only on https and localhost; a plain-http install still gets a random key.
	return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

/**
 * The URL parameter that prefills a field. prefillParamOf of contracts/forms.ts says the same, but
 * importing forms.ts at run time would bring zod into the public page and over its size budget.
 */
function prefillParam(field: PublicField): string {
	return field.param || parameterName(field.label)
}

/** Values for the fields whose parameter is in the page's address, in their inputs' shapes. */
function valuesFromUrl(fields: PublicField[], search: string): DraftValues {
	const params = new URLSearchParams(search)
	const values: DraftValues = {}
	for (const field of fields) {
		const param = params.get(prefillParam(field))
		const value = param === null ? undefined : draftFromParam(field, param)
		if (value !== undefined) {
			values[field.id] = value
		}
	}
	return values
}

/**
 * A portal member's identity, when the form was opened from a client portal (`?portal=`): the
 * e-mail to prefill and the property the server links to them (its field is left out). Read
 * without a key, only to show; the server checks the token's signature when the answer comes.
 */
export type PortalIdentity = { token: string; email: string; lockedPropertyId: string | null }

export function portalIdentityFromUrl(search: string): PortalIdentity | null {
	const token = new URLSearchParams(search).get('portal')
	if (!token || token.length > 2000) {
		return null
	}
	try {
		const binary = atob((token.split('.')[0] ?? '').replace(/-/g, '+').replace(/_/g, '/'))
		const payload = JSON.parse(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))))
		return {
			token,
			email: typeof payload.e === 'string' ? payload.e : '',
			lockedPropertyId: typeof payload.l === 'string' ? payload.l : null,
		}
	} catch {
		return null
	}
}

/**
 * Where a visit starts: the draft kept from an earlier one (answers and the screens walked), the
 * link's prefill values and a portal member's e-mail; and the values to start over from.
 */
export function startingState(
	formId: string,
	questions: PublicField[],
	isLive: boolean,
	portal: PortalIdentity | null,
) {
	const draft = isLive ? readDraft(formId) : null
	const fromUrl = isLive ? valuesFromUrl(questions, window.location.search) : {}
	const values = draft ? restoreValues(questions, draft.values) : initialValues(questions)
	// What the visitor typed earlier wins over the link, except in hidden fields: those hold what
	// the link's owner tracks (a source, a campaign), which the visitor never saw or chose.
	for (const field of questions) {
		const value = fromUrl[field.id]
		if (value !== undefined && (!draft || field.hidden || !Object.hasOwn(draft.values ?? {}, field.id))) {
			values[field.id] = value
		}
	}
	// A portal member's e-mail goes into empty e-mail fields (they may change it).
	for (const field of questions) {
		if (portal?.email && field.kind === 'email' && !values[field.id]) {
			values[field.id] = portal.email
		}
	}
	const trail = draft?.trail ?? []
	return {
		values,
		trail,
		prefilled: { ...initialValues(questions), ...fromUrl },
		idempotencyKey: draft?.idempotencyKey ?? newIdempotencyKey(),
		isRestored: draft !== null && (hasAnswers(questions, values) || trail.length > 1),
	}
}
