import type { FormField } from '@blocksmith/contracts/forms.ts'
import { Calculator } from 'lucide-react'
import { Field } from '#src/components/ui/field.tsx'
import { Switch } from '#src/components/ui/switch.tsx'

type CalculatedSettingsProps = {
	field: FormField
	fields: readonly FormField[]
	error: (key: string) => string | undefined
	/** This field's problems by the path under it (`calculation.steps.0.operand`). */
	errors: Record<string, string>
	onChange: (changes: Partial<FormField>, path: string) => void
}

/** A calculated field: how it is worked out, and whether visitors see the result as they answer. */
export function CalculatedSettings({ field, error, errors, onChange }: CalculatedSettingsProps) {
	// Every problem of the calculation (`calculation.steps.2.operand`), until the editor shows each in place.
	const problems = Object.entries(errors).filter(([path]) => path === 'calculation' || path.startsWith('calculation.'))
	return (
		<div className="grid gap-4">
			<div className="flex items-start gap-2 rounded-lg border border-dashed p-3 text-muted-foreground text-sm">
				<Calculator aria-hidden className="mt-0.5 size-4 shrink-0" />
				<span>
					The calculation editor is on its way. Until then the result starts at {field.calculation?.start ?? '0'} and
					applies {field.calculation?.steps.length ?? 0} steps.
				</span>
			</div>
			{problems.length ? (
				<ul className="grid gap-1 text-[13px] text-error">
					{problems.map(([path, message]) => (
						<li key={path}>{message}</li>
					))}
				</ul>
			) : null}
			<Field
				label="Show the result to visitors"
				description="Off, the result is worked out and kept with the answer, but not shown on the page."
				orientation="horizontal"
				error={error('hidden')}
			>
				<Switch checked={!field.hidden} onCheckedChange={(shown) => onChange({ hidden: !shown }, 'hidden')} />
			</Field>
		</div>
	)
}
