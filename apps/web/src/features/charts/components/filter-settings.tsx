import { maxChartFilters, type RelativeRange, relativeRanges } from '@blocksmith/contracts/charts.ts'
import type { RowFilter } from '@blocksmith/contracts/workspaces.ts'
import { ListFilter, Plus, X } from 'lucide-react'
import { useMemo } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Select } from '#src/components/ui/select.tsx'
import {
	type FilterOperator,
	filterValueOf,
	findProperty,
	isDateLike,
	isNumberValued,
	needsValue,
	newFilter,
	operatorLabels,
	operatorsFor,
	type PropertyChoice,
	rangeLabels,
	withFilterProperty,
} from '../lib/chart-config.ts'
import { PropertySelect, type SettingsProps, SettingsSection } from './setting-controls.tsx'

/** The browser's own zone: a new chart's, and the first guess for any. */
function browserTimeZone(): string {
	return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'
}

/** Every zone the browser knows, with the chosen one kept even if it is not listed. */
function timeZones(current: string): string[] {
	const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : []
	return [...new Set([...zones, 'UTC', current])].sort((left, right) => left.localeCompare(right))
}

/** Which rows count: filters on properties, a date window, and the calendar they are read in. */
export function FilterSettings({ config, properties, errors, onChange }: SettingsProps) {
	const dateProperties = properties.filter(isDateLike)
	const zones = useMemo(() => timeZones(config.timeZone), [config.timeZone])
	// New charts start in UTC (the server picks their first settings); one click moves them here.
	const localZone = browserTimeZone()
	const setFilters = (filters: RowFilter[], path: string) => onChange({ ...config, filters }, path)
	return (
		<div className="grid gap-8">
			<SettingsSection title="Filters" description="Only rows that match every filter are counted.">
				{config.filters.length ? (
					<ol className="grid gap-2">
						{config.filters.map((filter, index) => (
							// biome-ignore lint/suspicious/noArrayIndexKey: filters have no id, and their rows keep no state of their own
							<li key={index}>
								<FilterRow
									filter={filter}
									index={index}
									properties={properties}
									error={Object.entries(errors).find(([path]) => path.startsWith(`filters.${index}`))?.[1]}
									onChange={(next) =>
										setFilters(
											config.filters.map((item, position) => (position === index ? next : item)),
											`filters.${index}`,
										)
									}
									onRemove={() =>
										setFilters(
											config.filters.filter((_, position) => position !== index),
											'filters',
										)
									}
								/>
							</li>
						))}
					</ol>
				) : null}
				<div>
					<Button
						variant="outline"
						size="sm"
						disabled={properties.length === 0 || config.filters.length >= maxChartFilters}
						onClick={() => {
							const first = properties[0]
							if (first) {
								setFilters([...config.filters, newFilter(first)], 'filters')
							}
						}}
					>
						{config.filters.length ? <Plus aria-hidden /> : <ListFilter aria-hidden />}
						{config.filters.length ? 'Add filter' : 'Add a filter'}
					</Button>
				</div>
			</SettingsSection>

			<SettingsSection
				title="Date range"
				description="Counts only rows whose date falls in a window that moves with today."
			>
				<div className="grid gap-4 sm:grid-cols-2">
					<Field label="Date property" error={errors['dateRange.property'] ?? errors.dateRange}>
						<PropertySelect
							value={config.dateRange?.property}
							properties={dateProperties}
							placeholder="No date range"
							onValueChange={(property) =>
								onChange(
									{ ...config, dateRange: { range: config.dateRange?.range ?? 'last_30_days', property } },
									'dateRange.property',
								)
							}
						/>
					</Field>
					<Field label="Range" error={errors['dateRange.range']}>
						<Select
							isDisabled={!config.dateRange}
							value={config.dateRange?.range ?? 'all_time'}
							options={relativeRanges.map((range) => ({ value: range, label: rangeLabels[range] }))}
							onValueChange={(range) =>
								config.dateRange
									? onChange(
											{ ...config, dateRange: { ...config.dateRange, range: range as RelativeRange } },
											'dateRange.range',
										)
									: undefined
							}
						/>
					</Field>
				</div>
				{config.dateRange ? (
					<div>
						<Button variant="ghost" size="sm" onClick={() => onChange({ ...config, dateRange: null }, 'dateRange')}>
							<X aria-hidden /> Remove date range
						</Button>
					</div>
				) : null}
			</SettingsSection>

			<SettingsSection title="Calendar" description="Where days begin and end, for date groups and ranges.">
				<div className="grid gap-4 sm:grid-cols-2">
					<Field
						label="Time zone"
						error={errors.timeZone}
						labelAside={
							config.timeZone === localZone ? null : (
								<Button
									variant="link"
									className="text-[13px]"
									onClick={() => onChange({ ...config, timeZone: localZone }, 'timeZone')}
								>
									Use mine ({localZone.replaceAll('_', ' ')})
								</Button>
							)
						}
					>
						<NativeSelect
							value={config.timeZone}
							onChange={(event) => onChange({ ...config, timeZone: event.target.value }, 'timeZone')}
						>
							{zones.map((zone) => (
								<option key={zone} value={zone}>
									{zone.replaceAll('_', ' ')}
								</option>
							))}
						</NativeSelect>
					</Field>
					<Field label="Weeks start on" error={errors.weekStart}>
						<Select
							value={config.weekStart}
							options={[
								{ value: 'monday', label: 'Monday' },
								{ value: 'sunday', label: 'Sunday' },
							]}
							onValueChange={(weekStart) =>
								onChange({ ...config, weekStart: weekStart as 'monday' | 'sunday' }, 'weekStart')
							}
						/>
					</Field>
				</div>
			</SettingsSection>
		</div>
	)
}

type FilterRowProps = {
	filter: RowFilter
	index: number
	properties: PropertyChoice[]
	error: string | undefined
	onChange: (filter: RowFilter) => void
	onRemove: () => void
}

function FilterRow({ filter, index, properties, error, onChange, onRemove }: FilterRowProps) {
	const label = `Filter ${index + 1}`
	const property = findProperty(properties, filter.property)
	const operators = property ? operatorsFor(property) : [filter.operator]
	return (
		<fieldset aria-label={label} className="grid gap-1.5">
			<div className="flex flex-wrap items-center gap-2">
				<span className="w-10 text-muted-foreground text-xs">{index === 0 ? 'Where' : 'and'}</span>
				<PropertySelect
					aria-label={`${label}: property`}
					aria-invalid={Boolean(error) || undefined}
					className="w-40"
					value={filter.property}
					properties={properties}
					onValueChange={(id) => {
						const next = findProperty(properties, id)
						if (next) {
							onChange(withFilterProperty(filter, next))
						}
					}}
				/>
				<Select
					aria-label={`${label}: operator`}
					className="w-36"
					value={filter.operator}
					options={operators.map((operator) => ({ value: operator, label: operatorLabels[operator] }))}
					onValueChange={(value) => {
						const operator = value as FilterOperator
						if (needsValue(operator)) {
							onChange({ ...filter, operator, value: filter.value ?? (property?.type === 'checkbox' ? true : '') })
						} else {
							onChange({ property: filter.property, operator })
						}
					}}
				/>
				{needsValue(filter.operator) && property ? (
					<FilterValue property={property} label={`${label}: value`} filter={filter} onChange={onChange} />
				) : null}
				<Button variant="ghost" size="icon-sm" aria-label={`Remove ${label.toLowerCase()}`} onClick={onRemove}>
					<X aria-hidden />
				</Button>
			</div>
			{error ? <p className="pl-12 text-[13px] text-error">{error}</p> : null}
		</fieldset>
	)
}

function FilterValue({
	property,
	label,
	filter,
	onChange,
}: {
	property: PropertyChoice
	label: string
	filter: RowFilter
	onChange: (filter: RowFilter) => void
}) {
	if (property.type === 'checkbox') {
		return (
			<Select
				aria-label={label}
				className="w-32"
				value={filter.value === false ? 'false' : 'true'}
				options={[
					{ value: 'true', label: 'Checked' },
					{ value: 'false', label: 'Unchecked' },
				]}
				onValueChange={(value) => onChange({ ...filter, value: value === 'true' })}
			/>
		)
	}
	if (
		(property.type === 'select' || property.type === 'status' || property.type === 'multi_select') &&
		property.options?.length
	) {
		return (
			<Select
				aria-label={label}
				className="w-40"
				value={typeof filter.value === 'string' && filter.value ? filter.value : undefined}
				placeholder="Choose…"
				options={property.options.map((option) => ({ value: option.name, label: option.name }))}
				onValueChange={(value) => onChange({ ...filter, value })}
			/>
		)
	}
	return (
		<Input
			aria-label={label}
			className="w-40"
			type={isDateLike(property) ? 'date' : 'text'}
			inputMode={isNumberValued(property) ? 'decimal' : undefined}
			placeholder="Value"
			value={filter.value === null || filter.value === undefined ? '' : String(filter.value)}
			onChange={(event) => onChange({ ...filter, value: filterValueOf(event.target.value, property) })}
		/>
	)
}
