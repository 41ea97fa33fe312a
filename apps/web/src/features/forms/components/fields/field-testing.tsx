import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { type ComponentType, useState } from 'react'
import type { FieldProps, UploadFile } from './field-frame.tsx'
import type { DraftValue } from './field-values.ts'

// For the field components' tests: one field with its value kept as the form keeps it, and the
// value shown as JSON to assert on.

export function FieldHarness(props: {
	field: PublicField
	component: ComponentType<FieldProps>
	initial: DraftValue
	upload?: UploadFile
	onBusyChange?: (isBusy: boolean) => void
	error?: string
}) {
	const [value, setValue] = useState<DraftValue>(props.initial)
	const Component = props.component
	return (
		<>
			<Component
				field={props.field}
				value={value}
				onChange={setValue}
				error={props.error}
				controlId="q"
				upload={props.upload}
				onBusyChange={props.onBusyChange}
			/>
			<output data-testid="value">{JSON.stringify(value)}</output>
		</>
	)
}

export function shownValue(element: HTMLElement): unknown {
	return JSON.parse(element.textContent ?? 'null')
}
