import type { PublicField } from '@blocksmith/contracts/forms.ts'
import type { FormEvent, KeyboardEvent, ReactNode, RefObject } from 'react'
import {
	ErrorSummary,
	FormCard,
	FormError,
	Honeypot,
	primaryButtonClasses,
	RestoredNotice,
	Spinner,
	secondaryButtonClasses,
} from './form-parts.tsx'
import { FormProgress } from './form-progress.tsx'

// One screen of the form being filled in: the title, the progress, the page's heading, its items,
// the answers to check and the buttons (Back, and Next, OK or Submit). form-view.tsx decides what
// is on it and what the buttons do.

// Large type for one question at a time: its label, legend or group name at the size of a title.
const oneAtATimeClasses =
	'min-h-48 content-center text-base [&_label]:text-base sm:[&_label]:text-lg [&_legend]:text-base sm:[&_legend]:text-lg [&_[role=radiogroup]>div:first-child]:text-base sm:[&_[role=radiogroup]>div:first-child]:text-lg'

export type FormScreenProps = {
	title: string
	headingLevel: 1 | 2
	description: string | null
	hasRequired: boolean
	progress: { current: number; total: number; unit: 'Page' | 'Question' } | null
	/** Said to screen readers after a move ("Page 2 of 3: About you"). */
	announcement: string
	isRestored: boolean
	onStartOver: () => void
	/** The page break's label, as the page's heading. */
	pageTitle: string | null
	items: PublicField[]
	renderItem: (field: PublicField) => ReactNode
	/** One at a time: the keys that answer the question. */
	hint: string | null
	isOneAtATime: boolean
	/** The keys of one question at a time work (they load apart): "or press Enter" shows. */
	hasKeys: boolean
	honeypot: { id: string; value: string; onChange: (value: string) => void }
	invalidFields: { fieldId: string; label: string; controlId: string; message: string }[]
	formError: { message: string; onRetry: (() => void) | null } | null
	onBack: (() => void) | null
	/** The last screen on the path: its button sends. */
	isLast: boolean
	submitLabel: string
	isSubmitting: boolean
	submittingProgress: string | null
	onSubmit: (event: FormEvent) => void
	onKeyDown?: ((event: KeyboardEvent<HTMLFormElement>) => void) | undefined
	/** A question on the screen took the focus. */
	onFieldFocus: (fieldId: string) => void
	titleRef: RefObject<HTMLHeadingElement | null>
	pageHeadingRef: RefObject<HTMLHeadingElement | null>
	screenRef: RefObject<HTMLFormElement | null>
}

export function FormScreen(props: FormScreenProps) {
	const { progress, isOneAtATime, onBack, isSubmitting } = props
	const Heading = props.headingLevel === 1 ? 'h1' : 'h2'
	const PageHeading = props.headingLevel === 1 ? 'h2' : 'h3'
	return (
		<FormCard>
			<header className="grid gap-2">
				<Heading
					ref={props.titleRef}
					tabIndex={-1}
					className="font-semibold text-foreground text-xl tracking-tight outline-hidden sm:text-2xl"
				>
					{props.title}
				</Heading>
				{props.description ? (
					<p className="whitespace-pre-line text-muted-foreground text-sm">{props.description}</p>
				) : null}
				{props.hasRequired ? (
					<p className="text-[13px] text-muted-foreground">
						Fields marked with <span className="text-error">*</span> are required.
					</p>
				) : null}
			</header>
			{progress ? (
				<div className="mt-5">
					<FormProgress {...progress} />
				</div>
			) : null}
			<p role="status" className="sr-only">
				{props.announcement}
			</p>
			{props.isRestored ? <RestoredNotice onStartOver={props.onStartOver} /> : null}
			<form
				ref={props.screenRef}
				noValidate
				tabIndex={-1}
				onSubmit={props.onSubmit}
				onKeyDown={props.onKeyDown}
				onFocus={(event) => {
					const id = (event.target as HTMLElement).closest<HTMLElement>('[data-question-id]')?.dataset.questionId
					if (id) {
						props.onFieldFocus(id)
					}
				}}
				className={`mt-6 grid gap-6 outline-hidden ${isOneAtATime ? oneAtATimeClasses : ''}`}
				aria-busy={isSubmitting || undefined}
			>
				{props.pageTitle ? (
					<PageHeading
						ref={props.pageHeadingRef}
						tabIndex={-1}
						className="font-semibold text-foreground text-lg tracking-tight outline-hidden"
					>
						{props.pageTitle}
					</PageHeading>
				) : null}
				{props.items.map((field) => (
					<div key={field.id} data-question-id={field.kind === 'page_break' ? undefined : field.id}>
						{props.renderItem(field)}
					</div>
				))}
				{/* Keys mean nothing on a touch screen: the hints show only where there is a fine pointer and, likely, a keyboard. */}
				{props.hint ? (
					<p className="-mt-3 text-[13px] text-muted-foreground pointer-coarse:hidden">{props.hint}</p>
				) : null}
				<Honeypot {...props.honeypot} />
				<ErrorSummary items={props.invalidFields} onPick={(id) => document.getElementById(id)?.focus()} />
				{props.formError ? <FormError {...props.formError} /> : null}
				<div className="flex flex-wrap items-center gap-x-4 gap-y-2">
					{onBack ? (
						<button type="button" className={secondaryButtonClasses} onClick={onBack}>
							Back
						</button>
					) : null}
					<button
						type="submit"
						className={`${primaryButtonClasses} ${onBack ? '' : 'w-full sm:w-auto'}`}
						disabled={isSubmitting}
						aria-busy={isSubmitting || undefined}
					>
						{isSubmitting ? <Spinner /> : null}
						{isSubmitting ? 'Sending…' : props.isLast ? props.submitLabel : isOneAtATime ? 'OK' : 'Next'}
					</button>
					{props.hasKeys && !isSubmitting ? (
						<span aria-hidden="true" className="text-[13px] text-muted-foreground pointer-coarse:hidden">
							or press <kbd className="font-sans font-medium">Enter ↵</kbd>
						</span>
					) : null}
					<p role="status" className="text-[13px] text-muted-foreground empty:hidden">
						{props.submittingProgress}
					</p>
				</div>
			</form>
		</FormCard>
	)
}
