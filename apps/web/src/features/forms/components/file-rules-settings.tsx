import { defaultFileRules, fileRulesOf, maxFormFileBytes, maxFormFiles } from '@blocksmith/contracts/form-files.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import { useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'

// A file field's limits in the builder: how many files, how large, which types. The server
// enforces the same limits when a visitor uploads and again when the answer arrives.

const megabyte = 1024 * 1024

/** Common choices of types, added to the list with one click. */
const typePresets: { label: string; types: string[] }[] = [
	{ label: 'Images', types: ['image/*'] },
	{ label: 'PDF', types: ['.pdf'] },
	{ label: 'Documents', types: ['.doc', '.docx', '.odt', '.txt', '.md'] },
	{ label: 'Spreadsheets', types: ['.xls', '.xlsx', '.ods', '.csv'] },
]

function parseTypes(text: string): string[] {
	return [
		...new Set(
			text
				.split(/[\s,]+/)
				.map((entry) => entry.trim().toLowerCase())
				.filter(Boolean),
		),
	]
}

export function FileRulesSettings({
	field,
	errorOf,
	onChange,
}: {
	field: FormField
	/** The error of a path under `fileRules`, e.g. `maxFiles`. */
	errorOf: (key: string) => string | undefined
	onChange: (fileRules: FormField['fileRules'], path: string) => void
}) {
	const rules = fileRulesOf(field)
	// Typed as text, so "2." or an empty box can be on the way to a number.
	const [sizeText, setSizeText] = useState(String(rules.maxFileBytes / megabyte))
	const [typesText, setTypesText] = useState(rules.accept.join(', '))
	const set = (changes: Partial<typeof rules>, path: string) =>
		onChange({ ...defaultFileRules, ...field.fileRules, ...changes }, `fileRules.${path}`)

	return (
		<div className="grid gap-4 rounded-lg border p-4">
			<p className="font-medium text-sm">Files</p>
			<div className="grid gap-4 sm:grid-cols-2">
				<Field label="Most files" description={`1 to ${maxFormFiles}.`} error={errorOf('maxFiles')}>
					<Input
						type="number"
						min={1}
						max={maxFormFiles}
						step={1}
						value={rules.maxFiles}
						onChange={(event) => {
							const count = Math.round(Number(event.target.value))
							if (Number.isFinite(count) && count >= 1) {
								set({ maxFiles: Math.min(count, maxFormFiles) }, 'maxFiles')
							}
						}}
					/>
				</Field>
				<Field
					label="Largest file (MB)"
					description={`Up to ${maxFormFileBytes / megabyte} MB, Notion's limit for one upload.`}
					error={errorOf('maxFileBytes')}
				>
					<Input
						inputMode="decimal"
						value={sizeText}
						onChange={(event) => {
							setSizeText(event.target.value)
							const size = Number(event.target.value.replace(',', '.'))
							if (Number.isFinite(size) && size > 0) {
								const bytes = Math.round(Math.min(size * megabyte, maxFormFileBytes))
								set({ maxFileBytes: Math.max(bytes, 1024) }, 'maxFileBytes')
							}
						}}
					/>
				</Field>
			</div>
			<Field
				label="Accepted types"
				description="Extensions (.pdf) or types (image/*), separated by commas. Empty accepts every type we store."
				error={errorOf('accept')}
			>
				<Input
					value={typesText}
					placeholder="Any type"
					autoCapitalize="none"
					spellCheck={false}
					onChange={(event) => {
						setTypesText(event.target.value)
						set({ accept: parseTypes(event.target.value) }, 'accept')
					}}
				/>
			</Field>
			<div className="flex flex-wrap gap-2">
				{typePresets.map((preset) => (
					<Button
						key={preset.label}
						size="sm"
						variant="outline"
						onClick={() => {
							const accept = [...new Set([...rules.accept, ...preset.types])]
							setTypesText(accept.join(', '))
							set({ accept }, 'accept')
						}}
					>
						+ {preset.label}
					</Button>
				))}
			</div>
		</div>
	)
}
