import { type ChartDisplay, type ChartNumberFormat, palettes } from '@blocksmith/contracts/charts.ts'
import { cn } from '#src/components/ui/cn.ts'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Select } from '#src/components/ui/select.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { paletteSwatches } from '../lib/chart-format.ts'
import { OptionalNumberInput, type SettingsProps, SettingsSection } from './setting-controls.tsx'

const legendLabels: Record<ChartDisplay['legend'], string> = {
	auto: 'Automatic',
	top: 'Top',
	bottom: 'Bottom',
	right: 'Right',
	none: 'Hidden',
}

/** How the figures are drawn: title, colours, axes, legend, numbers, size. */
export function StyleSettings({ config, errors, onChange }: Omit<SettingsProps, 'properties'>) {
	const display = config.display
	const set = (changes: Partial<ChartDisplay>, path: string) =>
		onChange({ ...config, display: { ...display, ...changes } }, `display.${path}`)
	const setFormat = (changes: Partial<ChartNumberFormat>, path: string) =>
		set({ numberFormat: { ...display.numberFormat, ...changes } }, `numberFormat.${path}`)
	const hasAxes = config.type === 'bar' || config.type === 'line' || config.type === 'area' || config.type === 'scatter'
	return (
		<div className="grid gap-8">
			<SettingsSection title="Labels">
				<Field label="Title" description="Shown above the chart; empty shows none." error={errors['display.title']}>
					<Input
						maxLength={200}
						value={display.title ?? ''}
						onChange={(event) => set({ title: event.target.value || null }, 'title')}
					/>
				</Field>
				{hasAxes ? (
					<div className="grid gap-4 sm:grid-cols-2">
						<Field label="Horizontal axis title" error={errors['display.xAxisTitle']}>
							<Input
								maxLength={100}
								value={display.xAxisTitle ?? ''}
								onChange={(event) => set({ xAxisTitle: event.target.value || null }, 'xAxisTitle')}
							/>
						</Field>
						<Field label="Vertical axis title" error={errors['display.yAxisTitle']}>
							<Input
								maxLength={100}
								value={display.yAxisTitle ?? ''}
								onChange={(event) => set({ yAxisTitle: event.target.value || null }, 'yAxisTitle')}
							/>
						</Field>
					</div>
				) : null}
				<div className="grid gap-4 sm:grid-cols-2">
					<Field label="Legend" error={errors['display.legend']}>
						<Select
							value={display.legend}
							options={Object.entries(legendLabels).map(([value, label]) => ({ value, label }))}
							onValueChange={(legend) => set({ legend: legend as ChartDisplay['legend'] }, 'legend')}
						/>
					</Field>
					<Field label="Height" description="In pixels; the width follows the page." error={errors['display.height']}>
						<OptionalNumberInput
							min={120}
							max={2000}
							value={display.height}
							onValueChange={(height) =>
								set({ height: Math.min(2000, Math.max(120, Math.round(height ?? 360))) }, 'height')
							}
						/>
					</Field>
				</div>
				<Field label="Show values on the chart" orientation="horizontal">
					<Switch checked={display.dataLabels} onCheckedChange={(dataLabels) => set({ dataLabels }, 'dataLabels')} />
				</Field>
				{config.type === 'line' || config.type === 'area' ? (
					<Field label="Smooth curves" orientation="horizontal">
						<Switch checked={display.smooth} onCheckedChange={(smooth) => set({ smooth }, 'smooth')} />
					</Field>
				) : null}
				{config.type === 'pie' ? (
					<Field label="Ring (donut)" orientation="horizontal">
						<Switch checked={display.donut} onCheckedChange={(donut) => set({ donut }, 'donut')} />
					</Field>
				) : null}
			</SettingsSection>

			<SettingsSection title="Colours">
				<fieldset>
					<legend className="sr-only">Palette</legend>
					<div className="grid grid-cols-2 gap-2 sm:grid-cols-3">
						{palettes.map((palette) => (
							<label
								key={palette}
								className={cn(
									'flex cursor-pointer items-center justify-between gap-2 rounded-lg border bg-background px-2.5 py-2 text-[13px] transition-colors',
									'hover:bg-accent dark:bg-input/20',
									'has-checked:border-ring has-checked:bg-accent has-focus-visible:outline-2 has-focus-visible:outline-ring',
								)}
							>
								<input
									type="radio"
									name="chart-palette"
									className="sr-only"
									checked={display.palette === palette}
									onChange={() => set({ palette }, 'palette')}
								/>
								{paletteSwatches[palette].label}
								<span aria-hidden className="flex">
									{paletteSwatches[palette].colors.map((color) => (
										<span
											key={color}
											className="-ml-1 size-3.5 rounded-full border border-background first:ml-0"
											style={{ backgroundColor: color }}
										/>
									))}
								</span>
							</label>
						))}
					</div>
				</fieldset>
			</SettingsSection>

			<SettingsSection title="Numbers">
				<div className="grid gap-4 sm:grid-cols-2">
					<Field label="Format" error={errors['display.numberFormat.style']}>
						<Select
							value={display.numberFormat.style}
							options={[
								{ value: 'number', label: 'Number' },
								{ value: 'currency', label: 'Currency' },
								{ value: 'percent', label: 'Percent' },
							]}
							onValueChange={(style) => setFormat({ style: style as ChartNumberFormat['style'] }, 'style')}
						/>
					</Field>
					{display.numberFormat.style === 'currency' ? (
						<Field label="Currency" error={errors['display.numberFormat.currency']}>
							<Input
								maxLength={3}
								className="uppercase"
								value={display.numberFormat.currency}
								onChange={(event) => setFormat({ currency: event.target.value.toUpperCase() }, 'currency')}
							/>
						</Field>
					) : null}
					<Field
						label="Decimals"
						description="Empty: as the value needs, at most 2."
						error={errors['display.numberFormat.decimals']}
					>
						<OptionalNumberInput
							min={0}
							max={6}
							placeholder="Auto"
							value={display.numberFormat.decimals}
							onValueChange={(decimals) =>
								setFormat(
									{ decimals: decimals === null ? null : Math.min(6, Math.max(0, Math.round(decimals))) },
									'decimals',
								)
							}
						/>
					</Field>
				</div>
				<Field label="Short numbers (1.2K, 3.4M)" orientation="horizontal">
					<Switch
						checked={display.numberFormat.compact}
						onCheckedChange={(compact) => setFormat({ compact }, 'compact')}
					/>
				</Field>
			</SettingsSection>
		</div>
	)
}
