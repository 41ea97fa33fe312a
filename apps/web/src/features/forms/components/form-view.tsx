import { evaluateLogic, visibleAnswers } from '@blocksmith/contracts/form-rules.ts'
import { fillPlaceholders, parameterName } from '@blocksmith/contracts/form-thanks.ts'
import type { PublicField, PublicForm } from '@blocksmith/contracts/forms.ts'
import type { WorkspaceUser } from '@blocksmith/contracts/workspaces.ts'
import {
	type FormEvent,
	lazy,
	type ReactNode,
	Suspense,
	useCallback,
	useEffect,
	useId,
	useMemo,
	useRef,
	useState,
} from 'react'
import {
	fetchPeople,
	fetchPublicForm,
	fetchRelationChoices,
	formScope,
	PublicApiError,
	type SubmitProgress,
	sendViewEvent,
	submitWithRetries,
} from '../public/public-api.ts'
import { CheckboxField, MultiChoiceField, SingleChoiceField } from './fields/choice-field.tsx'
import type { FieldProps, UploadFile } from './fields/field-frame.tsx'
import {
	browserTimeZone,
	collectAnswers,
	currentAnswers,
	type DraftValue,
	type DraftValues,
	draftFromParam,
	hasAnswers,
	initialValues,
	restoreValues,
} from './fields/field-values.ts'
import { type LoadChoices, ReferenceField } from './fields/reference-field.tsx'
import { TextField } from './fields/text-field.tsx'

export type { LoadChoices }

// File fields bring their uploader (and an MD5 library): only forms that have one load them.
const FilesField = lazy(() => import('./fields/files-field.tsx').then((m) => ({ default: m.FilesField })))

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

export type FormViewProps = {
	form: PublicForm
	/**
	 * live: the published page — sends answers (POST /api/submissions, retried, idempotent), counts
	 * the view and the start, keeps a draft in localStorage, reads people and relation choices.
	 * preview: the builder's — no network and no storage at all; submitting checks the answers and
	 * shows the confirmation.
	 */
	mode: 'live' | 'preview'
	/** Takes over sending in either mode. Throwing shows a generic failure with "Try again". */
	onSubmit?: (answers: FormAnswers) => Promise<FormSubmitOutcome>
	/**
	 * Choices of people and relation fields. Live default: the form's scoped public reads. Preview:
	 * none unless given. Keep it stable (useCallback): a new function reloads the choices.
	 */
	loadChoices?: LoadChoices
	/** live, password-protected form: the unlock token, sent with answers and choice reads. */
	unlockToken?: string | null
	/** live: the server asks for the password again (the unlock token expired). Answers stay in the draft. */
	onPasswordRequired?: () => void
	/** The title's heading level: 1 on its own page, 2 inside another page (the builder). */
	headingLevel?: 1 | 2
}

type Unavailable = { title: string; message: string | null }

type Phase =
	| { name: 'filling' }
	| { name: 'submitting'; progress: string | null }
	| { name: 'done'; message: string }
	| { name: 'unavailable'; notice: Unavailable }

const draftKeyPrefix = 'blocksmith.form-draft.'
/** A draft older than this is an abandoned visit, not work in progress. */
const draftMaxAgeMs = 30 * 24 * 60 * 60 * 1000

type Draft = { values: DraftValues; idempotencyKey: string; savedAt: number }

function readDraft(formId: string): Draft | null {
	try {
		const raw = window.localStorage.getItem(draftKeyPrefix + formId)
		const draft = raw ? (JSON.parse(raw) as Partial<Draft>) : null
		if (!draft || typeof draft.idempotencyKey !== 'string' || typeof draft.savedAt !== 'number') {
			return null
		}
		return Date.now() - draft.savedAt > draftMaxAgeMs ? null : (draft as Draft)
	} catch {
		// Storage blocked (privacy settings) or a damaged entry: start afresh.
		return null
	}
}

function writeDraft(formId: string, draft: Draft | null): void {
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
function respondentToken(formId: string): string {
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
type PortalIdentity = { token: string; email: string; lockedPropertyId: string | null }

function portalIdentityFromUrl(search: string): PortalIdentity | null {
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

/** A key per filled-in form: the server stores a submit once however often it is retried with it. */
function newIdempotencyKey(): string {
	if (typeof crypto.randomUUID === 'function') {
		return crypto.randomUUID()
	}
	// randomUUID exists only on https and localhost; a plain-http install still gets a random key.
	return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('')
}

function retryingMessage(progress: SubmitProgress): string {
	if (progress.kind === 'waiting') {
		return 'Almost there: sending in a moment…'
	}
	return `Connection problem. Trying again (attempt ${progress.attempt} of ${progress.attempts})…`
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

/** A problem's field errors (`answers.<fieldId>`) by field id, and the rest as one message. */
function splitFieldErrors(error: PublicApiError, fields: PublicField[]) {
	const fieldErrors: Record<string, string> = {}
	const other: string[] = []
	for (const { field, message } of error.fieldErrors) {
		const id = field.startsWith('answers.') ? field.slice('answers.'.length) : null
		if (id !== null && fields.some((candidate) => candidate.id === id)) {
			fieldErrors[id] ??= message
		} else {
			other.push(message)
		}
	}
	return { fieldErrors, message: other.length > 0 ? other.join(' ') : undefined }
}

function fieldComponent(field: PublicField, props: FieldProps, loadChoices: LoadChoices | undefined): ReactNode {
	switch (field.kind) {
		case 'select':
		case 'status':
			return <SingleChoiceField {...props} />
		case 'multi_select':
			return <MultiChoiceField {...props} />
		case 'checkbox':
			return <CheckboxField {...props} />
		case 'people':
		case 'relation':
			return <ReferenceField {...props} loadChoices={loadChoices} />
		case 'files':
			return (
				<Suspense fallback={<div className="h-24 rounded-md border border-input border-dashed" />}>
					<FilesField {...props} />
				</Suspense>
			)
		default:
			return <TextField {...props} />
	}
}

function Spinner() {
	return (
		<svg
			aria-hidden="true"
			viewBox="0 0 24 24"
			fill="none"
			stroke="currentColor"
			strokeWidth="2"
			strokeLinecap="round"
			className="size-4 shrink-0 animate-spin"
		>
			<path d="M21 12a9 9 0 1 1-6.219-8.56" />
		</svg>
	)
}

export const primaryButtonClasses =
	'inline-flex h-10 items-center justify-center gap-2 rounded-md bg-primary px-5 font-medium text-primary-foreground text-sm shadow-xs transition-colors hover:bg-primary-hover disabled:pointer-events-none disabled:opacity-60 aria-busy:cursor-progress'
const secondaryButtonClasses =
	'inline-flex h-10 items-center justify-center gap-2 rounded-md border border-input bg-background px-4 font-medium text-foreground text-sm shadow-xs transition-colors hover:bg-accent dark:bg-input/20'

/** A card around the form and its states, the same in the page and in the builder's preview. */
export function FormCard({ children }: { children: ReactNode }) {
	return (
		<div className="rounded-xl border bg-card px-5 py-6 text-card-foreground shadow-xs sm:px-8 sm:py-8">{children}</div>
	)
}

/** A state in place of the form: closed, deleted, not found, locked. */
export function FormNotice({
	title,
	message,
	headingLevel = 1,
	children,
}: {
	title: string
	message: string | null
	headingLevel?: 1 | 2
	children?: ReactNode
}) {
	const Heading = headingLevel === 1 ? 'h1' : 'h2'
	return (
		<FormCard>
			<div className="grid gap-2 text-center">
				<Heading className="font-semibold text-foreground text-lg">{title}</Heading>
				{message ? <p className="whitespace-pre-line text-muted-foreground text-sm">{message}</p> : null}
				{children}
			</div>
		</FormCard>
	)
}

/**
 * A published form, filled in and sent: every field kind, browser-side checks with the server's
 * field errors shown beside the fields, the focus on the first problem, and (live) a submit that
 * survives a flaky connection without losing answers or counting twice.
 */
export function FormView({
	form,
	mode,
	onSubmit,
	loadChoices,
	unlockToken = null,
	onPasswordRequired,
	headingLevel = 1,
}: FormViewProps) {
	const isLive = mode === 'live'
	const [portal] = useState(() => (isLive ? portalIdentityFromUrl(window.location.search) : null))
	// A portal member's link to their company is set by the server: its field is not shown or sent.
	const fields = useMemo(
		() =>
			(form.fields ?? []).filter((field) => !portal?.lockedPropertyId || field.propertyId !== portal.lockedPropertyId),
		[form.fields, portal],
	)
	const baseId = useId()
	const controlId = (index: number) => `${baseId}-f${index}`

	const [start] = useState(() => {
		const draft = isLive ? readDraft(form.id) : null
		const fromUrl = isLive ? valuesFromUrl(fields, window.location.search) : {}
		const values = draft ? restoreValues(fields, draft.values) : initialValues(fields)
		// What the visitor typed earlier wins over the link, except in hidden fields: those hold what
		// the link's owner tracks (a source, a campaign), which the visitor never saw or chose.
		for (const field of fields) {
			const value = fromUrl[field.id]
			if (value !== undefined && (!draft || field.hidden || !Object.hasOwn(draft.values ?? {}, field.id))) {
				values[field.id] = value
			}
		}
		// A portal member's e-mail goes into empty e-mail fields (they may change it).
		for (const field of fields) {
			if (portal?.email && field.kind === 'email' && !values[field.id]) {
				values[field.id] = portal.email
			}
		}
		return {
			values,
			prefilled: { ...initialValues(fields), ...fromUrl },
			idempotencyKey: draft?.idempotencyKey ?? newIdempotencyKey(),
			isRestored: draft !== null && hasAnswers(fields, values),
		}
	})
	const [values, setValues] = useState<DraftValues>(start.values)
	const [idempotencyKey, setIdempotencyKey] = useState(start.idempotencyKey)
	const [isRestored, setIsRestored] = useState(start.isRestored)
	const [errors, setErrors] = useState<Record<string, string>>({})
	const [formError, setFormError] = useState<{ message: string; canRetry: boolean } | null>(null)
	const [phase, setPhase] = useState<Phase>({ name: 'filling' })
	const [honeypot, setHoneypot] = useState('')
	/** File fields with uploads under way: the form waits for them. */
	const [busyFields, setBusyFields] = useState<ReadonlySet<string>>(() => new Set())
	const renderToken = useRef({ token: form.renderToken, receivedAt: Date.now() })
	const isViewSent = useRef(false)
	const isStartSent = useRef(false)
	const confirmationRef = useRef<HTMLDivElement>(null)

	const isOpen = form.acceptingResponses && form.fields !== null

	// Which fields show and which are required, worked out again on every change by the same rules
	// the server checks the answers with.
	const rules = form.logic && form.logic.length > 0 ? form.logic : null
	const logicStates = useMemo(
		() => (rules ? evaluateLogic(fields, rules, currentAnswers(fields, values)) : null),
		[fields, rules, values],
	)
	/** The fields shown, with `required` as the rules make it. */
	const shownFields = useMemo(
		() =>
			fields
				.map((field, index) => ({
					field: { ...field, required: logicStates?.[field.id]?.required ?? field.required },
					index,
				}))
				.filter(({ field }) => !field.hidden && (logicStates?.[field.id]?.visible ?? true)),
		[fields, logicStates],
	)

	useEffect(() => {
		renderToken.current = { token: form.renderToken, receivedAt: Date.now() }
	}, [form.renderToken])

	// One view per page load (a ref survives StrictMode's second effect run).
	useEffect(() => {
		if (isLive && isOpen && !isViewSent.current) {
			isViewSent.current = true
			sendViewEvent(form.id, 'view')
		}
	}, [isLive, isOpen, form.id])

	// Everything typed is kept on this device until it is sent, with the key of this filling-in,
	// so a reload (or a crash) loses nothing and a retry after it still counts once.
	useEffect(() => {
		if (isLive && (phase.name === 'filling' || phase.name === 'submitting')) {
			// Only what the visitor changed: values from the link alone come back with the link.
			const isChanged = fields.some(
				(field) => JSON.stringify(values[field.id]) !== JSON.stringify(start.prefilled[field.id]),
			)
			writeDraft(form.id, isChanged ? { values, idempotencyKey, savedAt: Date.now() } : null)
		}
	}, [isLive, form.id, fields, values, idempotencyKey, phase.name, start.prefilled])

	useEffect(() => {
		if (phase.name === 'done') {
			confirmationRef.current?.focus()
		}
	}, [phase.name])

	const liveLoader = useMemo<LoadChoices>(() => {
		const scope = formScope(form.id, unlockToken)
		let people: Promise<WorkspaceUser[]> | null = null
		return async (field, search, signal) => {
			if (field.kind === 'people') {
				// The people list is small and read once; searching it happens here.
				people ??= fetchPeople(form.tool, scope).catch((error: unknown) => {
					people = null
					throw error
				})
				const needle = search.trim().toLowerCase()
				return (await people)
					.filter((user) => user.type === 'person' && (!needle || user.name.toLowerCase().includes(needle)))
					.map((user) => ({ id: user.id, label: user.name }))
			}
			if (!field.relationDatabaseId) {
				return []
			}
			const [database] = await fetchRelationChoices(form.tool, scope, field.relationDatabaseId, search, signal)
			return (database?.rows ?? []).map((row) => ({ id: row.id, label: row.title || 'Untitled' }))
		}
	}, [form.id, form.tool, unlockToken])
	const choices = loadChoices ?? (isLive ? liveLoader : undefined)

	const uploaders = useMemo(() => {
		const byField = new Map<string, UploadFile>()
		for (const field of fields) {
			if (field.kind !== 'files') {
				continue
			}
			byField.set(
				field.id,
				isLive
					? async (file, onProgress, signal) => {
							const { uploadFormFile } = await import('../public/form-upload.ts')
							return uploadFormFile({ formId: form.id, fieldId: field.id, unlockToken }, file, onProgress, signal)
						}
					: // The preview sends nothing: the file is only listed.
						async (file) => ({
							blobId: `preview-${crypto.getRandomValues(new Uint32Array(2)).join('')}`,
							name: file.name,
						}),
			)
		}
		return byField
	}, [fields, isLive, form.id, unlockToken])

	const setBusy = useCallback((fieldId: string, isBusy: boolean) => {
		setBusyFields((current) => {
			if (current.has(fieldId) === isBusy) {
				return current
			}
			const next = new Set(current)
			if (isBusy) {
				next.add(fieldId)
			} else {
				next.delete(fieldId)
			}
			return next
		})
	}, [])
	const busyCallbacks = useMemo(
		() => new Map(fields.map((field) => [field.id, (isBusy: boolean) => setBusy(field.id, isBusy)])),
		[fields, setBusy],
	)

	const focusField = (fieldErrors: Record<string, string>) => {
		const shown = shownFields.find(({ field }) => fieldErrors[field.id])
		if (shown) {
			document.getElementById(controlId(shown.index))?.focus()
		}
	}

	const change = (fieldId: string, value: DraftValue) => {
		setValues((current) => ({ ...current, [fieldId]: value }))
		setErrors((current) => {
			if (!(fieldId in current)) {
				return current
			}
			const { [fieldId]: _fixed, ...rest } = current
			return rest
		})
		if (isLive && !isStartSent.current) {
			isStartSent.current = true
			sendViewEvent(form.id, 'start')
		}
	}

	const sendLive = async (answers: FormAnswers): Promise<FormSubmitOutcome> => {
		try {
			const result = await submitWithRetries(
				{
					formId: form.id,
					answers,
					idempotencyKey,
					renderToken: renderToken.current.token,
					...(unlockToken ? { unlockToken } : {}),
					...(form.oneResponsePer === 'browser' ? { respondentToken: respondentToken(form.id) } : {}),
					website: honeypot,
					...(portal ? { portalToken: portal.token } : {}),
				},
				{
					renderTokenReceivedAt: renderToken.current.receivedAt,
					refreshRenderToken: async () => {
						const fresh = await fetchPublicForm(form.id, unlockToken)
						renderToken.current = { token: fresh.renderToken, receivedAt: Date.now() }
						return fresh.renderToken
					},
					onProgress: (progress) => setPhase({ name: 'submitting', progress: retryingMessage(progress) }),
				},
			)
			return {
				status: 'submitted',
				confirmationMessage: result.confirmationMessage,
				redirectUrl: result.redirectUrl,
			}
		} catch (error) {
			if (error instanceof PublicApiError && error.code === 'VALIDATION_FAILED' && error.fieldErrors.length > 0) {
				const split = splitFieldErrors(
					error,
					shownFields.map(({ field }) => field),
				)
				return {
					status: 'invalid',
					fieldErrors: split.fieldErrors,
					...(split.message ? { message: split.message } : {}),
				}
			}
			throw error
		}
	}

	const failed = (error: unknown) => {
		setPhase({ name: 'filling' })
		if (!(error instanceof PublicApiError)) {
			setFormError({ message: "Your answers weren't sent. Try again.", canRetry: true })
			return
		}
		const notice = unavailableNotice(error)
		if (error.code === 'ALREADY_RESPONDED') {
			// Final: sending again cannot help, so the answers are not kept for it either.
			writeDraft(form.id, null)
			setPhase({ name: 'unavailable', notice: { title: form.pageTitle || form.name, message: error.detail } })
		} else if (notice) {
			setPhase({ name: 'unavailable', notice })
		} else if (error.code === 'PASSWORD_REQUIRED' || error.code === 'WRONG_PASSWORD') {
			if (onPasswordRequired) {
				onPasswordRequired()
			} else {
				setFormError({ message: error.detail, canRetry: false })
			}
		} else if (error.status === 429) {
			const wait = error.retryAfterSeconds
				? ` in ${Math.max(1, Math.ceil(error.retryAfterSeconds))} seconds`
				: ' in a minute'
			setFormError({ message: `Too many answers sent from your network. Try again${wait}.`, canRetry: true })
		} else if (error.isTransient) {
			setFormError({
				message:
					"We couldn't send your answers. Check your connection and try again. Your answers are kept on this device.",
				canRetry: true,
			})
		} else {
			setFormError({ message: error.detail, canRetry: true })
		}
	}

	const submit = async (event?: FormEvent) => {
		event?.preventDefault()
		if (phase.name === 'submitting') {
			return
		}
		setFormError(null)
		if (shownFields.some(({ field }) => busyFields.has(field.id))) {
			setFormError({ message: 'Wait for the files to finish uploading, then send.', canRetry: false })
			return
		}
		// Only the fields shown are checked; hidden ones (by the form or its rules) cannot be corrected.
		const checked = collectAnswers(
			shownFields.map(({ field }) => field),
			values,
		)
		if (Object.keys(checked.errors).length > 0) {
			setErrors(checked.errors)
			focusField(checked.errors)
			return
		}
		const withHidden = {
			...currentAnswers(
				fields.filter((field) => field.hidden),
				values,
			),
			...checked.answers,
		}
		const answers = rules ? visibleAnswers(fields, rules, withHidden) : withHidden
		setErrors({})
		setPhase({ name: 'submitting', progress: null })
		try {
			let outcome: FormSubmitOutcome
			if (onSubmit) {
				outcome = await onSubmit(answers)
			} else if (isLive) {
				outcome = await sendLive(answers)
			} else {
				outcome = { status: 'submitted' }
			}
			if (outcome.status === 'invalid') {
				setPhase({ name: 'filling' })
				setErrors(outcome.fieldErrors)
				if (outcome.message) {
					setFormError({ message: outcome.message, canRetry: false })
				}
				focusField(outcome.fieldErrors)
				return
			}
			if (isLive) {
				writeDraft(form.id, null)
			}
			setPhase({
				name: 'done',
				message: outcome.confirmationMessage ?? fillPlaceholders(form.confirmationMessage, fields, answers),
			})
			if (isLive && outcome.redirectUrl) {
				window.location.assign(outcome.redirectUrl)
			}
		} catch (error) {
			failed(error)
		}
	}

	const startAgain = () => {
		setValues(start.prefilled)
		setIdempotencyKey(newIdempotencyKey())
		setErrors({})
		setFormError(null)
		setIsRestored(false)
		setHoneypot('')
		setPhase({ name: 'filling' })
	}

	const Heading = headingLevel === 1 ? 'h1' : 'h2'
	const title = form.pageTitle || form.name

	if (!form.acceptingResponses) {
		return (
			<FormNotice
				title={`${title} is closed`}
				message={form.closedMessage || 'This form no longer accepts answers.'}
				headingLevel={headingLevel}
			/>
		)
	}
	if (phase.name === 'unavailable') {
		return <FormNotice {...phase.notice} headingLevel={headingLevel} />
	}
	if (form.fields === null) {
		return (
			<FormNotice
				title={title}
				message="This form is password-protected. Enter the password to open it."
				headingLevel={headingLevel}
			/>
		)
	}
	if (phase.name === 'done') {
		return (
			<FormCard>
				<div className="grid justify-items-center gap-4 py-4 text-center">
					<div className="flex size-11 items-center justify-center rounded-full bg-success/10 text-success">
						<svg
							aria-hidden="true"
							viewBox="0 0 24 24"
							fill="none"
							stroke="currentColor"
							strokeWidth="2.5"
							strokeLinecap="round"
							strokeLinejoin="round"
							className="size-5"
						>
							<path d="M20 6 9 17l-5-5" />
						</svg>
					</div>
					<Heading className="font-semibold text-foreground text-lg">{title}</Heading>
					<div
						ref={confirmationRef}
						tabIndex={-1}
						role="status"
						className="max-w-prose whitespace-pre-wrap break-words text-base text-foreground outline-hidden"
					>
						{phase.message}
					</div>
					{isLive ? null : <p className="text-[13px] text-muted-foreground">Preview: nothing was sent.</p>}
					{/* A step further from the message: it is the next action, not part of the message. */}
					<button type="button" className={`${secondaryButtonClasses} mt-2`} onClick={startAgain}>
						Submit another response
					</button>
				</div>
			</FormCard>
		)
	}

	const isSubmitting = phase.name === 'submitting'
	const invalidFields = shownFields
		.map(({ field, index }) => ({ field, index, message: errors[field.id] }))
		.filter((entry) => entry.message)
	const hasRequired = shownFields.some(({ field }) => field.required)
	const timeZone = browserTimeZone()

	return (
		<FormCard>
			<header className="grid gap-2">
				<Heading className="font-semibold text-foreground text-xl tracking-tight sm:text-2xl">{title}</Heading>
				{form.pageDescription ? (
					<p className="whitespace-pre-line text-muted-foreground text-sm">{form.pageDescription}</p>
				) : null}
				{hasRequired ? (
					<p className="text-[13px] text-muted-foreground">
						Fields marked with <span className="text-error">*</span> are required.
					</p>
				) : null}
			</header>
			{isRestored ? (
				<div
					role="status"
					className="mt-5 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-info/25 bg-info/5 px-4 py-2.5 text-sm"
				>
					<span>Your answers from earlier are back.</span>
					<button
						type="button"
						className="font-medium text-link underline-offset-4 hover:underline"
						onClick={startAgain}
					>
						Start over
					</button>
				</div>
			) : null}
			<form noValidate onSubmit={submit} className="mt-6 grid gap-6" aria-busy={isSubmitting || undefined}>
				{shownFields.map(({ field, index }) => (
					<div key={field.id}>
						{fieldComponent(
							field,
							{
								field,
								value: values[field.id] ?? '',
								onChange: (value) => change(field.id, value),
								error: errors[field.id],
								controlId: controlId(index),
								note: field.kind === 'date' && field.includeTime && timeZone ? `Time zone: ${timeZone}.` : undefined,
								upload: uploaders.get(field.id),
								onBusyChange: busyCallbacks.get(field.id),
							},
							choices,
						)}
					</div>
				))}
				{/* The honeypot: out of sight and out of the tab order, so only a bot fills it in. */}
				<div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
					<label htmlFor={`${baseId}-website`}>Website</label>
					<input
						id={`${baseId}-website`}
						type="text"
						name="website"
						tabIndex={-1}
						autoComplete="off"
						value={honeypot}
						onChange={(event) => setHoneypot(event.target.value)}
					/>
				</div>
				{invalidFields.length > 0 ? (
					<div role="alert" className="rounded-lg border border-error/25 bg-error/5 px-4 py-3 text-sm">
						<p className="font-medium text-foreground">
							{invalidFields.length === 1 ? 'Check this answer:' : `Check these ${invalidFields.length} answers:`}
						</p>
						<ul className="mt-1.5 grid list-disc gap-1 pl-5 text-muted-foreground">
							{invalidFields.map(({ field, index, message }) => (
								<li key={field.id}>
									<a
										href={`#${controlId(index)}`}
										className="text-link underline underline-offset-2"
										onClick={(event) => {
											event.preventDefault()
											document.getElementById(controlId(index))?.focus()
										}}
									>
										{field.label}
									</a>
									: {message}
								</li>
							))}
						</ul>
					</div>
				) : null}
				{formError ? (
					<div
						role="alert"
						className="flex flex-col gap-3 rounded-lg border border-error/25 bg-error/5 px-4 py-3 text-foreground text-sm sm:flex-row sm:items-center sm:justify-between"
					>
						<p>{formError.message}</p>
						{formError.canRetry ? (
							<button type="button" className={secondaryButtonClasses} onClick={() => void submit()}>
								Try again
							</button>
						) : null}
					</div>
				) : null}
				<div className="grid gap-2 sm:flex sm:items-center sm:gap-4">
					<button
						type="submit"
						className={`${primaryButtonClasses} w-full sm:w-auto`}
						disabled={isSubmitting}
						aria-busy={isSubmitting || undefined}
					>
						{isSubmitting ? <Spinner /> : null}
						{isSubmitting ? 'Sending…' : form.submitLabel || 'Submit'}
					</button>
					<p role="status" className="text-[13px] text-muted-foreground empty:hidden">
						{phase.name === 'submitting' ? phase.progress : null}
					</p>
				</div>
			</form>
		</FormCard>
	)
}
