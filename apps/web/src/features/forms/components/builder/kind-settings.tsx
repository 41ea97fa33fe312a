import type { FormField } from '@blocksmith/contracts/forms.ts'
import { useId } from 'react'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { ChoicesEditor } from './choices-editor.tsx'

type KindSettingsProps = {
	field: FormField
	error: (key: string) => string | undefined
	onChange: (changes: Partial<FormField>, path: string) => void
}

type Scale = NonNullable<FormField['scale']>
const defaultScale: Scale = { min: 1, max: 5, minLabel: null, maxLabel: null }

/** Whole numbers from `from` to `to`, as select options. */
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index)

/** What only some kinds ask: stars, a scale's range and words, choices, a matrix, a text's limit. */
export function KindSettings({ field, error, onChange }: KindSettingsProps) {
	const scale = field.scale ?? defaultScale
	const setScale = (changes: Partial<Scale>) => onChange({ scale: { ...scale, ...changes } }, 'scale')
	switch (field.kind) {
		case 'rating':
			return (
				<Field label="Number of stars" description="From 3 to 10." error={error('scale.max') ?? error('scale')}>
					<NativeSelect
						className="w-fit"
						value={scale.max}
						onChange={(event) => setScale({ min: 1, max: Number(event.target.value) })}
					>
						{range(3, 10).map((count) => (
							<option key={count} value={count}>
								{count}
							</option>
						))}
					</NativeSelect>
				</Field>
			)
		case 'scale':
			return (
				<div className="grid gap-4">
					<div className="flex flex-wrap gap-4">
						<Field label="From" error={error('scale.min') ?? error('scale')}>
							<NativeSelect
								className="w-fit"
								value={scale.min}
								onChange={(event) => setScale({ min: Number(event.target.value) })}
							>
								{range(0, 1).map((value) => (
									<option key={value} value={value}>
										{value}
									</option>
								))}
							</NativeSelect>
						</Field>
						<Field label="To" error={error('scale.max')}>
							<NativeSelect
								className="w-fit"
								value={scale.max}
								onChange={(event) => setScale({ max: Number(event.target.value) })}
							>
								{range(2, 10).map((value) => (
									<option key={value} value={value}>
										{value}
									</option>
								))}
							</NativeSelect>
						</Field>
					</div>
					<EndLabels scale={scale} error={error} onChange={setScale} />
				</div>
			)
		case 'nps':
			return (
				<div className="grid gap-3">
					<p className="text-muted-foreground text-sm">
						Visitors pick 0 to 10: how likely they are to recommend you. Only the words at the ends change.
					</p>
					<EndLabels
						scale={{ ...scale, min: 0, max: 10 }}
						placeholders={['Not at all likely', 'Extremely likely']}
						error={error}
						onChange={(changes) => onChange({ scale: { ...scale, min: 0, max: 10, ...changes } }, 'scale')}
					/>
				</div>
			)
		case 'ranking':
		case 'select':
		case 'multi_select':
			// Bound to a property, a select's choices are the property's options.
			return field.choices ? (
				<ChoicesEditor
					legend={field.kind === 'ranking' ? 'Choices to put in order' : 'Choices'}
					noun="Choice"
					items={field.choices}
					min={field.kind === 'ranking' ? 2 : 1}
					max={100}
					error={error('choices')}
					itemError={(index) => error(`choices.${index}`)}
					onChange={(choices) => onChange({ choices }, 'choices')}
				/>
			) : field.kind === 'ranking' ? (
				<p className="text-muted-foreground text-sm">Visitors put the property’s options in order.</p>
			) : null
		case 'matrix':
			return <MatrixSettings field={field} error={error} onChange={onChange} />
		case 'signature':
			return (
				<p className="text-muted-foreground text-sm">
					Visitors draw their signature with a finger, a pen or the mouse. It is kept as a PNG file
					{field.propertyId ? ' in the files property' : ' with the answer'}.
				</p>
			)
		case 'short_text':
		case 'long_text':
			return (
				<Field
					label="Maximum length"
					description="In characters; a counter shows near the input. Empty: the usual limit."
					error={error('maxLength')}
				>
					<Input
						type="number"
						className="w-32"
						min={1}
						max={20_000}
						value={field.maxLength ?? ''}
						onChange={(event) =>
							onChange({ maxLength: event.target.value === '' ? null : Number(event.target.value) }, 'maxLength')
						}
					/>
				</Field>
			)
		default:
			return null
	}
}

function EndLabels({
	scale,
	placeholders = ['', ''],
	error,
	onChange,
}: {
	scale: Scale
	placeholders?: [string, string]
	error: (key: string) => string | undefined
	onChange: (changes: Partial<Scale>) => void
}) {
	return (
		<div className="grid gap-4 sm:grid-cols-2">
			<Field label={`Label at ${scale.min}`} error={error('scale.minLabel')}>
				<Input
					maxLength={60}
					placeholder={placeholders[0]}
					value={scale.minLabel ?? ''}
					onChange={(event) => onChange({ minLabel: event.target.value || null })}
				/>
			</Field>
			<Field label={`Label at ${scale.max}`} error={error('scale.maxLabel')}>
				<Input
					maxLength={60}
					placeholder={placeholders[1]}
					value={scale.maxLabel ?? ''}
					onChange={(event) => onChange({ maxLabel: event.target.value || null })}
				/>
			</Field>
		</div>
	)
}

function MatrixSettings({ field, error, onChange }: KindSettingsProps) {
	const id = useId()
	const matrix = field.matrix ?? { rows: ['Row 1'], columns: ['Column 1', 'Column 2'], multiple: false }
	const set = (changes: Partial<typeof matrix>, path: string) => onChange({ matrix: { ...matrix, ...changes } }, path)
	return (
		<div className="grid gap-5">
			<ChoicesEditor
				legend="Rows"
				noun="Row"
				items={matrix.rows}
				max={20}
				error={error('matrix.rows') ?? error('matrix')}
				itemError={(index) => error(`matrix.rows.${index}`)}
				onChange={(rows) => set({ rows }, 'matrix.rows')}
			/>
			<ChoicesEditor
				legend="Columns"
				noun="Column"
				items={matrix.columns}
				min={2}
				max={10}
				error={error('matrix.columns')}
				itemError={(index) => error(`matrix.columns.${index}`)}
				onChange={(columns) => set({ columns }, 'matrix.columns')}
			/>
			<Field
				id={`${id}-multiple`}
				label="Several columns per row"
				description="Off, visitors pick one column in each row."
				orientation="horizontal"
			>
				<Switch checked={matrix.multiple} onCheckedChange={(multiple) => set({ multiple }, 'matrix.multiple')} />
			</Field>
		</div>
	)
}
