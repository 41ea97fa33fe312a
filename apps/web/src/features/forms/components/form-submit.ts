import type { PublicForm } from '@blocksmith/contracts/forms.ts'
import { fetchPublicForm, PublicApiError, type SubmitProgress, submitWithRetries } from '../public/public-api.ts'
import { type PortalIdentity, respondentToken } from './form-draft.ts'

// Sending a filled-in form from the public page, and what each way it can go wrong tells the
// visitor. The form view (form-view.tsx) decides what to show; this says it.

/** Answers keyed by field id, in the row value shapes of workspaces.ts. */
export type FormAnswers = Record<string, unknown>

/** What a submit came to: stored (with the message to show), or answers to correct. */
export type FormSubmitOutcome =
	| {
			status: 'submitted'
			/** With the answers put in; without it, the form's message is filled in here. */
			confirmationMessage?: string
			/** live: where to send the visitor instead of showing the message. */
			redirectUrl?: string | null
	  }
	| {
			status: 'invalid'
			/** Messages keyed by field id, shown beside the fields. */
			fieldErrors: Record<string, string>
			/** Anything no field can show. */
			message?: string
	  }

export type Unavailable = { title: string; message: string | null }

/** What a failed submit leaves the visitor with: a notice instead of the form, or a message in it. */
export type Failure =
	| { kind: 'notice'; notice: Unavailable; forgetDraft: boolean }
	| { kind: 'password' }
	| { kind: 'message'; message: string; canRetry: boolean }

export type RenderToken = { token: string; receivedAt: number }

export type LiveSubmit = {
	form: PublicForm
	answers: FormAnswers
	idempotencyKey: string
	/** Kept by the view: a fresh one fetched here replaces it for the next try. */
	renderToken: { current: RenderToken }
	unlockToken: string | null
	honeypot: string
	portal: PortalIdentity | null
	/** The ids of the fields the visitor can see and correct; other field errors become the message. */
	shownFieldIds: ReadonlySet<string>
	onProgress: (message: string) => void
}

function retryingMessage(progress: SubmitProgress): string {
	if (progress.kind === 'waiting') {
		return 'Almost there: sending in a moment…'
	}
	return `Connection problem. Trying again (attempt ${progress.attempt} of ${progress.attempts})…`
}

/** A problem's field errors (`answers.<fieldId>`) by field id, and the rest as one message. */
function splitFieldErrors(error: PublicApiError, shownFieldIds: ReadonlySet<string>) {
	const fieldErrors: Record<string, string> = {}
	const other: string[] = []
	for (const { field, message } of error.fieldErrors) {
		const id = field.startsWith('answers.') ? field.slice('answers.'.length) : null
		if (id !== null && shownFieldIds.has(id)) {
			fieldErrors[id] ??= message
		} else {
			other.push(message)
		}
	}
	return { fieldErrors, message: other.length > 0 ? other.join(' ') : undefined }
}

/** POST /api/submissions, retried with the same key (it counts once), with a fresh render token if needed. */
export async function sendLive(submit: LiveSubmit): Promise<FormSubmitOutcome> {
	const { form, unlockToken, portal, renderToken } = submit
	try {
		const result = await submitWithRetries(
			{
				formId: form.id,
				answers: submit.answers,
				idempotencyKey: submit.idempotencyKey,
				renderToken: renderToken.current.token,
				...(unlockToken ? { unlockToken } : {}),
				...(form.oneResponsePer === 'browser' ? { respondentToken: respondentToken(form.id) } : {}),
				website: submit.honeypot,
				...(portal ? { portalToken: portal.token } : {}),
			},
			{
				renderTokenReceivedAt: renderToken.current.receivedAt,
				refreshRenderToken: async () => {
					const fresh = await fetchPublicForm(form.id, unlockToken)
					renderToken.current = { token: fresh.renderToken, receivedAt: Date.now() }
					return fresh.renderToken
				},
				onProgress: (progress) => submit.onProgress(retryingMessage(progress)),
			},
		)
		return { status: 'submitted', confirmationMessage: result.confirmationMessage, redirectUrl: result.redirectUrl }
	} catch (error) {
		if (error instanceof PublicApiError && error.code === 'VALIDATION_FAILED' && error.fieldErrors.length > 0) {
			const split = splitFieldErrors(error, submit.shownFieldIds)
			return { status: 'invalid', fieldErrors: split.fieldErrors, ...(split.message ? { message: split.message } : {}) }
		}
		throw error
	}
}

function unavailableNotice(error: PublicApiError): Unavailable | null {
	// As the public page says it (form-page.tsx): neutral, nothing about the owner's billing.
	if (error.code === 'UNAVAILABLE') {
		return { title: 'This form is unavailable right now.', message: null }
	}
	if (error.code === 'FORM_CLOSED') {
		return { title: 'This form is closed', message: error.detail }
	}
	if (error.status === 410) {
		return { title: 'This form was deleted', message: error.detail }
	}
	if (error.status === 404) {
		return { title: "This form isn't available", message: error.detail }
	}
	return null
}

/** What a submit that threw tells the visitor; `title` names the form for a final notice. */
export function failureOf(error: unknown, title: string): Failure {
	if (!(error instanceof PublicApiError)) {
		return { kind: 'message', message: "Your answers weren't sent. Try again.", canRetry: true }
	}
	const notice = unavailableNotice(error)
	if (error.code === 'ALREADY_RESPONDED') {
		// Final: sending again cannot help, so the answers are not kept for it either.
		return { kind: 'notice', notice: { title, message: error.detail }, forgetDraft: true }
	}
	if (notice) {
		return { kind: 'notice', notice, forgetDraft: false }
	}
	if (error.code === 'PASSWORD_REQUIRED' || error.code === 'WRONG_PASSWORD') {
		return { kind: 'password' }
	}
	if (error.status === 429) {
		const wait = error.retryAfterSeconds
			? ` in ${Math.max(1, Math.ceil(error.retryAfterSeconds))} seconds`
			: ' in a minute'
		return { kind: 'message', message: `Too many answers sent from your network. Try again${wait}.`, canRetry: true }
	}
	if (error.isTransient) {
		return {
			kind: 'message',
			message:
				"We couldn't send your answers. Check your connection and try again. Your answers are kept on this device.",
			canRetry: true,
		}
	}
	return { kind: 'message', message: error.detail, canRetry: true }
}

/** A password failure without a way to ask again (the builder's preview): its words as a message. */
export function passwordMessage(error: unknown): string {
	return error instanceof PublicApiError ? error.detail : 'Enter the password again.'
}
