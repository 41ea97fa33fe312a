import type { ReactNode } from 'react'
import { controlClasses } from '#src/components/ui/control-classes.ts'
import { controlAria, FieldFrame, type FieldProps } from './field-frame.tsx'
import { maxLengthByKind } from './field-values.ts'

// Fields typed into: short and long text, number, e-mail, web address, phone and date. Each uses
// the input type that brings the right keyboard on phones; the form checks the values itself
// (`noValidate`), so its messages replace the browser's.

const inputClasses = `${controlClasses} h-10 py-1 sm:h-9 pointer-coarse:h-10`

const inputAttributes = {
	short_text: { type: 'text' },
	number: { type: 'text', inputMode: 'decimal' },
	email: { type: 'email', inputMode: 'email', autoComplete: 'email', spellCheck: false },
	url: { type: 'url', inputMode: 'url', autoComplete: 'url', spellCheck: false },
	phone: { type: 'tel', inputMode: 'tel', autoComplete: 'tel' },
} as const

export function TextField(props: FieldProps) {
	const { field, value, onChange } = props
	const text = typeof value === 'string' ? value : ''
	const shared = {
		...controlAria(props),
		name: field.id,
		value: text,
		placeholder: field.placeholder ?? undefined,
		maxLength: maxLengthByKind[field.kind],
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
	return <FieldFrame {...props}>{control}</FieldFrame>
}
