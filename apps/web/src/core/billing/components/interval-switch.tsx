import type { BillingInterval } from '@blocksmith/contracts/subscriptions.ts'
import { useId } from 'react'
import { cn } from '#src/components/ui/cn.ts'

const options = [
	{ value: 'month', label: 'Monthly' },
	{ value: 'year', label: 'Yearly' },
] as const

/**
 * Monthly or yearly, as two radio buttons drawn as a segmented control: the arrow keys move
 * between them and a screen reader hears a choice of two, which a toggle button would not say.
 */
export function IntervalSwitch({
	value,
	onChange,
	savingPercent,
	className,
}: {
	value: BillingInterval
	onChange: (interval: BillingInterval) => void
	/** The best yearly saving, said beside "Yearly". */
	savingPercent?: number
	className?: string
}) {
	const name = useId()
	return (
		<fieldset className={cn('flex w-fit gap-1 rounded-lg bg-muted p-1', className)}>
			<legend className="sr-only">Billing period</legend>
			{options.map((option) => (
				<label
					key={option.value}
					className={cn(
						'inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-md px-3 font-medium text-muted-foreground text-sm transition-colors hover:text-foreground pointer-coarse:h-9',
						'has-checked:bg-background has-checked:text-foreground has-checked:shadow-xs dark:has-checked:bg-input',
						'has-focus-visible:outline-2 has-focus-visible:outline-ring has-focus-visible:outline-offset-2',
					)}
				>
					<input
						type="radio"
						name={name}
						value={option.value}
						checked={value === option.value}
						onChange={() => onChange(option.value)}
						className="sr-only"
					/>
					{option.label}
					{/* Spaces between the parts: the accessible name joins them as written. */}
					{option.value === 'year' && savingPercent ? ' ' : null}
					{option.value === 'year' && savingPercent ? (
						<span className="font-normal text-success-on-tint text-xs">save up to {savingPercent}%</span>
					) : null}
				</label>
			))}
		</fieldset>
	)
}
