import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { Field } from '#src/components/ui/field.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { CalculationEditor } from '../calculation-editor.tsx'

type CalculatedSettingsProps = {
	field: FormField
	fields: readonly FormField[]
	properties: Property[]
	error: (key: string) => string | undefined
	onChange: (changes: Partial<FormField>, path: string) => void
}

/** A calculated field: how it is worked out, and whether visitors see the result as they answer. */
export function CalculatedSettings({ field, fields, properties, error, onChange }: CalculatedSettingsProps) {
	// The editor shows each step's problems in place; these are about the calculation as a whole.
	const whole = [error('calculation'), error('calculation.steps')].filter((message) => message !== undefined)
	return (
		<div className="grid gap-4">
			<CalculationEditor
				field={field}
				fields={[...fields]}
				properties={properties}
				error={error}
				onChange={(calculation) => onChange({ calculation }, 'calculation')}
			/>
			{whole.length ? (
				<ul className="grid gap-1 text-[13px] text-error">
					{whole.map((message) => (
						<li key={message}>{message}</li>
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
