import type { Chart, ChartEmbed } from '@blocksmith/contracts/charts.ts'
import { useMutation } from '@tanstack/react-query'
import { Download } from 'lucide-react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { downloadChart, type ExportFormat } from '../api/charts.ts'
import type { ChartErrors } from '../lib/chart-config.ts'
import { chartPaths, embedChartUrl, publicChartUrl } from '../lib/chart-paths.ts'
import { SettingsSection } from './setting-controls.tsx'
import { EmbedLookFields, PublishSection } from './share-controls.tsx'

type ShareSettingsProps = {
	chart: Chart
	embed: ChartEmbed
	errors: ChartErrors
	onEmbedChange: (embed: ChartEmbed, path: string) => void
	/** Applies at once (saving the other changes with it, as the forms' Publish does). */
	onPublishedChange: (published: boolean) => void
	isPublishing: boolean
	isDirty: boolean
	theme: 'light' | 'dark'
	width: number
}

/** Publishing, the public link and embed, and downloads. */
export function ShareSettings({
	chart,
	embed,
	errors,
	onEmbedChange,
	onPublishedChange,
	isPublishing,
	isDirty,
	theme,
	width,
}: ShareSettingsProps) {
	const set = (changes: Partial<ChartEmbed>, path: string) => onEmbedChange({ ...embed, ...changes }, `embed.${path}`)
	return (
		<div className="grid gap-8">
			<PublishSection
				noun="chart"
				isPublished={chart.published}
				description="Anyone with the link can see the chart and its figures — never the rows behind them."
				isDisabled={isPublishing || !chart.databaseId}
				isPublishing={isPublishing}
				onPublishedChange={onPublishedChange}
				publicUrl={publicChartUrl(chart.id)}
				embedUrl={embedChartUrl(chart.id)}
				publicPath={chartPaths.public(chart.id)}
				copyLabel={(what) => `Copy ${what}`}
			/>

			<SettingsSection title="Embed" description="How the published chart shows on other pages.">
				<EmbedLookFields embed={embed} errors={errors} onChange={set} />
				<Field label="Show the title" orientation="horizontal">
					<Switch checked={embed.showTitle} onCheckedChange={(showTitle) => set({ showTitle }, 'showTitle')} />
				</Field>
				<Field
					label="Allow downloads"
					description="PNG, SVG and CSV of the figures on the public page."
					orientation="horizontal"
				>
					<Switch
						checked={embed.allowDownloads}
						onCheckedChange={(allowDownloads) => set({ allowDownloads }, 'allowDownloads')}
					/>
				</Field>
			</SettingsSection>

			<Downloads chart={chart} isDirty={isDirty} theme={theme} width={width} />
		</div>
	)
}

function Downloads({
	chart,
	isDirty,
	theme,
	width,
}: Pick<ShareSettingsProps, 'chart' | 'isDirty' | 'theme' | 'width'>) {
	const download = useMutation({
		mutationFn: downloadChart,
		onError: (error) => toast.error(errorMessage(error)),
	})
	const formats: { format: ExportFormat; label: string }[] = [
		{ format: 'png', label: 'PNG' },
		{ format: 'svg', label: 'SVG' },
		{ format: 'csv', label: 'CSV' },
	]
	return (
		<SettingsSection
			title="Download"
			description={
				isDirty
					? 'Downloads show the chart as last saved: save first to include your changes.'
					: 'The chart as an image, or its figures as a spreadsheet.'
			}
		>
			<div className="flex flex-wrap gap-2">
				{formats.map(({ format, label }) => (
					<Button
						key={format}
						variant="outline"
						size="sm"
						disabled={!chart.databaseId}
						isLoading={download.isPending && download.variables?.format === format}
						onClick={() => download.mutate({ chart, format, theme, width })}
					>
						<Download aria-hidden /> {label}
					</Button>
				))}
			</div>
		</SettingsSection>
	)
}
