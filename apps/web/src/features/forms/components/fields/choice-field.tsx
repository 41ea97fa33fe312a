import { controlClasses } from '#src/components/ui/control-classes.ts'
import { choiceInputClasses, controlAria, FieldFrame, type FieldProps, GroupFrame, OptionRow } from './field-frame.tsx'
import { chosenOf, maxRadioOptions } from './field-values.ts'

// Fields chosen from the property's options: select and status (radios when there are few,
// a native select when there are many — it scrolls, searches by typing and suits phones),
// multi-select (checkboxes) and a single checkbox.

/** select and status: one option, or none when the field is not required. */
export function SingleChoiceField(props: FieldProps) {
	const { field, value, onChange, controlId } = props
	const options = field.options ?? []
	const selected = typeof value === 'string' ? value : ''
	if (options.length > maxRadioOptions) {
		return (
			<FieldFrame {...props}>
				<select
					{...controlAria(props)}
					name={field.id}
					value={selected}
					className={`${controlClasses} h-10 py-1 sm:h-9 pointer-coarse:h-10`}
					onChange={(event) => onChange(event.target.value)}
				>
					<option value="">{field.placeholder || 'Choose…'}</option>
					{options.map((option) => (
						<option key={option} value={option}>
							{option}
						</option>
					))}
				</select>
			</FieldFrame>
		)
	}
	return (
		<GroupFrame {...props} isRadioGroup>
			<div className="grid gap-2">
				{options.map((option, index) => (
					<OptionRow
						key={option}
						type="radio"
						id={index === 0 ? controlId : `${controlId}-${index}`}
						name={`${controlId}-choice`}
						value={option}
						checked={selected === option}
						onChange={() => onChange(option)}
					>
						{option}
					</OptionRow>
				))}
			</div>
			{!field.required && selected ? (
				<button
					type="button"
					className="justify-self-start text-[13px] text-link underline-offset-4 hover:underline"
					onClick={() => onChange('')}
				>
					Clear choice
				</button>
			) : null}
			{options.length === 0 ? <p className="text-muted-foreground text-sm">No options to choose from.</p> : null}
		</GroupFrame>
	)
}

/** multi_select: any number of options, as a list of checkboxes. */
export function MultiChoiceField(props: FieldProps) {
	const { field, value, onChange, controlId } = props
	const options = field.options ?? []
	const selected = chosenOf(value)
	const toggle = (option: string, isChecked: boolean) =>
		// Kept in the options' order, so the answer reads like the list.
		onChange(options.filter((candidate) => (candidate === option ? isChecked : selected.includes(candidate))))
	return (
		<GroupFrame {...props}>
			<div className="grid gap-2">
				{options.map((option, index) => (
					<OptionRow
						key={option}
						type="checkbox"
						id={index === 0 ? controlId : `${controlId}-${index}`}
						name={field.id}
						value={option}
						checked={selected.includes(option)}
						onChange={(event) => toggle(option, event.target.checked)}
					>
						{option}
					</OptionRow>
				))}
			</div>
			{options.length === 0 ? <p className="text-muted-foreground text-sm">No options to choose from.</p> : null}
		</GroupFrame>
	)
}

/** checkbox: ticked or not; a required one must be ticked (consent, terms). */
export function CheckboxField(props: FieldProps) {
	const { field, value, onChange } = props
	return (
		<FieldFrame {...props} isInline>
			<input
				{...controlAria(props)}
				type="checkbox"
				name={field.id}
				checked={value === true}
				className={choiceInputClasses}
				onChange={(event) => onChange(event.target.checked)}
			/>
		</FieldFrame>
	)
}
