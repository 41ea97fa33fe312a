import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { FieldFrame, type FieldProps } from './field-frame.tsx'
import type { DraftValue } from './field-values.ts'

// A calculated field: a score or a price worked out from earlier answers, shown as they change.
// The page computes it (evaluateForm(...).calculated, the same rules module the server checks
// with) and passes it in as the value; the visitor never types it. Announced politely, so a
// screen reader hears the new total after an answer changes it.

/** A calculated result as the field's value: the number as text, empty while it cannot be worked out. */
export function calculatedValue(result: number | null | undefined): string {
	return typeof result === 'number' && Number.isFinite(result) ? String(result) : ''
}

/** `€1,234.50`, with the field's decimals, prefix and suffix; null without a result. */
export function formatCalculated(field: Pick<PublicField, 'calculation'>, value: DraftValue | number): string | null {
	const number = typeof value === 'number' ? value : typeof value === 'string' && value !== '' ? Number(value) : null
	if (number === null || !Number.isFinite(number)) {
		return null
	}
	const decimals = field.calculation?.decimals ?? 0
	// Display only: the exact value was worked out (and rounded) by the rules module.
	const text = new Intl.NumberFormat('en-US', {
		minimumFractionDigits: decimals,
		maximumFractionDigits: decimals,
	}).format(number)
	return `${field.calculation?.prefix ?? ''}${text}${field.calculation?.suffix ?? ''}`
}

export function CalculatedField(props: FieldProps) {
	const { field, value, controlId } = props
	if (field.hidden) {
		return null
	}
	const shown = formatCalculated(field, value)
	return (
		<FieldFrame {...props} error={undefined}>
			<output
				id={controlId}
				aria-live="polite"
				className="block rounded-md border border-input border-dashed bg-muted/40 px-3 py-2 font-semibold text-foreground text-lg tabular-nums"
			>
				{shown ?? (
					<>
						<span aria-hidden="true">—</span>
						<span className="sr-only">Not worked out yet</span>
					</>
				)}
			</output>
		</FieldFrame>
	)
}
