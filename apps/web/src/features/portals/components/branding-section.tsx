import type { Portal } from '@blocksmith/contracts/portals.ts'
import { type ReactNode, useId } from 'react'
import { Controller, useWatch } from 'react-hook-form'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { portalLink } from '../lib/portal-form.ts'
import { errorAt, type PortalForm } from './form-parts.ts'
import { LogoField } from './logo-field.tsx'

export function Section({
	id,
	title,
	description,
	children,
}: {
	id?: string
	title: string
	description?: ReactNode
	children: ReactNode
}) {
	return (
		<section
			id={id}
			aria-labelledby={id ? `${id}-title` : undefined}
			className="grid gap-4 rounded-xl border p-4 sm:p-5"
		>
			<div className="grid gap-1">
				<h2 id={id ? `${id}-title` : undefined} className="font-semibold text-base">
					{title}
				</h2>
				{description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
			</div>
			{children}
		</section>
	)
}

const themes = [
	{ value: 'system', label: 'As the visitor’s device' },
	{ value: 'light', label: 'Light' },
	{ value: 'dark', label: 'Dark' },
] as const

/** Name, address, logo, colours, theme, welcome text, custom domain, on or off. */
export function BrandingSection({ form, portal }: { form: PortalForm; portal: Portal }) {
	const { register } = form
	const err = (path: string) => errorAt(form, path)
	const slug = useWatch({ control: form.control, name: 'slug' })
	const accent = useWatch({ control: form.control, name: 'branding.accentColor' })
	const background = useWatch({ control: form.control, name: 'branding.backgroundColor' })
	const themeId = useId()
	return (
		<Section id="branding" title="Branding" description="What your clients see: your name, logo and colours.">
			<div className="grid items-start gap-4 sm:grid-cols-2">
				<Field label="Portal name" isRequired error={err('name')}>
					<Input {...register('name')} />
				</Field>
				<Field
					label="Address"
					isRequired
					error={err('slug')}
					description={
						<>
							Members open <span className="break-all font-medium text-foreground">{portalLink(slug)}</span>
						</>
					}
				>
					<Input autoCapitalize="none" spellCheck={false} {...register('slug')} />
				</Field>
			</div>
			<Controller
				control={form.control}
				name="branding.logoBlobId"
				render={({ field }) => (
					<LogoField
						blobId={field.value}
						savedBlobId={portal.branding.logoBlobId}
						savedUrl={portal.logoUrl}
						error={err('branding.logoBlobId')}
						onChange={field.onChange}
					/>
				)}
			/>
			<div className="grid items-start gap-4 sm:grid-cols-2">
				<ColorField
					label="Accent colour"
					description="Buttons, links and the current page."
					value={accent}
					error={err('branding.accentColor')}
					onChange={(value) => form.setValue('branding.accentColor', value, { shouldDirty: true })}
				/>
				<ColorField
					label="Background colour"
					description="Leave empty for the theme’s own."
					value={background}
					isOptional
					error={err('branding.backgroundColor')}
					onChange={(value) => form.setValue('branding.backgroundColor', value, { shouldDirty: true })}
				/>
			</div>
			<fieldset className="grid gap-2">
				<legend className="mb-1 font-medium text-sm">Light or dark</legend>
				<div className="flex flex-wrap gap-x-5 gap-y-2">
					{themes.map((theme) => (
						<label key={theme.value} className="flex items-center gap-2 text-sm" htmlFor={`${themeId}-${theme.value}`}>
							<input
								id={`${themeId}-${theme.value}`}
								type="radio"
								value={theme.value}
								className="size-4 accent-primary"
								{...register('branding.theme')}
							/>
							{theme.label}
						</label>
					))}
				</div>
			</fieldset>
			<Field
				label="Welcome text"
				description="Shown on the sign-in page and above the pages once signed in."
				error={err('branding.welcome')}
			>
				<Textarea rows={3} {...register('branding.welcome')} />
			</Field>
			<Field
				label="Custom domain"
				error={err('customDomain')}
				description="Optional, like portal.example.com. Your proxy must answer for that domain with a TLS certificate and pass requests here with the original Host header; the portal is then served at its root."
			>
				<Input
					placeholder="portal.example.com"
					autoCapitalize="none"
					spellCheck={false}
					{...register('customDomain')}
				/>
			</Field>
			<Controller
				control={form.control}
				name="isEnabled"
				render={({ field }) => (
					<Field
						orientation="horizontal"
						label="Portal is on"
						description="Off: the portal answers “not found” to everyone. Members and setup are kept."
					>
						<Switch checked={field.value} onCheckedChange={field.onChange} />
					</Field>
				)}
			/>
		</Section>
	)
}

function ColorField({
	label,
	description,
	value,
	error,
	isOptional = false,
	onChange,
}: {
	label: string
	description: string
	value: string
	error: string | undefined
	isOptional?: boolean
	onChange: (value: string) => void
}) {
	return (
		<Field
			label={label}
			description={description}
			error={error}
			labelAside={
				<input
					type="color"
					aria-label={`Pick the ${label.toLowerCase()}`}
					value={/^#[0-9a-f]{6}$/i.test(value) ? value : '#ffffff'}
					onChange={(event) => onChange(event.target.value)}
					className="h-7 w-10 cursor-pointer rounded border bg-background p-0.5"
				/>
			}
		>
			<Input
				value={value}
				placeholder={isOptional ? 'None' : '#2563eb'}
				className="font-mono"
				spellCheck={false}
				onChange={(event) => onChange(event.target.value.trim())}
			/>
		</Field>
	)
}
