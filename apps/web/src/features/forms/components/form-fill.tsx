import { isContent } from '@blocksmith/contracts/form-pages.ts'
import { fillPlaceholders } from '@blocksmith/contracts/form-thanks.ts'
import type { PublicField, PublicForm } from '@blocksmith/contracts/forms.ts'
import { type FormEvent, lazy, Suspense, useEffect, useId, useMemo, useRef, useState } from 'react'
import { sendViewEvent } from '../public/public-api.ts'
import { useReach } from '../public/reach.ts'
import { calculatedValue } from './fields/calculated-field.tsx'
import { ContentBlock, fieldComponent } from './fields/field-component.tsx'
import {
	browserTimeZone,
	collectAnswers,
	currentAnswers,
	type DraftValue,
	type DraftValues,
} from './fields/field-values.ts'
import type { LoadChoices } from './fields/reference-field.tsx'
import { newIdempotencyKey, portalIdentityFromUrl, startingState, writeDraft } from './form-draft.ts'
import type { Engine } from './form-engine.ts'
import { buildFlow, progressOf, resolveTrail, type Screen } from './form-flow.ts'
import { useBusyFields, useChoiceLoader, useKeys, useUploaders } from './form-loaders.ts'
import { FormCard, FormNotice } from './form-parts.tsx'
import { FormScreen } from './form-screen.tsx'
import type { FormAnswers, FormSubmitOutcome, RenderToken, Unavailable } from './form-submit.ts'

// Sending (with its retries and messages) and the keys of one question at a time load apart from
// the page, which has a budget of 100 KB: sending once the visitor starts answering, the keys only
// for forms shown one question at a time.
const loadSending = () =>
	Promise.all([import('./form-submit.ts'), import('./form-confirmation.tsx')]).then(([sending]) => sending)
type Sending = Awaited<ReturnType<typeof loadSending>>
const Confirmation = lazy(() => import('./form-confirmation.tsx').then((m) => ({ default: m.Confirmation })))

export type FormViewProps = {
	form: PublicForm
	/**
	 * live: the published page — sends answers (POST /api/submissions, retried, idempotent), counts
	 * the view, the start and the steps reached, keeps a draft in localStorage, reads people and
	 * relation choices. preview: the builder's — no network and no storage at all; submitting
	 * checks the answers and shows the confirmation.
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

const connectionLost =
	"We couldn't send your answers. Check your connection and try again. Your answers are kept on this device."

type Phase =
	| { name: 'filling' }
	| { name: 'submitting'; progress: string | null }
	| { name: 'done'; message: string }
	| { name: 'unavailable'; notice: Unavailable }

/** The form being filled in, page by page or question by question, and sent (see FormView). */
export function FormFill({
	engine,
	form,
	mode,
	onSubmit,
	loadChoices,
	unlockToken = null,
	onPasswordRequired,
	headingLevel = 1,
}: FormViewProps & { engine: Engine }) {
	const isLive = mode === 'live'
	const display = form.layout?.display ?? 'classic'
	const isOneAtATime = display === 'one_at_a_time'
	const [portal] = useState(() => (isLive ? portalIdentityFromUrl(window.location.search) : null))
	// A portal member's link to their company is set by the server: its field is not shown or sent.
	const fields = useMemo(
		() =>
			(form.fields ?? []).filter((field) => !portal?.lockedPropertyId || field.propertyId !== portal.lockedPropertyId),
		[form.fields, portal],
	)
	const questions = useMemo(() => fields.filter((field) => !isContent(field.kind)), [fields])
	const indexOf = useMemo(() => new Map(fields.map((field, index) => [field.id, index])), [fields])
	const baseId = useId()
	const controlId = (fieldId: string) => `${baseId}-f${indexOf.get(fieldId) ?? 0}`

	const [start] = useState(() => startingState(form.id, questions, isLive, portal))
	const [values, setValues] = useState<DraftValues>(start.values)
	const [trailIds, setTrailIds] = useState<string[]>(start.trail)
	const [idempotencyKey, setIdempotencyKey] = useState(start.idempotencyKey)
	const [isRestored, setIsRestored] = useState(start.isRestored)
	const [errors, setErrors] = useState<Record<string, string>>({})
	const [formError, setFormError] = useState<{ message: string; canRetry: boolean } | null>(null)
	const [phase, setPhase] = useState<Phase>({ name: 'filling' })
	const [honeypot, setHoneypot] = useState('')
	const renderToken = useRef<RenderToken>({ token: form.renderToken, receivedAt: Date.now() })
	const isViewSent = useRef(false)
	const isStartSent = useRef(false)
	const titleRef = useRef<HTMLHeadingElement>(null)
	const pageHeadingRef = useRef<HTMLHeadingElement>(null)
	const screenRef = useRef<HTMLFormElement>(null)
	/** After a move, where the focus goes once the new screen is drawn: a control, or the screen's heading. */
	const pendingFocus = useRef<string | 'heading' | null>(null)

	const isOpen = form.acceptingResponses && form.fields !== null

	const keys = useKeys(isOneAtATime)

	// Which fields show, which are required and which pages the path takes, worked out again on
	// every change by the same rules the server checks the answers with.
	const rules = useMemo(() => form.logic ?? [], [form.logic])
	const answersNow = useMemo(() => currentAnswers(questions, values), [questions, values])
	const flow = useMemo(
		() => buildFlow(engine, fields, rules, answersNow, display),
		[engine, fields, rules, answersNow, display],
	)
	const trail = useMemo(() => resolveTrail(flow, trailIds), [flow, trailIds])
	const screen = trail.at(-1) ?? flow.first
	const next = useMemo(() => flow.next(screen), [flow, screen])
	const isLastScreen = !('screen' in next)
	const progress = useMemo(() => progressOf(flow, trail, display), [flow, trail, display])

	/** A field as shown: with `required` as the rules make it. */
	const byId = useMemo(() => new Map(fields.map((field) => [field.id, field])), [fields])
	const shown = (fieldId: string) => {
		const field = byId.get(fieldId)
		return field ? { ...field, required: flow.evaluation.fields[fieldId]?.required ?? field.required } : undefined
	}
	const screenFields = screen.fieldIds.map(shown).filter((field) => field !== undefined)
	const screenQuestions = screenFields.filter((field) => !isContent(field.kind))
	/** The questions on the path the answers take, shown ones only: what is checked and sent. */
	const pathQuestions = () =>
		questions
			.filter((field) => !field.hidden && flow.evaluation.fields[field.id]?.visible)
			.map((field) => shown(field.id))
			.filter((field) => field !== undefined)

	// Drop-off: the steps reached, once each (live only).
	const reporter = useReach(isLive ? form.id : null, screen, isOneAtATime, phase.name === 'filling' && isOpen)

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

	// Everything typed, and where the visitor is, is kept on this device until it is sent, with the
	// key of this filling-in, so a reload (or a crash) loses nothing and a retry after it still counts once.
	const savedTrail = useMemo(() => trail.map((step) => step.id), [trail])
	useEffect(() => {
		if (isLive && (phase.name === 'filling' || phase.name === 'submitting')) {
			// Only what the visitor changed: values from the link alone come back with the link.
			const isChanged =
				savedTrail.length > 1 ||
				questions.some((field) => JSON.stringify(values[field.id]) !== JSON.stringify(start.prefilled[field.id]))
			writeDraft(form.id, isChanged ? { values, idempotencyKey, savedAt: Date.now(), trail: savedTrail } : null)
		}
	}, [isLive, form.id, questions, values, idempotencyKey, phase.name, start.prefilled, savedTrail])

	// After a move: the new screen's heading (classic) or its question (one at a time) takes the focus.
	// biome-ignore lint/correctness/useExhaustiveDependencies: runs when the screen changes, reading the refs then
	useEffect(() => {
		const target = pendingFocus.current
		pendingFocus.current = null
		if (target === 'heading') {
			;(pageHeadingRef.current ?? titleRef.current)?.focus()
		} else if (target) {
			document.getElementById(target)?.focus()
		}
	}, [screen.id, errors])

	const choices = useChoiceLoader(form, isLive, unlockToken, loadChoices)
	const uploaders = useUploaders(fields, isLive, form.id, unlockToken)
	/** File fields with uploads under way: the form waits for them. */
	const { busyFields, busyCallbacks } = useBusyFields(fields)

	/** Moves to the screen with the first of these errors (back along the trail) and focuses it. */
	const showErrors = (fieldErrors: Record<string, string>) => {
		setErrors(fieldErrors)
		const first = fields.find((field) => fieldErrors[field.id])
		if (!first) {
			return
		}
		const at = trail.findIndex((step) => step.fieldIds.includes(first.id))
		if (at >= 0 && at < trail.length - 1) {
			setTrailIds(trail.slice(0, at + 1).map((step) => step.id))
		}
		pendingFocus.current = controlId(first.id)
		// Already on its screen: nothing changes but the errors, which the effect above also follows.
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
		reporter?.reach(fieldId)
		if (!isStartSent.current) {
			// Fetched now, so that a connection lost later still finds it for the retries.
			void loadSending().catch(() => {})
		}
		if (isLive && !isStartSent.current) {
			isStartSent.current = true
			sendViewEvent(form.id, 'start')
		}
	}

	const waitsForUploads = (checked: readonly { id: string }[]) => {
		if (checked.some((field) => busyFields.has(field.id))) {
			setFormError({ message: 'Wait for the files to finish uploading, then send.', canRetry: false })
			return true
		}
		return false
	}

	const goTo = (target: Screen, trailNow: readonly Screen[]) => {
		setTrailIds([...trailNow.map((step) => step.id), target.id])
		pendingFocus.current = isOneAtATime ? firstControlOf(target) : 'heading'
	}

	const firstControlOf = (target: Screen) => {
		const question = target.fieldIds.map((id) => byId.get(id)).find((field) => field && !isContent(field.kind))
		return question ? controlId(question.id) : 'heading'
	}

	/** Next: the screen's own answers checked (no more), then where the rules lead. */
	const goNext = () => {
		if (isLastScreen) {
			void submit()
			return
		}
		setFormError(null)
		if (waitsForUploads(screenQuestions)) {
			return
		}
		const checked = collectAnswers(screenQuestions, values)
		if (Object.keys(checked.errors).length > 0) {
			showErrors(checked.errors)
			return
		}
		setErrors({})
		if ('screen' in next) {
			goTo(next.screen, trail)
		}
	}

	const goBack =
		trail.length > 1
			? () => {
					setFormError(null)
					setErrors({})
					const back = trail.slice(0, -1)
					setTrailIds(back.map((step) => step.id))
					const previous = back.at(-1)
					pendingFocus.current = previous && isOneAtATime ? firstControlOf(previous) : 'heading'
				}
			: null

	const submit = async (event?: FormEvent) => {
		event?.preventDefault()
		if (phase.name === 'submitting') {
			return
		}
		if (event && !isLastScreen) {
			goNext()
			return
		}
		setFormError(null)
		// Only the questions shown on the path are checked; hidden and skipped ones cannot be corrected.
		const checkedFields = pathQuestions()
		if (waitsForUploads(checkedFields)) {
			return
		}
		const checked = collectAnswers(checkedFields, values)
		if (Object.keys(checked.errors).length > 0) {
			showErrors(checked.errors)
			return
		}
		const withHidden = {
			...currentAnswers(
				questions.filter((field) => field.hidden),
				values,
			),
			...checked.answers,
		}
		// Drops what the path skips and puts in the calculated values, as the server will.
		const answers = engine.visibleAnswers(fields, rules, withHidden)
		setErrors({})
		setPhase({ name: 'submitting', progress: null })
		let sending: Sending
		try {
			sending = await loadSending()
		} catch {
			setPhase({ name: 'filling' })
			setFormError({ message: connectionLost, canRetry: true })
			return
		}
		try {
			let outcome: FormSubmitOutcome
			if (onSubmit) {
				outcome = await onSubmit(answers)
			} else if (isLive) {
				outcome = await sending.sendLive({
					form,
					answers,
					idempotencyKey,
					renderToken,
					unlockToken,
					honeypot,
					portal,
					shownFieldIds: new Set(checkedFields.map((field) => field.id)),
					onProgress: (message) => setPhase({ name: 'submitting', progress: message }),
				})
			} else {
				outcome = { status: 'submitted' }
			}
			if (outcome.status === 'invalid') {
				setPhase({ name: 'filling' })
				if (outcome.message) {
					setFormError({ message: outcome.message, canRetry: false })
				}
				showErrors(outcome.fieldErrors)
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
			setPhase({ name: 'filling' })
			const failure = sending.failureOf(error, form.pageTitle || form.name)
			if (failure.kind === 'notice') {
				if (failure.forgetDraft) {
					writeDraft(form.id, null)
				}
				setPhase({ name: 'unavailable', notice: failure.notice })
			} else if (failure.kind === 'password') {
				if (onPasswordRequired) {
					onPasswordRequired()
				} else {
					setFormError({ message: sending.passwordMessage(error), canRetry: false })
				}
			} else {
				setFormError({ message: failure.message, canRetry: failure.canRetry })
			}
		}
	}

	const startAgain = () => {
		setValues(start.prefilled)
		setTrailIds([])
		setIdempotencyKey(newIdempotencyKey())
		setErrors({})
		setFormError(null)
		setIsRestored(false)
		setHoneypot('')
		setPhase({ name: 'filling' })
	}

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
			<Suspense fallback={<FormCard>{null}</FormCard>}>
				<Confirmation
					title={title}
					message={phase.message}
					headingLevel={headingLevel}
					isPreview={!isLive}
					onStartAgain={startAgain}
				/>
			</Suspense>
		)
	}

	const isSubmitting = phase.name === 'submitting'
	const timeZone = browserTimeZone()
	// The page break that starts this page (or titles the first one) names it.
	const pageBreak = flow.pages
		.find((page) => page.id === screen.pageId)
		?.fieldIds.map((id) => byId.get(id))
		.find((field) => field?.kind === 'page_break')
	const pageTitle = !isOneAtATime && pageBreak ? pageBreak.label : null
	const question = screenQuestions[0]
	const unit = isOneAtATime ? 'Question' : 'Page'
	const hasProgress = progress.total > 1

	const renderItem = (field: PublicField) =>
		isContent(field.kind) ? (
			<ContentBlock field={field} headingLevel={headingLevel === 1 ? 2 : 3} />
		) : (
			fieldComponent(
				field,
				{
					field,
					// A calculated field shows what the rules module worked out, never a typed value.
					value:
						field.kind === 'calculated'
							? calculatedValue(flow.evaluation.calculated[field.id])
							: (values[field.id] ?? ''),
					onChange: (value) => change(field.id, value),
					error: errors[field.id],
					controlId: controlId(field.id),
					note: field.kind === 'date' && field.includeTime && timeZone ? `Time zone: ${timeZone}.` : undefined,
					upload: uploaders.get(field.id),
					onBusyChange: busyCallbacks.get(field.id),
				},
				choices,
			)
		)

	return (
		<FormScreen
			title={title}
			headingLevel={headingLevel}
			description={trail.length <= 1 ? form.pageDescription : null}
			hasRequired={!isOneAtATime && screenQuestions.some((field) => field.required)}
			progress={form.layout?.showProgress !== false && hasProgress ? { ...progress, unit } : null}
			announcement={
				trail.length > 1 && hasProgress
					? `${unit} ${progress.current} of ${progress.total}${pageTitle ? `: ${pageTitle}` : ''}`
					: ''
			}
			isRestored={isRestored}
			onStartOver={startAgain}
			pageTitle={pageTitle}
			items={screenFields}
			renderItem={renderItem}
			hint={keys?.keyHint(question) ?? null}
			hasKeys={keys !== null}
			isOneAtATime={isOneAtATime}
			honeypot={{ id: `${baseId}-website`, value: honeypot, onChange: setHoneypot }}
			invalidFields={screenQuestions
				.filter((field) => errors[field.id])
				.map((field) => ({
					fieldId: field.id,
					label: field.label,
					controlId: controlId(field.id),
					message: errors[field.id] ?? '',
				}))}
			formError={
				formError ? { message: formError.message, onRetry: formError.canRetry ? () => void submit() : null } : null
			}
			onBack={goBack}
			isLast={isLastScreen}
			submitLabel={form.submitLabel || 'Submit'}
			isSubmitting={isSubmitting}
			submittingProgress={phase.name === 'submitting' ? phase.progress : null}
			onSubmit={submit}
			onKeyDown={
				keys
					? (event) =>
							keys.handleScreenKey(event, {
								question,
								value: question ? values[question.id] : undefined,
								onChange: (value) => question && change(question.id, value),
								onNext: goNext,
								onBack: goBack,
								screen: screenRef.current,
							})
					: undefined
			}
			onFieldFocus={(fieldId) => reporter?.reach(fieldId)}
			titleRef={titleRef}
			pageHeadingRef={pageHeadingRef}
			screenRef={screenRef}
		/>
	)
}
