import type { ChartConfig } from '@blocksmith/contracts/charts.ts'
import type { ReactNode } from 'react'
import { useId } from 'react'
import { cn } from '#src/components/ui/cn.ts'
import { Input } from '#src/components/ui/input.tsx'
import { Select, type SelectOption } from '#src/components/ui/select.tsx'
import type { ChartErrors, PropertyChoice } from '../lib/chart-config.ts'

// Small pieces every settings tab uses.

export type SettingsProps = {
	config: ChartConfig
	properties: PropertyChoice[]
	/** Save errors, preview problems and invalid values, by settings path. */
	errors: ChartErrors
	onChange: (config: ChartConfig, path: string) => void
}

/** A titled group of settings. */
export function SettingsSection({
	title,
	description,
	children,
	aside,
}: {
	title: string
	description?: ReactNode
	children: ReactNode
	aside?: ReactNode
}) {
	const id = useId()
	return (
		<section className="grid gap-4" aria-labelledby={id}>
			<div className="flex items-start justify-between gap-3">
				<div className="grid gap-0.5">
					<h2 id={id} className="font-semibold text-sm">
						{title}
					</h2>
					{description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
				</div>
				{aside}
			</div>
			{children}
		</section>
	)
}

type PropertySelectProps = {
	value: string | null | undefined
	properties: readonly PropertyChoice[]
	onValueChange: (id: string) => void
	placeholder?: string
	id?: string
	'aria-label'?: string
	'aria-describedby'?: string
	'aria-invalid'?: boolean
	className?: string
}

/**
 * A property picker. A property that is gone still shows as what was chosen ("Removed
 * property"), so the field never looks blank while its problem is shown beside it.
 */
export function PropertySelect({
	value,
	properties,
	onValueChange,
	placeholder = 'Choose a property…',
	...rest
}: PropertySelectProps) {
	const options: SelectOption[] = properties.map((property) => ({ value: property.id, label: property.name }))
	if (value && !properties.some((property) => property.id === value)) {
		options.unshift({ value, label: 'Removed property', isDisabled: true })
	}
	return (
		<Select options={options} value={value ?? ''} placeholder={placeholder} onValueChange={onValueChange} {...rest} />
	)
}

/** A whole number, or nothing (the setting's "no limit"). */
export function OptionalNumberInput({
	value,
	onValueChange,
	min,
	max,
	placeholder,
	...rest
}: {
	value: number | null
	onValueChange: (value: number | null) => void
	min?: number
	max?: number
	placeholder?: string
	id?: string
	'aria-label'?: string
	'aria-describedby'?: string
	'aria-invalid'?: boolean
	className?: string
	step?: number | 'any'
}) {
	return (
		<Input
			type="number"
			inputMode="decimal"
			min={min}
			max={max}
			placeholder={placeholder}
			value={value ?? ''}
			onChange={(event) => {
				const text = event.target.value
				const number = Number(text)
				onValueChange(text.trim() === '' || !Number.isFinite(number) ? null : number)
			}}
			{...rest}
		/>
	)
}

type SegmentedProps<T extends string> = {
	legend: string
	value: T
	options: readonly { value: T; label: ReactNode; icon?: ReactNode }[]
	onValueChange: (value: T) => void
	className?: string
}

/** A few exclusive choices side by side (radio buttons that look like a segmented switch). */
export function Segmented<T extends string>({ legend, value, options, onValueChange, className }: SegmentedProps<T>) {
	const name = useId()
	return (
		<fieldset className={cn('grid gap-2', className)}>
			<legend className="mb-2 font-medium text-sm leading-none">{legend}</legend>
			<div className="flex w-fit flex-wrap gap-1 rounded-lg bg-muted p-1">
				{options.map((option) => (
					<label
						key={option.value}
						className={cn(
							'inline-flex h-7 cursor-pointer items-center gap-1.5 rounded-md px-2.5 font-medium text-[13px] text-muted-foreground transition-colors',
							'has-checked:bg-background has-checked:text-foreground has-checked:shadow-xs dark:has-checked:bg-input/40',
							'has-focus-visible:outline-2 has-focus-visible:outline-ring [&_svg]:size-4',
						)}
					>
						<input
							type="radio"
							name={name}
							className="sr-only"
							checked={value === option.value}
							onChange={() => onValueChange(option.value)}
						/>
						{option.icon}
						{option.label}
					</label>
				))}
			</div>
		</fieldset>
	)
}
