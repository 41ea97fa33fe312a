import type { ChartNumberFormat, ChartSeries, SeriesNumberFormat } from '@blocksmith/contracts/charts.ts'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Select } from '#src/components/ui/select.tsx'

type SeriesFormatProps = {
	series: ChartSeries
	/** The chart's format, which a series without its own follows. */
	chartFormat: ChartNumberFormat
	error: (path: string) => string | undefined
	onChange: (series: ChartSeries, path: string) => void
}

const styleLabels: Record<SeriesNumberFormat['style'], string> = {
	number: 'Number',
	currency: 'Currency',
	percent: 'Percent',
}

/**
 * A series' own number format: "As the chart" follows the chart's (a count stays a count on a
 * chart of money), or number, currency or percent for this series alone.
 */
export function SeriesFormatField({ series, chartFormat, error, onChange }: SeriesFormatProps) {
	if (series.transform === 'percent_of_total') {
		return (
			<Field label="Format" description="A percent of total always reads as a percent.">
				<Select
					value="percent"
					options={[{ value: 'percent', label: 'Percent' }]}
					isDisabled
					onValueChange={() => {}}
				/>
			</Field>
		)
	}
	const own = series.numberFormat
	return (
		<div className="grid gap-3 sm:grid-cols-2">
			<Field label="Format" error={error('numberFormat.style')}>
				<Select
					value={own?.style ?? 'chart'}
					options={[
						{ value: 'chart', label: 'As the chart' },
						...Object.entries(styleLabels).map(([value, label]) => ({ value, label })),
					]}
					onValueChange={(style) =>
						onChange(
							{
								...series,
								numberFormat:
									style === 'chart'
										? null
										: {
												style: style as SeriesNumberFormat['style'],
												currency: own?.currency ?? chartFormat.currency,
											},
							},
							'numberFormat.style',
						)
					}
				/>
			</Field>
			{own?.style === 'currency' ? (
				<Field label="Currency" error={error('numberFormat.currency')}>
					<Input
						maxLength={3}
						className="uppercase"
						value={own.currency}
						onChange={(event) =>
							onChange(
								{ ...series, numberFormat: { ...own, currency: event.target.value.toUpperCase() } },
								'numberFormat.currency',
							)
						}
					/>
				</Field>
			) : null}
		</div>
	)
}
