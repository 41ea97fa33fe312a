import { useEffect, useRef } from 'react'
import { FormCard, secondaryButtonClasses } from './form-parts.tsx'

// What a visitor sees once the answers are in. Loaded with the sending code (form-view.tsx), not
// with the page: the public page has a budget of 100 KB.

/** After a submit: the message (focused, so it is read out), and a way to answer again. */
export function Confirmation({
	title,
	message,
	headingLevel,
	isPreview,
	onStartAgain,
}: {
	title: string
	message: string
	headingLevel: 1 | 2
	isPreview: boolean
	onStartAgain: () => void
}) {
	const Heading = headingLevel === 1 ? 'h1' : 'h2'
	const messageRef = useRef<HTMLDivElement>(null)
	// The message takes the focus, so it is read out where the form was.
	useEffect(() => messageRef.current?.focus(), [])
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
					ref={messageRef}
					tabIndex={-1}
					role="status"
					className="max-w-prose whitespace-pre-wrap break-words text-base text-foreground outline-hidden"
				>
					{message}
				</div>
				{isPreview ? <p className="text-[13px] text-muted-foreground">Preview: nothing was sent.</p> : null}
				{/* A step further from the message: it is the next action, not part of the message. */}
				<button type="button" className={`${secondaryButtonClasses} mt-2`} onClick={onStartAgain}>
					Submit another response
				</button>
			</div>
		</FormCard>
	)
}
