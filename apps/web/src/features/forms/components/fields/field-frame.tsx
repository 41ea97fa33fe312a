import type { AnswerFile } from '@blocksmith/contracts/form-files.ts'
import type { PublicField } from '@blocksmith/contracts/forms.ts'
import type { ComponentProps, ReactNode } from 'react'
import type { DraftValue } from './field-values.ts'

// The parts every field shares: its label (or legend), help, error and required mark, wired
// for assistive technology. Plain class strings rather than components/ui's Field: that one
// brings Radix and tailwind-merge, and the public form page has a budget of 100 KB in all.

/** What each field component gets from the form. */
export type FieldProps = {
	field: PublicField
	value: DraftValue
	onChange: (value: DraftValue) => void
	error: string | undefined
	/** The id of the field's first control; the label points at it and the form focuses it. */
	controlId: string
	/** Extra words for the help line (e.g. the time zone of a date-time). */
	note?: string | undefined
	/** files: sends one file and gives back the answer entry naming it (the preview only pretends). */
	upload?: UploadFile | undefined
	/** files: whether uploads are under way, so the form waits for them before sending. */
	onBusyChange?: ((isBusy: boolean) => void) | undefined
}

/** One person or row to choose (people and relation questions). */
export type FormChoice = { id: string; label: string }

/** Choices of a people or relation field matching `search` ('' for the first ones). */
export type LoadChoices = (field: PublicField, search: string, signal: AbortSignal) => Promise<FormChoice[]>

export type ReferenceFieldProps = FieldProps & { loadChoices: LoadChoices | undefined }

export type UploadFile = (
	file: File,
	onProgress: (fraction: number) => void,
	signal: AbortSignal,
) => Promise<AnswerFile>

/** Ids of a field's help and error lines, from its control id. */
export function describedBy(props: Pick<FieldProps, 'field' | 'error' | 'controlId' | 'note'>): string | undefined {
	const ids = [
		props.field.helpText || props.note ? `${props.controlId}-help` : null,
		props.error ? `${props.controlId}-error` : null,
	].filter(Boolean)
	return ids.length > 0 ? ids.join(' ') : undefined
}

/** The aria attributes of a single control (an input, a textarea, a select). */
export function controlAria(props: Pick<FieldProps, 'field' | 'error' | 'controlId' | 'note'>) {
	return {
		id: props.controlId,
		'aria-describedby': describedBy(props),
		'aria-invalid': props.error ? true : undefined,
		'aria-required': props.field.required || undefined,
	}
}

const labelClasses = 'font-medium text-foreground text-sm leading-snug'

function RequiredMark({ isRequired }: { isRequired: boolean }) {
	return isRequired ? (
		<span aria-hidden="true" className="ml-0.5 text-error">
			*
		</span>
	) : null
}

function Notes({ field, error, controlId, note }: Pick<FieldProps, 'field' | 'error' | 'controlId' | 'note'>) {
	const help = [field.helpText, note].filter(Boolean).join(' ')
	return (
		<>
			{help ? (
				<p id={`${controlId}-help`} className="whitespace-pre-line text-[13px] text-muted-foreground leading-snug">
					{help}
				</p>
			) : null}
			{error ? (
				<p id={`${controlId}-error`} className="flex items-start gap-1.5 text-[13px] text-error leading-snug">
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
					<span>{error}</span>
				</p>
			) : null}
		</>
	)
}

/** A field with one control: label above, help and error below; `isInline` puts a checkbox before its label. */
export function FieldFrame(
	props: Omit<FieldProps, 'value' | 'onChange'> & { children: ReactNode; isInline?: boolean | undefined },
) {
	const label = (
		<label htmlFor={props.controlId} className={props.isInline ? `${labelClasses} cursor-pointer` : labelClasses}>
			{props.field.label}
			<RequiredMark isRequired={props.field.required} />
		</label>
	)
	if (props.isInline) {
		return (
			<div className="flex items-start gap-3" data-invalid={props.error ? true : undefined}>
				<div className="flex h-5 items-center">{props.children}</div>
				<div className="grid gap-1.5">
					{label}
					<Notes {...props} />
				</div>
			</div>
		)
	}
	return (
		<div className="grid gap-2" data-invalid={props.error ? true : undefined}>
			{label}
			{props.children}
			<Notes {...props} />
		</div>
	)
}

/**
 * A field of several controls (radios, checkboxes, a list of people), named by its legend.
 * Radios form a radiogroup, which can say it is required; a checkbox group cannot, so its
 * legend says it in words for screen readers.
 */
export function GroupFrame(
	props: Omit<FieldProps, 'value' | 'onChange'> & { children: ReactNode; isRadioGroup?: boolean | undefined },
) {
	const { field, error, controlId, isRadioGroup } = props
	const labelId = `${controlId}-label`
	const content = (
		<>
			{props.children}
			<Notes {...props} />
		</>
	)
	if (isRadioGroup) {
		return (
			<div
				role="radiogroup"
				className="grid min-w-0 gap-2"
				aria-labelledby={labelId}
				aria-describedby={describedBy(props)}
				aria-invalid={error ? true : undefined}
				aria-required={field.required || undefined}
				data-invalid={error ? true : undefined}
			>
				{/* In the grid, unlike a fieldset's legend: the gap spaces it, as a legend's margin does. */}
				<div id={labelId} className={labelClasses}>
					{field.label}
					<RequiredMark isRequired={field.required} />
				</div>
				{content}
			</div>
		)
	}
	return (
		<fieldset
			className="grid min-w-0 gap-2"
			aria-describedby={describedBy(props)}
			data-invalid={error ? true : undefined}
		>
			<legend id={labelId} className={`${labelClasses} mb-2 p-0`}>
				{field.label}
				<RequiredMark isRequired={field.required} />
				{field.required ? <span className="sr-only"> (required)</span> : null}
			</legend>
			{content}
		</fieldset>
	)
}

/** A radio or checkbox with its text, the whole row clickable and at least 40 px high for thumbs. */
export function OptionRow({
	children,
	...input
}: { children: ReactNode } & Omit<ComponentProps<'input'>, 'className' | 'children'>) {
	return (
		<label className="flex min-h-10 cursor-pointer items-center gap-3 rounded-md border border-input bg-background px-3 py-2 text-foreground text-sm transition-colors hover:bg-accent has-checked:border-primary has-checked:bg-primary/5 has-focus-visible:ring-3 has-focus-visible:ring-ring/30 dark:bg-input/20">
			{/* Inside a row the whole row shows the focus ring, so the input's own is hidden. */}
			<input {...input} className={`${choiceInputClasses} focus-visible:outline-hidden`} />
			<span className="min-w-0 break-words">{children}</span>
		</label>
	)
}

export const choiceInputClasses = 'size-4 shrink-0 cursor-pointer accent-primary'
