import {
	aggregations,
	type ChartConfig,
	type ChartNumberFormat,
	type ChartSeries,
	type ChartX,
	dateBuckets,
	maxSeries,
	type SeriesCompare,
	type SeriesTransform,
	type XSort,
} from '@blocksmith/contracts/charts.ts'
import { Plus, X } from 'lucide-react'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Select } from '#src/components/ui/select.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import {
	aggregationLabels,
	compareLabels,
	findProperty,
	isDateLike,
	isNumberValued,
	needsNumber,
	newSeries,
	type PropertyChoice,
	transformLabels,
	typeChoiceOf,
	typeChoices,
	typeLabels,
	withAggregation,
	withTypeChoice,
} from '../lib/chart-config.ts'
import { chartTypeIcon } from './chart-type-icon.tsx'
import { SeriesFormatField } from './series-format.tsx'
import {
	OptionalNumberInput,
	PropertySelect,
	Segmented,
	type SettingsProps,
	SettingsSection,
} from './setting-controls.tsx'

const bucketLabels = { day: 'Day', week: 'Week', month: 'Month', quarter: 'Quarter', year: 'Year' } as const

const sortLabels: Record<XSort, string> = {
	label_asc: 'Label, A → Z (or oldest first)',
	label_desc: 'Label, Z → A (or newest first)',
	value_asc: 'Value, smallest first',
	value_desc: 'Value, largest first',
}

/** What x is called for each type: the axis of a bar chart is the slices of a pie. */
function groupLabel(type: ChartConfig['type']): string {
	switch (type) {
		case 'pie':
			return 'Slices by'
		case 'table':
			return 'Rows by'
		case 'scatter':
			return 'Horizontal value'
		default:
			return 'Group by'
	}
}

/** Type, grouping, series and breakdown: how rows become figures. */
export function DataSettings({ config, properties, errors, onChange }: SettingsProps) {
	const hasSeveral = config.series.length > 1 || config.breakdown !== null
	return (
		<div className="grid gap-8">
			<SettingsSection title="Chart type">
				<TypePicker config={config} onChange={onChange} />
				{config.type === 'bar' ? (
					<Segmented
						legend="Bars"
						value={config.display.orientation}
						options={[
							{ value: 'vertical', label: 'Vertical' },
							{ value: 'horizontal', label: 'Horizontal' },
						]}
						onValueChange={(orientation) =>
							onChange({ ...config, display: { ...config.display, orientation } }, 'display.orientation')
						}
					/>
				) : null}
				{(config.type === 'bar' || config.type === 'area') && hasSeveral ? (
					<Segmented
						legend="Several series"
						value={config.display.stacking}
						options={[
							{ value: 'grouped', label: config.type === 'bar' ? 'Side by side' : 'Overlapping' },
							{ value: 'stacked', label: 'Stacked' },
							{ value: 'percent', label: '100 %' },
						]}
						onValueChange={(stacking) =>
							onChange({ ...config, display: { ...config.display, stacking } }, 'display.stacking')
						}
					/>
				) : null}
			</SettingsSection>
			{config.type === 'number' ? null : (
				<XSettings config={config} properties={properties} errors={errors} onChange={onChange} />
			)}
			<SeriesSettings config={config} properties={properties} errors={errors} onChange={onChange} />
			{config.type === 'number' || config.type === 'pie' ? null : (
				<BreakdownSettings config={config} properties={properties} errors={errors} onChange={onChange} />
			)}
		</div>
	)
}

function TypePicker({ config, onChange }: Pick<SettingsProps, 'config' | 'onChange'>) {
	const current = typeChoiceOf(config)
	return (
		<fieldset>
			<legend className="sr-only">Chart type</legend>
			<div className="grid grid-cols-4 gap-2">
				{typeChoices.map((choice) => {
					const Icon = chartTypeIcon(choice, config.display.orientation)
					return (
						<label
							key={choice}
							className={cn(
								'flex cursor-pointer flex-col items-center gap-1.5 rounded-lg border bg-background px-2 py-2.5 text-[13px] text-muted-foreground transition-colors',
								'hover:bg-accent hover:text-accent-foreground dark:bg-input/20',
								'has-checked:border-ring has-checked:bg-accent has-checked:text-foreground has-focus-visible:outline-2 has-focus-visible:outline-ring',
							)}
						>
							<input
								type="radio"
								name="chart-type"
								className="sr-only"
								checked={current === choice}
								onChange={() => onChange(withTypeChoice(config, choice), 'type')}
							/>
							<Icon aria-hidden className="size-5" />
							{typeLabels[choice]}
						</label>
					)
				})}
			</div>
		</fieldset>
	)
}

const newX = (property: string): ChartX => ({
	property,
	bucket: 'month',
	rangeSize: null,
	sort: 'label_asc',
	hideEmpty: false,
	limit: null,
})

function XSettings({ config, properties, errors, onChange }: SettingsProps) {
	const x = config.x
	const choices = config.type === 'scatter' ? properties.filter(isNumberValued) : properties
	const property = findProperty(properties, x?.property)
	const change = (changes: Partial<ChartX>, path: string) =>
		x ? onChange({ ...config, x: { ...x, ...changes } }, `x.${path}`) : undefined
	return (
		<SettingsSection
			title={config.type === 'scatter' ? 'Points' : 'Grouping'}
			description={
				config.type === 'scatter'
					? 'One point per row: this number across, the first series up.'
					: 'Which property splits the rows into groups.'
			}
		>
			<Field label={groupLabel(config.type)} error={errors['x.property'] ?? errors.x} isRequired>
				<PropertySelect
					value={x?.property}
					properties={choices}
					onValueChange={(id) =>
						onChange({ ...config, x: x ? { ...x, property: id, rangeSize: null } : newX(id) }, 'x.property')
					}
				/>
			</Field>
			{x && property && isDateLike(property) && config.type !== 'scatter' ? (
				<Field label="Date bucket" error={errors['x.bucket']}>
					<Select
						value={x.bucket}
						options={dateBuckets.map((bucket) => ({ value: bucket, label: bucketLabels[bucket] }))}
						onValueChange={(bucket) => change({ bucket: bucket as ChartX['bucket'] }, 'bucket')}
					/>
				</Field>
			) : null}
			{x && property && isNumberValued(property) && config.type !== 'scatter' ? (
				<Field
					label="Range size"
					description="Groups numbers in ranges this wide (0–10, 10–20, …). Empty: one group per value."
					error={errors['x.rangeSize']}
				>
					<OptionalNumberInput
						min={0}
						step="any"
						placeholder="Each value"
						value={x.rangeSize}
						onValueChange={(rangeSize) =>
							change({ rangeSize: rangeSize && rangeSize > 0 ? rangeSize : null }, 'rangeSize')
						}
					/>
				</Field>
			) : null}
			{x && config.type !== 'scatter' ? (
				<>
					<div className="grid gap-4 sm:grid-cols-2">
						<Field label="Sort" error={errors['x.sort']}>
							<Select
								value={x.sort}
								options={Object.entries(sortLabels).map(([value, label]) => ({ value, label }))}
								onValueChange={(sort) => change({ sort: sort as XSort }, 'sort')}
							/>
						</Field>
						<Field label="Show at most" description="Groups, after sorting." error={errors['x.limit']}>
							<OptionalNumberInput
								min={1}
								max={1000}
								placeholder="All"
								value={x.limit}
								onValueChange={(limit) =>
									change({ limit: limit === null ? null : Math.max(1, Math.round(limit)) }, 'limit')
								}
							/>
						</Field>
					</div>
					<Field
						label="Hide empty groups"
						description="Leaves out groups without rows (dates between the first and last otherwise show as zero)."
						orientation="horizontal"
					>
						<Switch checked={x.hideEmpty} onCheckedChange={(hideEmpty) => change({ hideEmpty }, 'hideEmpty')} />
					</Field>
				</>
			) : null}
		</SettingsSection>
	)
}

function SeriesSettings({ config, properties, errors, onChange }: SettingsProps) {
	const setSeries = (series: ChartSeries[], path: string) => onChange({ ...config, series }, path)
	const isFull = config.series.length >= maxSeries
	return (
		<SettingsSection
			title="Series"
			description={config.type === 'number' ? 'The number shown.' : 'What is counted or summed in each group.'}
			aside={
				<Button
					variant="outline"
					size="sm"
					disabled={isFull}
					title={isFull ? `A chart has at most ${maxSeries} series.` : undefined}
					onClick={() => setSeries([...config.series, newSeries(config.series)], 'series')}
				>
					<Plus aria-hidden /> Add series
				</Button>
			}
		>
			{errors.series ? <p className="text-[13px] text-error">{errors.series}</p> : null}
			<ol className="grid gap-3">
				{config.series.map((series, index) => (
					<li key={series.id}>
						<SeriesEditor
							series={series}
							index={index}
							properties={properties}
							errors={errors}
							canRemove={config.series.length > 1}
							chartFormat={config.display.numberFormat}
							onChange={(next, path) =>
								setSeries(
									config.series.map((item, position) => (position === index ? next : item)),
									`series.${index}.${path}`,
								)
							}
							onRemove={() =>
								setSeries(
									config.series.filter((_, position) => position !== index),
									'series',
								)
							}
						/>
					</li>
				))}
			</ol>
		</SettingsSection>
	)
}

type SeriesEditorProps = {
	series: ChartSeries
	index: number
	properties: PropertyChoice[]
	errors: SettingsProps['errors']
	canRemove: boolean
	chartFormat: ChartNumberFormat
	onChange: (series: ChartSeries, path: string) => void
	onRemove: () => void
}

function SeriesEditor({
	series,
	index,
	properties,
	errors,
	canRemove,
	chartFormat,
	onChange,
	onRemove,
}: SeriesEditorProps) {
	const name = `Series ${index + 1}`
	const error = (path: string) => errors[`series.${index}.${path}`]
	const choices = needsNumber(series.aggregation) ? properties.filter(isNumberValued) : properties
	return (
		<fieldset
			aria-label={name}
			className="grid gap-3 rounded-lg border p-3"
			data-invalid={Object.keys(errors).some((path) => path.startsWith(`series.${index}.`)) || undefined}
		>
			<div className="flex items-center justify-between gap-2">
				<span className="font-medium text-[13px] text-muted-foreground">{name}</span>
				{canRemove ? (
					<Button variant="ghost" size="icon-sm" aria-label={`Remove ${name.toLowerCase()}`} onClick={onRemove}>
						<X aria-hidden />
					</Button>
				) : null}
			</div>
			<div className="grid gap-3 sm:grid-cols-2">
				<Field label="Aggregation" error={error('aggregation')}>
					<Select
						value={series.aggregation}
						options={aggregations.map((aggregation) => ({ value: aggregation, label: aggregationLabels[aggregation] }))}
						onValueChange={(aggregation) =>
							onChange(withAggregation(series, aggregation as ChartSeries['aggregation'], properties), 'aggregation')
						}
					/>
				</Field>
				{series.aggregation === 'count' ? null : (
					<Field
						label="Of"
						error={error('property')}
						description={
							needsNumber(series.aggregation) && choices.length === 0
								? 'This database has no number properties.'
								: undefined
						}
						isRequired
					>
						<PropertySelect
							value={series.property}
							properties={choices}
							placeholder={needsNumber(series.aggregation) ? 'Choose a number…' : 'Choose a property…'}
							onValueChange={(property) => onChange({ ...series, property }, 'property')}
						/>
					</Field>
				)}
			</div>
			<Field label="Label" description="The legend's name; empty names it for you." error={error('label')}>
				<Input
					maxLength={100}
					placeholder={defaultSeriesLabel(series, properties)}
					value={series.label ?? ''}
					onChange={(event) => onChange({ ...series, label: event.target.value || null }, 'label')}
				/>
			</Field>
			<div className="grid gap-3 sm:grid-cols-2">
				<Field label="Show as" error={error('transform')}>
					<Select
						value={series.transform}
						options={Object.entries(transformLabels).map(([value, label]) => ({ value, label }))}
						onValueChange={(transform) => onChange({ ...series, transform: transform as SeriesTransform }, 'transform')}
					/>
				</Field>
				<Field label="Compare with" error={error('compare')}>
					<Select
						value={series.compare}
						options={Object.entries(compareLabels).map(([value, label]) => ({ value, label }))}
						onValueChange={(compare) => onChange({ ...series, compare: compare as SeriesCompare }, 'compare')}
					/>
				</Field>
			</div>
			<SeriesFormatField series={series} chartFormat={chartFormat} error={error} onChange={onChange} />
		</fieldset>
	)
}

/** "Count", "Sum of Amount": what the server names a series without a label. */
function defaultSeriesLabel(series: ChartSeries, properties: readonly PropertyChoice[]): string {
	const property = findProperty(properties, series.property)
	return series.aggregation === 'count' || !property
		? aggregationLabels[series.aggregation]
		: `${aggregationLabels[series.aggregation]} of ${property.name}`
}

function BreakdownSettings({ config, properties, errors, onChange }: SettingsProps) {
	const breakdown = config.breakdown
	return (
		<SettingsSection
			title="Breakdown"
			description="Splits each series by a second property: stacked bars, one line per value."
		>
			<Field label="Break down by" error={errors['breakdown.property'] ?? errors.breakdown}>
				<PropertySelect
					value={breakdown?.property}
					properties={properties}
					placeholder="Nothing"
					onValueChange={(property) =>
						onChange(
							{ ...config, breakdown: { topN: 10, showOther: true, ...breakdown, property } },
							'breakdown.property',
						)
					}
				/>
			</Field>
			{breakdown ? (
				<>
					<div className="grid items-end gap-4 sm:grid-cols-2">
						<Field label="Largest values shown" error={errors['breakdown.topN']}>
							<OptionalNumberInput
								min={1}
								max={50}
								value={breakdown.topN}
								onValueChange={(topN) =>
									onChange(
										{ ...config, breakdown: { ...breakdown, topN: Math.min(50, Math.max(1, Math.round(topN ?? 10))) } },
										'breakdown.topN',
									)
								}
							/>
						</Field>
						<Button
							variant="ghost"
							size="sm"
							className="w-fit"
							onClick={() => onChange({ ...config, breakdown: null }, 'breakdown')}
						>
							<X aria-hidden /> Remove breakdown
						</Button>
					</div>
					<Field label='Sum the rest as "Other"' orientation="horizontal">
						<Switch
							checked={breakdown.showOther}
							onCheckedChange={(showOther) =>
								onChange({ ...config, breakdown: { ...breakdown, showOther } }, 'breakdown.showOther')
							}
						/>
					</Field>
				</>
			) : null}
		</SettingsSection>
	)
}
