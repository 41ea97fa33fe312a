import type { Dashboard, DashboardEmbed } from '@blocksmith/contracts/charts.ts'
import { Field } from '#src/components/ui/field.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { dashboardPaths, embedDashboardUrl, publicDashboardUrl } from '../api/dashboards.ts'
import { SettingsSection } from './setting-controls.tsx'
import { EmbedLookFields, PublishSection } from './share-controls.tsx'

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
	return (
		<div className="grid max-w-2xl gap-8">
			<PublishSection
				noun="dashboard"
				isPublished={dashboard.published}
				description="Anyone with the link sees every chart on the dashboard and its figures — never the rows behind them — even charts that are not published on their own."
				isDisabled={isPublishing}
				isPublishing={isPublishing}
				onPublishedChange={onPublishedChange}
				publicUrl={publicDashboardUrl(dashboard.id)}
				embedUrl={embedDashboardUrl(dashboard.id)}
				publicPath={dashboardPaths.public(dashboard.id)}
				copyLabel={(what) => `Copy the ${what}`}
			/>

			<SettingsSection
				title="Embed"
				description="How the published dashboard shows on other pages; it applies to every chart on it."
			>
				<EmbedLookFields embed={embed} errors={errors} onChange={(changes) => set(changes)} />
				<Field label="Show the titles" description="The dashboard's and each chart's." orientation="horizontal">
					<Switch checked={embed.showTitle} onCheckedChange={(showTitle) => set({ showTitle })} />
				</Field>
			</SettingsSection>
		</div>
	)
}
