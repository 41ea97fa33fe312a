import type { Chart, ChartEmbed } from '@blocksmith/contracts/charts.ts'
import { useMutation } from '@tanstack/react-query'
import { Copy, Download, ExternalLink } from 'lucide-react'
import { useId } from 'react'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Select } from '#src/components/ui/select.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { downloadChart, type ExportFormat } from '../api/charts.ts'
import type { ChartErrors } from '../lib/chart-config.ts'
import { chartPaths, embedChartUrl, publicChartUrl } from '../lib/chart-paths.ts'
import { copyLink } from './chart-actions.tsx'
import { SettingsSection } from './setting-controls.tsx'

const refreshChoices = [
	{ value: 'never', label: 'Never' },
	{ value: '300', label: 'Every 5 minutes' },
	{ value: '900', label: 'Every 15 minutes' },
	{ value: '3600', label: 'Every hour' },
	{ value: '86400', label: 'Every day' },
]

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
	const refresh = embed.refreshSeconds === null ? 'never' : String(embed.refreshSeconds)
	return (
		<div className="grid gap-8">
			<SettingsSection title="Publish">
				<Field
					label="Published"
					description="Anyone with the link can see the chart and its figures — never the rows behind them."
					orientation="horizontal"
				>
					<Switch
						checked={chart.published}
						disabled={isPublishing || !chart.databaseId}
						aria-busy={isPublishing || undefined}
						onCheckedChange={onPublishedChange}
					/>
				</Field>
				{chart.published ? (
					<div className="grid gap-4">
						<LinkField label="Public link" url={publicChartUrl(chart.id)} what="public link" />
						<LinkField label="Embed link" url={embedChartUrl(chart.id)} what="embed link" />
						<Alert variant="info" title="Put it in Notion">
							Copy the embed link, type <span className="font-mono">/embed</span> in a Notion page, paste the link and
							press Embed link. The chart follows the page's light or dark appearance.
						</Alert>
						<div>
							<Button asChild variant="outline" size="sm">
								<a href={chartPaths.public(chart.id)} target="_blank" rel="noreferrer">
									<ExternalLink aria-hidden /> Open public page
								</a>
							</Button>
						</div>
					</div>
				) : (
					<p className="text-muted-foreground text-sm">Publish the chart to get its link and embed it in Notion.</p>
				)}
			</SettingsSection>

			<SettingsSection title="Embed" description="How the published chart shows on other pages.">
				<div className="grid gap-4 sm:grid-cols-2">
					<Field label="Theme" error={errors['embed.theme']}>
						<Select
							value={embed.theme}
							options={[
								{ value: 'auto', label: "Follow the viewer's (and Notion's)" },
								{ value: 'light', label: 'Light' },
								{ value: 'dark', label: 'Dark' },
							]}
							onValueChange={(value) => set({ theme: value as ChartEmbed['theme'] }, 'theme')}
						/>
					</Field>
					<Field label="Reload the figures" error={errors['embed.refreshSeconds']}>
						<Select
							value={refreshChoices.some((choice) => choice.value === refresh) ? refresh : 'never'}
							options={refreshChoices}
							onValueChange={(value) =>
								set({ refreshSeconds: value === 'never' ? null : Number(value) }, 'refreshSeconds')
							}
						/>
					</Field>
				</div>
				<Field
					label="Transparent background"
					description="Takes the colour of the page around it."
					orientation="horizontal"
				>
					<Switch checked={embed.transparent} onCheckedChange={(transparent) => set({ transparent }, 'transparent')} />
				</Field>
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
				<Button variant="outline" size="sm" className="h-9" onClick={() => void copyLink(url, what)}>
					<Copy aria-hidden /> Copy
					<span className="sr-only"> {what}</span>
				</Button>
			</div>
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
