import type { FormLayout } from '@blocksmith/contracts/forms.ts'
import { useId } from 'react'
import { Field } from '#src/components/ui/field.tsx'
import { Switch } from '#src/components/ui/switch.tsx'

type LayoutSettingsProps = {
	layout: FormLayout
	onChange: (layout: FormLayout, path: string) => void
}

const displays: [FormLayout['display'], string, string][] = [
	['classic', 'Classic (pages)', 'The questions of a page together; page breaks split the form, with Back and Next.'],
	[
		'one_at_a_time',
		'One question at a time',
		'Each question on a screen of its own, moved through with Enter and the arrow keys.',
	],
]

/** How the page presents the questions, and whether it shows how far the visitor is. */
export function LayoutSettings({ layout, onChange }: LayoutSettingsProps) {
	const id = useId()
	return (
		<section className="grid gap-4" aria-labelledby={`${id}-heading`}>
			<div className="grid gap-0.5">
				<h3 id={`${id}-heading`} className="font-semibold text-sm">
					Layout
				</h3>
				<p className="text-muted-foreground text-sm">How visitors move through the questions.</p>
			</div>
			<fieldset className="grid gap-2">
				<legend className="sr-only">Layout</legend>
				{displays.map(([display, label, hint]) => (
					<label key={display} className="flex items-start gap-2 text-sm">
						<input
							type="radio"
							name={`${id}-display`}
							value={display}
							checked={layout.display === display}
							className="mt-0.5 size-4 accent-primary"
							onChange={() => onChange({ ...layout, display }, 'layout.display')}
						/>
						<span>
							{label}
							<span className="block text-muted-foreground text-xs">{hint}</span>
						</span>
					</label>
				))}
			</fieldset>
			<Field
				label="Show progress"
				description={
					layout.display === 'classic'
						? 'A bar and “Page 2 of 3” above the form (with more than one page).'
						: 'A bar and “3 of 12” above each question.'
				}
				orientation="horizontal"
			>
				<Switch
					checked={layout.showProgress}
					onCheckedChange={(showProgress) => onChange({ ...layout, showProgress }, 'layout.showProgress')}
				/>
			</Field>
		</section>
	)
}
