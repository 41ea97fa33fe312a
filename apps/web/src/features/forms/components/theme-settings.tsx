import type { FormFont } from '@blocksmith/contracts/form-theme.ts'
import type { FormTheme } from '@blocksmith/contracts/forms.ts'
import { useId, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import type { DraftErrors } from '../lib/draft.ts'
import { ImagePicker, type LocalUploads } from './page-settings.tsx'

// How the public page looks: mode, colours, font, corners, logo and cover, the author's CSS
// (confined to the form by the server) and the "Made with Blocksmith" line.

type ThemeSettingsProps = {
	theme: FormTheme
	/** The custom CSS as saved: the preview shows it once saved. */
	savedCss: string | null
	errors: DraftErrors
	uploads: LocalUploads
	onUploaded: (blobId: string, file: { name: string; url: string }) => void
	onChange: (changes: Partial<FormTheme>, path: string) => void
}

const modes: { value: FormTheme['mode']; label: string }[] = [
	{ value: 'auto', label: "Visitor's system" },
	{ value: 'light', label: 'Light' },
	{ value: 'dark', label: 'Dark' },
]
const fonts: { value: FormFont; label: string }[] = [
	{ value: 'default', label: 'Sans-serif' },
	{ value: 'serif', label: 'Serif' },
	{ value: 'mono', label: 'Monospace' },
	{ value: 'rounded', label: 'Rounded' },
]
const corners: { value: FormTheme['corners']; label: string }[] = [
	{ value: 'rounded', label: 'Rounded' },
	{ value: 'square', label: 'Square' },
]

function Choices<T extends string>({
	legend,
	name,
	value,
	options,
	onChange,
}: {
	legend: string
	name: string
	value: T
	options: { value: T; label: string }[]
	onChange: (value: T) => void
}) {
	const id = useId()
	return (
		<fieldset className="grid gap-2">
			<legend className="mb-2 font-medium text-sm leading-none">{legend}</legend>
			<div className="flex flex-wrap gap-x-5 gap-y-2">
				{options.map((option) => (
					<label key={option.value} className="flex items-center gap-2 text-sm">
						<input
							type="radio"
							name={`${id}-${name}`}
							value={option.value}
							checked={value === option.value}
							className="size-4 accent-primary"
							onChange={() => onChange(option.value)}
						/>
						{option.label}
					</label>
				))}
			</div>
		</fieldset>
	)
}

/** A colour by picker or by hex code, or none (the page's own). */
function ColorField({
	label,
	description,
	value,
	fallback,
	error,
	onChange,
}: {
	label: string
	description: string
	value: string | null
	fallback: string
	error: string | undefined
	onChange: (value: string | null) => void
}) {
	const [text, setText] = useState(value ?? '')
	return (
		<Field label={label} description={description} error={error}>
			<div className="flex items-center gap-2">
				<input
					type="color"
					aria-label={`${label}: pick`}
					value={value ?? fallback}
					className="h-9 w-12 shrink-0 cursor-pointer rounded-md border border-input bg-background p-1"
					onChange={(event) => {
						setText(event.target.value)
						onChange(event.target.value)
					}}
				/>
				<Input
					value={text}
					placeholder="Default"
					maxLength={7}
					spellCheck={false}
					className="max-w-32 font-mono"
					onChange={(event) => {
						const next = event.target.value.trim()
						setText(next)
						onChange(next === '' ? null : next)
					}}
				/>
				{value ? (
					<Button
						variant="ghost"
						size="sm"
						onClick={() => {
							setText('')
							onChange(null)
						}}
					>
						Reset<span className="sr-only"> {label.toLowerCase()}</span>
					</Button>
				) : null}
			</div>
		</Field>
	)
}

export function ThemeSettings({ theme, savedCss, errors, uploads, onUploaded, onChange }: ThemeSettingsProps) {
	const isCssSaved = (theme.customCss ?? '') === (savedCss ?? '')
	return (
		<section className="grid gap-5" aria-labelledby="theme-heading">
			<div className="grid gap-0.5">
				<h2 id="theme-heading" className="font-semibold text-base">
					Theme
				</h2>
				<p className="text-muted-foreground text-sm">How the public page looks, embedded or on its own.</p>
			</div>
			<Choices
				legend="Mode"
				name="mode"
				value={theme.mode}
				options={modes}
				onChange={(mode) => onChange({ mode }, 'theme.mode')}
			/>
			<div className="grid gap-4 sm:grid-cols-2">
				<ColorField
					label="Accent colour"
					description="Buttons, ticks and focus rings; their text turns black or white to stay readable."
					value={theme.accentColor}
					fallback="#4338ca"
					error={errors['theme.accentColor']}
					onChange={(accentColor) => onChange({ accentColor }, 'theme.accentColor')}
				/>
				<ColorField
					label="Background colour"
					description="Around the form."
					value={theme.backgroundColor}
					fallback="#f4f4f5"
					error={errors['theme.backgroundColor']}
					onChange={(backgroundColor) => onChange({ backgroundColor }, 'theme.backgroundColor')}
				/>
			</div>
			<Choices
				legend="Font"
				name="font"
				value={theme.font}
				options={fonts}
				onChange={(font) => onChange({ font }, 'theme.font')}
			/>
			<Choices
				legend="Corners"
				name="corners"
				value={theme.corners}
				options={corners}
				onChange={(value) => onChange({ corners: value }, 'theme.corners')}
			/>
			<ImagePicker
				name="Logo"
				description="Shown above the title; a square image looks best."
				image={theme.logo}
				error={errors['theme.logo']}
				uploads={uploads}
				onUploaded={onUploaded}
				onChange={(logo) => onChange({ logo }, 'theme.logo')}
				isSquare
			/>
			<ImagePicker
				name="Cover"
				description="Across the top of the form; 1600 × 400 pixels or so."
				image={theme.cover}
				error={errors['theme.cover']}
				uploads={uploads}
				onUploaded={onUploaded}
				onChange={(cover) => onChange({ cover }, 'theme.cover')}
			/>
			<Field
				label="Custom CSS"
				description={
					<>
						Applies inside the form only: <code>body</code> and <code>:root</code> mean the form itself. No{' '}
						<code>@import</code>, no nested rules, and <code>url()</code> only with <code>data:</code> images or fonts.
						{isCssSaved ? null : ' The preview shows it once saved.'}
					</>
				}
				error={errors['theme.customCss']}
			>
				<Textarea
					rows={6}
					maxLength={20_000}
					spellCheck={false}
					className="font-mono text-xs"
					placeholder={'h1 { letter-spacing: -0.02em; }'}
					value={theme.customCss ?? ''}
					onChange={(event) => onChange({ customCss: event.target.value || null }, 'theme.customCss')}
				/>
			</Field>
			<Field
				label="Remove branding"
				description='Hides "Made with Blocksmith" under the form.'
				orientation="horizontal"
				error={errors['theme.removeBranding']}
			>
				<Switch
					checked={theme.removeBranding}
					onCheckedChange={(removeBranding) => onChange({ removeBranding }, 'theme.removeBranding')}
				/>
			</Field>
		</section>
	)
}
