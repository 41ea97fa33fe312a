import type { ReactNode } from 'react'
import { controlClasses } from '#src/components/ui/control-classes.ts'
import { controlAria, FieldFrame, type FieldProps } from './field-frame.tsx'
import { formatCount, textLimitOf } from './field-values.ts'

// Fields typed into: short and long text, number, e-mail, web address, phone and date. Each uses
// the input type that brings the right keyboard on phones; the form checks the values itself
// (`noValidate`), so its messages replace the browser's. Nothing typed is ever cut at a limit
// (a `maxLength` attribute would drop a pasted tail without a word): a counter shows near the
// limit, past it says by how much, and the form refuses to send until the text is shortened.

const inputClasses = `${controlClasses} h-10 py-1 sm:h-9 pointer-coarse:h-10`

const inputAttributes = {
	short_text: { type: 'text' },
	number: { type: 'text', inputMode: 'decimal' },
	email: { type: 'email', inputMode: 'email', autoComplete: 'email', spellCheck: false },
	url: { type: 'url', inputMode: 'url', autoComplete: 'url', spellCheck: false },
	phone: { type: 'tel', inputMode: 'tel', autoComplete: 'tel' },
} as const

/** The counter shows from this share of the limit on. */
const counterFrom = 0.9

/** "1,950 / 2,000" near the limit; past it, in the error colour, how many characters too many. */
function LengthCounter({ id, length, limit }: { id: string; length: number; limit: number }) {
	const over = length - limit
	return (
		<>
			<p
				id={id}
				className={`text-right text-[13px] tabular-nums leading-snug ${over > 0 ? 'text-error' : 'text-muted-foreground'}`}
			>
				{formatCount(length)} / {formatCount(limit)}
				{over > 0 ? ` · ${formatCount(over)} ${over === 1 ? 'character' : 'characters'} too many` : null}
			</p>
			{/* Said once when the text goes past the limit, not on every key pressed below it. */}
			<span className="sr-only" aria-live="polite">
				{over > 0 ? `Over the limit of ${formatCount(limit)} characters.` : ''}
			</span>
		</>
	)
}

export function TextField(props: FieldProps) {
	const { field, value, onChange, controlId } = props
	const text = typeof value === 'string' ? value : ''
	const limit = textLimitOf(field)
	const isCounted = limit !== undefined && text.length >= Math.floor(limit * counterFrom)
	const aria = controlAria(props)
	const counterId = `${controlId}-count`
	const shared = {
		...aria,
		'aria-describedby': isCounted
			? [aria['aria-describedby'], counterId].filter(Boolean).join(' ')
			: aria['aria-describedby'],
		name: field.id,
		value: text,
		placeholder: field.placeholder ?? undefined,
	}
	let control: ReactNode
	if (field.kind === 'long_text') {
		control = (
			<textarea
				{...shared}
				rows={4}
				className={`${controlClasses} field-sizing-content block min-h-24 py-2 leading-relaxed`}
				onChange={(event) => onChange(event.target.value)}
			/>
		)
	} else if (field.kind === 'date') {
		control = (
			<input
				{...shared}
				type={field.includeTime ? 'datetime-local' : 'date'}
				className={`${inputClasses} sm:max-w-64`}
				onChange={(event) => onChange(event.target.value)}
			/>
		)
	} else {
		const attributes = inputAttributes[field.kind as keyof typeof inputAttributes] ?? inputAttributes.short_text
		control = (
			<input
				{...shared}
				{...attributes}
				className={field.kind === 'number' ? `${inputClasses} sm:max-w-64` : inputClasses}
				onChange={(event) => onChange(event.target.value)}
			/>
		)
	}
	return (
		<FieldFrame {...props}>
			{/* The same elements whether or not the counter shows, so the text box keeps its focus and caret. */}
			<div className="grid gap-1">
				{control}
				{isCounted && limit !== undefined ? <LengthCounter id={counterId} length={text.length} limit={limit} /> : null}
			</div>
		</FieldFrame>
	)
}
