import { Slot } from 'radix-ui'
import { type ReactElement, type ReactNode, useId } from 'react'
import { cn } from './cn.ts'
import { Label } from './label.tsx'

/** A message, or react-hook-form's `FieldError` as is (`error={errors.email}`). */
type FieldErrorValue = string | { message?: string | undefined } | null | undefined

type FieldProps = {
	label: ReactNode
	/** Exactly one control: Input, Textarea, Select, Checkbox, or any element that takes `id` and aria props. */
	children: ReactElement
	description?: ReactNode
	error?: FieldErrorValue
	/** Marks the label and sets aria-required on the control (validation itself stays with the form). */
	isRequired?: boolean
	/** Keeps the label for screen readers only, where the context already says what the control is. */
	isLabelHidden?: boolean
	/** Shown at the label's right, e.g. a "Forgot password?" link. */
	labelAside?: ReactNode
	/** 'horizontal' puts the control before its label: the layout for checkboxes and switches. */
	orientation?: 'vertical' | 'horizontal'
	/** The control's id; generated when left out. */
	id?: string
	className?: string
}

/**
 * Label, control, description and error, wired for assistive technology: the label names the control,
 * the description and the error are its accessible description, and an error sets aria-invalid.
 *
 * ```tsx
 * <Field label="E-mail" error={errors.email} isRequired>
 *   <Input type="email" autoComplete="email" {...register('email')} />
 * </Field>
 * ```
 */
export function Field({
	label,
	children,
	description,
	error,
	isRequired = false,
	isLabelHidden = false,
	labelAside,
	orientation = 'vertical',
	id,
	className,
}: FieldProps) {
	const generatedId = useId()
	const controlId = id ?? `field-${generatedId}`
	const descriptionId = `${controlId}-description`
	const errorId = `${controlId}-error`
	const message = typeof error === 'string' ? error : error?.message
	const isInvalid = Boolean(message)
	const describedBy = [description ? descriptionId : null, isInvalid ? errorId : null].filter(Boolean).join(' ')

	const control = (
		<Slot.Root
			id={controlId}
			aria-describedby={describedBy || undefined}
			aria-invalid={isInvalid || undefined}
			aria-required={isRequired || undefined}
		>
			{children}
		</Slot.Root>
	)
	const labelElement = (
		<Label htmlFor={controlId} className={cn(isLabelHidden && 'sr-only', orientation === 'horizontal' && 'leading-5')}>
			{label}
			{isRequired ? (
				<span aria-hidden className="ml-0.5 text-error">
					*
				</span>
			) : null}
		</Label>
	)
	const notes = (
		<>
			{description ? (
				<p id={descriptionId} className="text-[13px] text-muted-foreground leading-snug">
					{description}
				</p>
			) : null}
			{isInvalid ? (
				<p id={errorId} className="flex items-start gap-1.5 text-[13px] text-error leading-snug">
					{/* Drawn inline: fields are on the lightest pages, which do without the icon library. */}
					<svg
						aria-hidden="true"
						viewBox="0 0 24 24"
						fill="none"
						stroke="currentColor"
						strokeWidth="2"
						strokeLinecap="round"
						className="mt-px size-3.5 shrink-0"
					>
						<circle cx="12" cy="12" r="10" />
						<path d="M12 8v4M12 16h.01" />
					</svg>
					<span>{message}</span>
				</p>
			) : null}
		</>
	)

	if (orientation === 'horizontal') {
		return (
			<div className={cn('flex items-start gap-3', className)} data-invalid={isInvalid || undefined}>
				<div className="flex h-5 items-center">{control}</div>
				<div className="grid gap-1">
					{labelElement}
					{notes}
				</div>
			</div>
		)
	}
	return (
		<div className={cn('grid gap-2', className)} data-invalid={isInvalid || undefined}>
			{labelAside ? (
				<div className="flex items-center justify-between gap-3">
					{labelElement}
					<div className="text-[13px]">{labelAside}</div>
				</div>
			) : (
				labelElement
			)}
			{control}
			{notes}
		</div>
	)
}
