import { type FieldProps, GroupFrame } from './field-frame.tsx'
import { scaleRangeOf } from './kind-values.ts'

// A linear scale (its range and end words from the builder) and NPS (0–10, "Not at all likely"
// to "Extremely likely" unless the field says otherwise): a row of numbered boxes that are native
// radios, so the arrow keys move along them. The end words are said with the first and last
// number to screen readers, and shown under the row.

const npsLabels = { min: 'Not at all likely', max: 'Extremely likely' } as const

export function ClearChoice({ onClear, label = 'Clear choice' }: { onClear: () => void; label?: string }) {
	return (
		<button
			type="button"
			className="justify-self-start text-[13px] text-link underline-offset-4 hover:underline"
			onClick={onClear}
		>
			{label}
		</button>
	)
}

export function ScaleField(props: FieldProps) {
	const { field, value, onChange, controlId } = props
	const { min, max } = scaleRangeOf(field)
	const selected = typeof value === 'string' ? value : ''
	const isNps = field.kind === 'nps'
	const minLabel = field.scale?.minLabel || (isNps ? npsLabels.min : null)
	const maxLabel = field.scale?.maxLabel || (isNps ? npsLabels.max : null)
	const points = Array.from({ length: max - min + 1 }, (_, index) => min + index)
	return (
		<GroupFrame {...props} isRadioGroup>
			<div className="grid gap-1.5">
				<div className="grid gap-1" style={{ gridTemplateColumns: `repeat(${points.length}, minmax(0, 1fr))` }}>
					{points.map((point) => {
						const words = point === min ? minLabel : point === max ? maxLabel : null
						return (
							<label
								key={point}
								className="flex h-10 min-w-0 cursor-pointer items-center justify-center rounded-md border border-input bg-background font-medium text-foreground text-sm tabular-nums transition-colors hover:bg-accent has-checked:border-primary has-checked:bg-primary has-checked:text-primary-foreground has-focus-visible:ring-3 has-focus-visible:ring-ring/40 dark:bg-input/20 dark:has-checked:bg-primary"
							>
								<input
									type="radio"
									id={point === min ? controlId : `${controlId}-${point}`}
									name={`${controlId}-scale`}
									value={point}
									checked={selected === String(point)}
									className="sr-only"
									onChange={() => onChange(String(point))}
								/>
								{point}
								{words ? <span className="sr-only">, {words}</span> : null}
							</label>
						)
					})}
				</div>
				{minLabel || maxLabel ? (
					<div aria-hidden="true" className="flex justify-between gap-4 text-[13px] text-muted-foreground">
						<span>{minLabel}</span>
						<span className="text-right">{maxLabel}</span>
					</div>
				) : null}
			</div>
			{!field.required && selected ? <ClearChoice onClear={() => onChange('')} /> : null}
		</GroupFrame>
	)
}
