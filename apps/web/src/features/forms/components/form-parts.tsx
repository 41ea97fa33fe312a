import type { ReactNode } from 'react'

// The pieces of the public form around its questions: the card, the notices in place of the
// form, the buttons, the summary of answers to check, and the confirmation. Plain class strings
// (no components/ui): the public page has a budget of 100 KB in all.

export const primaryButtonClasses =
	'inline-flex h-10 items-center justify-center gap-2 rounded-md bg-primary px-5 font-medium text-primary-foreground text-sm shadow-xs transition-colors hover:bg-primary-hover disabled:pointer-events-none disabled:opacity-60 aria-busy:cursor-progress'
export const secondaryButtonClasses =
	'inline-flex h-10 items-center justify-center gap-2 rounded-md border border-input bg-background px-4 font-medium text-foreground text-sm shadow-xs transition-colors hover:bg-accent dark:bg-input/20'

export function Spinner() {
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

/** The answers to check, each a link to its field. */
export function ErrorSummary({
	items,
	onPick,
}: {
	items: { fieldId: string; label: string; controlId: string; message: string }[]
	onPick: (controlId: string) => void
}) {
	if (items.length === 0) {
		return null
	}
	return (
		<div role="alert" className="rounded-lg border border-error/25 bg-error/5 px-4 py-3 text-sm">
			<p className="font-medium text-foreground">
				{items.length === 1 ? 'Check this answer:' : `Check these ${items.length} answers:`}
			</p>
			<ul className="mt-1.5 grid list-disc gap-1 pl-5 text-muted-foreground">
				{items.map((item) => (
					<li key={item.fieldId}>
						<a
							href={`#${item.controlId}`}
							className="text-link underline underline-offset-2"
							onClick={(event) => {
								event.preventDefault()
								onPick(item.controlId)
							}}
						>
							{item.label}
						</a>
						: {item.message}
					</li>
				))}
			</ul>
		</div>
	)
}

/** A problem no field can show (a lost connection, too many answers), with Try again when it can help. */
export function FormError({ message, onRetry }: { message: string; onRetry: (() => void) | null }) {
	return (
		<div
			role="alert"
			className="flex flex-col gap-3 rounded-lg border border-error/25 bg-error/5 px-4 py-3 text-foreground text-sm sm:flex-row sm:items-center sm:justify-between"
		>
			<p>{message}</p>
			{onRetry ? (
				<button type="button" className={secondaryButtonClasses} onClick={onRetry}>
					Try again
				</button>
			) : null}
		</div>
	)
}

/** The honeypot: out of sight and out of the tab order, so only a bot fills it in. */
export function Honeypot({ id, value, onChange }: { id: string; value: string; onChange: (value: string) => void }) {
	return (
		<div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
			<label htmlFor={id}>Website</label>
			<input
				id={id}
				type="text"
				name="website"
				tabIndex={-1}
				autoComplete="off"
				value={value}
				onChange={(event) => onChange(event.target.value)}
			/>
		</div>
	)
}

/** The notice that answers from an earlier visit are back, with a way to start over. */
export function RestoredNotice({ onStartOver }: { onStartOver: () => void }) {
	return (
		<div
			role="status"
			className="mt-5 flex flex-wrap items-center justify-between gap-2 rounded-lg border border-info/25 bg-info/5 px-4 py-2.5 text-sm"
		>
			<span>Your answers from earlier are back.</span>
			<button type="button" className="font-medium text-link underline-offset-4 hover:underline" onClick={onStartOver}>
				Start over
			</button>
		</div>
	)
}
