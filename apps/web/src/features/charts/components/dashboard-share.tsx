import type { Dashboard, DashboardEmbed } from '@blocksmith/contracts/charts.ts'
import { Copy, ExternalLink } from 'lucide-react'
import { useId } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Select } from '#src/components/ui/select.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { dashboardPaths, embedDashboardUrl, publicDashboardUrl } from '../api/dashboards.ts'
import { copyLink } from './chart-actions.tsx'
import { SettingsSection } from './setting-controls.tsx'

const refreshChoices = [
	{ value: 'never', label: 'Never' },
	{ value: '300', label: 'Every 5 minutes' },
	{ value: '900', label: 'Every 15 minutes' },
	{ value: '3600', label: 'Every hour' },
	{ value: '86400', label: 'Every day' },
]

type DashboardShareProps = {
	dashboard: Dashboard
	embed: DashboardEmbed
	/** Save errors by path (`embed.theme`). */
	errors: Record<string, string>
	onEmbedChange: (embed: DashboardEmbed) => void
	/** Applies at once (saving the other changes with it, as the chart builder's does). */
	onPublishedChange: (published: boolean) => void
	isPublishing: boolean
}

/** Publishing, the public link and embed, and how the published page looks. */
export function DashboardShare({
	dashboard,
	embed,
	errors,
	onEmbedChange,
	onPublishedChange,
	isPublishing,
}: DashboardShareProps) {
	const set = (changes: Partial<DashboardEmbed>) => onEmbedChange({ ...embed, ...changes })
	const refresh = embed.refreshSeconds === null ? 'never' : String(embed.refreshSeconds)
	return (
		<div className="grid max-w-2xl gap-8">
			<SettingsSection title="Publish">
				<Field
					label="Published"
					description="Anyone with the link sees every chart on the dashboard and its figures — never the rows behind them — even charts that are not published on their own."
					orientation="horizontal"
				>
					<Switch
						checked={dashboard.published}
						disabled={isPublishing}
						aria-busy={isPublishing || undefined}
						onCheckedChange={onPublishedChange}
					/>
				</Field>
				{dashboard.published ? (
					<div className="grid gap-4">
						<LinkField label="Public link" url={publicDashboardUrl(dashboard.id)} what="public link" />
						<LinkField label="Embed link" url={embedDashboardUrl(dashboard.id)} what="embed link" />
						<Alert variant="info" title="Put it in Notion">
							Copy the embed link, type <span className="font-mono">/embed</span> in a Notion page, paste the link and
							press Embed link. The dashboard follows the page's light or dark appearance.
						</Alert>
						<div>
							<Button asChild variant="outline" size="sm">
								<a href={dashboardPaths.public(dashboard.id)} target="_blank" rel="noreferrer">
									<ExternalLink aria-hidden /> Open public page
								</a>
							</Button>
						</div>
					</div>
				) : (
					<p className="text-muted-foreground text-sm">Publish the dashboard to get its link and embed it in Notion.</p>
				)}
			</SettingsSection>

			<SettingsSection
				title="Embed"
				description="How the published dashboard shows on other pages; it applies to every chart on it."
			>
				<div className="grid gap-4 sm:grid-cols-2">
					<Field label="Theme" error={errors['embed.theme']}>
						<Select
							value={embed.theme}
							options={[
								{ value: 'auto', label: "Follow the viewer's (and Notion's)" },
								{ value: 'light', label: 'Light' },
								{ value: 'dark', label: 'Dark' },
							]}
							onValueChange={(value) => set({ theme: value as DashboardEmbed['theme'] })}
						/>
					</Field>
					<Field label="Reload the figures" error={errors['embed.refreshSeconds']}>
						<Select
							value={refreshChoices.some((choice) => choice.value === refresh) ? refresh : 'never'}
							options={refreshChoices}
							onValueChange={(value) => set({ refreshSeconds: value === 'never' ? null : Number(value) })}
						/>
					</Field>
				</div>
				<Field
					label="Transparent background"
					description="Takes the colour of the page around it."
					orientation="horizontal"
				>
					<Switch checked={embed.transparent} onCheckedChange={(transparent) => set({ transparent })} />
				</Field>
				<Field label="Show the titles" description="The dashboard's and each chart's." orientation="horizontal">
					<Switch checked={embed.showTitle} onCheckedChange={(showTitle) => set({ showTitle })} />
				</Field>
			</SettingsSection>
		</div>
	)
}

function LinkField({ label, url, what }: { label: string; url: string; what: string }) {
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
					aria-label={`Copy the ${what}`}
					onClick={() => void copyLink(url, what)}
				>
					<Copy aria-hidden /> Copy
				</Button>
			</div>
		</div>
	)
}
