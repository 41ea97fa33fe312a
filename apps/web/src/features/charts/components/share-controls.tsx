import type { ChartEmbed } from '@blocksmith/contracts/charts.ts'
import { Copy, ExternalLink } from 'lucide-react'
import { useId } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Select } from '#src/components/ui/select.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { copyLink } from './chart-actions.tsx'
import { SettingsSection } from './setting-controls.tsx'

// A chart and a dashboard are published, linked and embedded the same way; these are the parts
// of their Share tabs they have in common.

const refreshChoices = [
	{ value: 'never', label: 'Never' },
	{ value: '300', label: 'Every 5 minutes' },
	{ value: '900', label: 'Every 15 minutes' },
	{ value: '3600', label: 'Every hour' },
	{ value: '86400', label: 'Every day' },
]

type PublishSectionProps = {
	/** "chart" or "dashboard". */
	noun: string
	isPublished: boolean
	description: string
	isDisabled: boolean
	isPublishing: boolean
	onPublishedChange: (published: boolean) => void
	publicUrl: string
	embedUrl: string
	publicPath: string
	/** The accessible name of a link's Copy button, from what the link is ("public link"). */
	copyLabel: (what: string) => string
}

/** The Published switch and, once published, the links to share and embed. */
export function PublishSection({
	noun,
	isPublished,
	description,
	isDisabled,
	isPublishing,
	onPublishedChange,
	publicUrl,
	embedUrl,
	publicPath,
	copyLabel,
}: PublishSectionProps) {
	return (
		<SettingsSection title="Publish">
			<Field label="Published" description={description} orientation="horizontal">
				<Switch
					checked={isPublished}
					disabled={isDisabled}
					aria-busy={isPublishing || undefined}
					onCheckedChange={onPublishedChange}
				/>
			</Field>
			{isPublished ? (
				<div className="grid gap-4">
					<LinkField label="Public link" url={publicUrl} what="public link" copyLabel={copyLabel} />
					<LinkField label="Embed link" url={embedUrl} what="embed link" copyLabel={copyLabel} />
					<Alert variant="info" title="Put it in Notion">
						Copy the embed link, type <span className="font-mono">/embed</span> in a Notion page, paste the link and
						press Embed link. The {noun} follows the page's light or dark appearance.
					</Alert>
					<div>
						<Button asChild variant="outline" size="sm">
							<a href={publicPath} target="_blank" rel="noreferrer">
								<ExternalLink aria-hidden /> Open public page
							</a>
						</Button>
					</div>
				</div>
			) : (
				<p className="text-muted-foreground text-sm">Publish the {noun} to get its link and embed it in Notion.</p>
			)}
		</SettingsSection>
	)
}

type LinkFieldProps = { label: string; url: string; what: string; copyLabel: (what: string) => string }

function LinkField({ label, url, what, copyLabel }: LinkFieldProps) {
	const id = useId()
	return (
		<div className="grid gap-1.5">
			<label htmlFor={id} className="font-medium text-sm">
				{label}
			</label>
			<div className="flex gap-2">
				<input
					id={id}
					readOnly
					value={url}
					className="h-9 min-w-0 flex-1 rounded-md border bg-muted/40 px-3 font-mono text-xs"
					onFocus={(event) => event.currentTarget.select()}
				/>
				<Button
					variant="outline"
					size="sm"
					className="h-9"
					aria-label={copyLabel(what)}
					onClick={() => void copyLink(url, what)}
				>
					<Copy aria-hidden /> Copy
				</Button>
			</div>
		</div>
	)
}

type EmbedLookFieldsProps = {
	embed: Pick<ChartEmbed, 'theme' | 'refreshSeconds' | 'transparent'>
	/** Save errors by path (`embed.theme`). */
	errors: Record<string, string | undefined>
	onChange: (changes: Partial<Pick<ChartEmbed, 'theme' | 'refreshSeconds' | 'transparent'>>, path: string) => void
}

/** Theme, reloading and background of an embed: the settings every embed has. */
export function EmbedLookFields({ embed, errors, onChange }: EmbedLookFieldsProps) {
	const refresh = embed.refreshSeconds === null ? 'never' : String(embed.refreshSeconds)
	return (
		<>
			<div className="grid gap-4 sm:grid-cols-2">
				<Field label="Theme" error={errors['embed.theme']}>
					<Select
						value={embed.theme}
						options={[
							{ value: 'auto', label: "Follow the viewer's (and Notion's)" },
							{ value: 'light', label: 'Light' },
							{ value: 'dark', label: 'Dark' },
						]}
						onValueChange={(value) => onChange({ theme: value as ChartEmbed['theme'] }, 'theme')}
					/>
				</Field>
				<Field label="Reload the figures" error={errors['embed.refreshSeconds']}>
					<Select
						value={refreshChoices.some((choice) => choice.value === refresh) ? refresh : 'never'}
						options={refreshChoices}
						onValueChange={(value) =>
							onChange({ refreshSeconds: value === 'never' ? null : Number(value) }, 'refreshSeconds')
						}
					/>
				</Field>
			</div>
			<Field
				label="Transparent background"
				description="Takes the colour of the page around it."
				orientation="horizontal"
			>
				<Switch
					checked={embed.transparent}
					onCheckedChange={(transparent) => onChange({ transparent }, 'transparent')}
				/>
			</Field>
		</>
	)
}
