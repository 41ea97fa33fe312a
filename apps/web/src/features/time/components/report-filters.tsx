import {
	type RelativeRange,
	type ReportRounding,
	relativeRangeSchema,
	type TimeAnalytics,
	type TimeGroup,
	type TimeViewSettings,
	timeGroupSchema,
} from '@blocksmith/contracts/time-reports.ts'
import { ChevronDown } from 'lucide-react'
import { useId, useRef } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Checkbox } from '#src/components/ui/checkbox.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Popover, PopoverContent, PopoverTrigger } from '#src/components/ui/popover.tsx'
import { groupLabels, rangeLabels } from './report-format.ts'
import { todayIn } from './timesheet-week.ts'

// A view's settings as controls. Each change goes up at once; the page saves them (debounced).
// The people, projects, clients and tags to choose from are the ones the analytics found.

type FilterKey = 'people' | 'projects' | 'clients' | 'tags'

const choiceFilters: { key: FilterKey; group: Exclude<TimeGroup, 'billable'>; label: string }[] = [
	{ key: 'people', group: 'person', label: 'People' },
	{ key: 'projects', group: 'project', label: 'Projects' },
	{ key: 'clients', group: 'client', label: 'Clients' },
	{ key: 'tags', group: 'tag', label: 'Tags' },
]

const roundingMinutes = [1, 5, 6, 10, 15, 30] as const

type ReportFiltersProps = {
	settings: TimeViewSettings
	onChange: (settings: TimeViewSettings) => void
	analytics: TimeAnalytics | undefined
	/** Problems the last save was answered with, by field path ("settings.range.to"). */
	errors: Record<string, string>
}

export function ReportFilters({ settings, onChange, analytics, errors }: ReportFiltersProps) {
	// Names of everything seen, so a chosen person keeps their name when the filter hides the rest.
	const labels = useRef(new Map<string, string>())
	for (const { group } of choiceFilters) {
		for (const item of analytics?.groups[group] ?? []) {
			labels.current.set(`${group}:${item.key}`, item.label)
		}
	}
	const change = (changes: Partial<TimeViewSettings>) => onChange({ ...settings, ...changes })
	const range = settings.range

	return (
		<section aria-label="Filters" className="grid gap-4 rounded-xl border bg-card p-4 shadow-xs">
			<div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
				<Field label="Range">
					<NativeSelect
						value={range.kind === 'relative' ? range.preset : 'custom'}
						onChange={(event) => {
							const value = event.target.value
							if (value === 'custom') {
								const today = todayIn(settings.timeZone)
								change({ range: { kind: 'fixed', from: analytics?.from ?? today, to: analytics?.to ?? today } })
							} else {
								change({ range: { kind: 'relative', preset: value as RelativeRange } })
							}
						}}
					>
						{relativeRangeSchema.options.map((preset) => (
							<option key={preset} value={preset}>
								{rangeLabels[preset]}
							</option>
						))}
						<option value="custom">Custom dates…</option>
					</NativeSelect>
				</Field>
				{range.kind === 'fixed' ? (
					<>
						<Field label="From" error={errors['settings.range.from']}>
							<Input
								type="date"
								value={range.from}
								required
								onChange={(event) => event.target.value && change({ range: { ...range, from: event.target.value } })}
							/>
						</Field>
						<Field label="To" error={errors['settings.range.to']}>
							<Input
								type="date"
								value={range.to}
								required
								onChange={(event) => event.target.value && change({ range: { ...range, to: event.target.value } })}
							/>
						</Field>
					</>
				) : null}
				<Field label="Group by">
					<NativeSelect
						value={settings.groupBy}
						onChange={(event) => change({ groupBy: event.target.value as TimeGroup })}
					>
						{timeGroupSchema.options.map((group) => (
							<option key={group} value={group}>
								{groupLabels[group]}
							</option>
						))}
					</NativeSelect>
				</Field>
			</div>
			{/* Two a line on a phone, so the filters do not make a column of their own down the screen. */}
			<div className="grid grid-cols-2 items-end gap-3 sm:flex sm:flex-wrap">
				{choiceFilters.map(({ key, group, label }) => (
					<ChoiceFilter
						key={key}
						label={label}
						chosen={settings[key]}
						choices={(analytics?.groups[group] ?? []).map((item) => item.key)}
						labelOf={(value) => labels.current.get(`${group}:${value}`) ?? value}
						onChange={(values) => change({ [key]: values })}
					/>
				))}
				<Field label="Billable" className="sm:w-40">
					<NativeSelect
						value={settings.billable}
						onChange={(event) => change({ billable: event.target.value as TimeViewSettings['billable'] })}
					>
						<option value="all">Billable or not</option>
						<option value="billable">Billable only</option>
						<option value="non_billable">Not billable only</option>
					</NativeSelect>
				</Field>
				<RoundingControls rounding={settings.rounding} onChange={(rounding) => change({ rounding })} />
			</div>
		</section>
	)
}

type ChoiceFilterProps = {
	label: string
	chosen: string[]
	choices: string[]
	labelOf: (value: string) => string
	onChange: (values: string[]) => void
}

/** Several values of one kind; none chosen filters nothing. */
function ChoiceFilter({ label, chosen, choices, labelOf, onChange }: ChoiceFilterProps) {
	const id = useId()
	const all = [...new Set([...chosen, ...choices])]
	const summary =
		chosen.length === 0 ? 'All' : chosen.length === 1 ? labelOf(chosen[0] ?? '') : `${chosen.length} chosen`
	return (
		<div className="grid gap-2">
			<span id={`${id}-label`} className="font-medium text-sm leading-none">
				{label}
			</span>
			<Popover>
				<PopoverTrigger asChild>
					<Button
						variant="outline"
						className="w-full justify-between font-normal sm:w-44"
						aria-labelledby={`${id}-label ${id}-value`}
					>
						<span id={`${id}-value`} className="truncate">
							{summary}
						</span>
						<ChevronDown aria-hidden className="text-muted-foreground" />
					</Button>
				</PopoverTrigger>
				<PopoverContent aria-label={label} className="grid w-64 gap-2">
					{all.length === 0 ? (
						<p className="text-muted-foreground text-sm">Nothing in this range to choose from.</p>
					) : (
						all.map((value) => {
							const checkboxId = `${id}-${value}`
							return (
								<div key={value} className="flex items-center gap-2">
									<Checkbox
										id={checkboxId}
										checked={chosen.includes(value)}
										onCheckedChange={(checked) =>
											onChange(checked === true ? [...chosen, value] : chosen.filter((item) => item !== value))
										}
									/>
									<label htmlFor={checkboxId} className="truncate text-sm">
										{labelOf(value)}
									</label>
								</div>
							)
						})
					)}
					{chosen.length > 0 ? (
						<Button variant="link" size="sm" className="justify-self-start" onClick={() => onChange([])}>
							Clear
						</Button>
					) : null}
				</PopoverContent>
			</Popover>
		</div>
	)
}

function RoundingControls({
	rounding,
	onChange,
}: {
	rounding: ReportRounding | null
	onChange: (rounding: ReportRounding | null) => void
}) {
	return (
		<>
			<Field label="Rounding" className="sm:w-40">
				<NativeSelect
					value={rounding?.mode ?? 'none'}
					onChange={(event) => {
						const mode = event.target.value
						onChange(
							mode === 'none'
								? null
								: { minutes: 15, scope: 'entry', ...rounding, mode: mode as ReportRounding['mode'] },
						)
					}}
				>
					<option value="none">None</option>
					<option value="up">Round up</option>
					<option value="down">Round down</option>
					<option value="nearest">To the nearest</option>
				</NativeSelect>
			</Field>
			{rounding ? (
				<>
					<Field label="Minutes" className="sm:w-28">
						<NativeSelect
							value={rounding.minutes}
							onChange={(event) =>
								onChange({ ...rounding, minutes: Number(event.target.value) as ReportRounding['minutes'] })
							}
						>
							{roundingMinutes.map((minutes) => (
								<option key={minutes} value={minutes}>
									{minutes} min
								</option>
							))}
						</NativeSelect>
					</Field>
					<Field label="Applied" className="sm:w-40">
						<NativeSelect
							value={rounding.scope}
							onChange={(event) => onChange({ ...rounding, scope: event.target.value as ReportRounding['scope'] })}
						>
							<option value="entry">Per entry</option>
							<option value="total">On totals</option>
						</NativeSelect>
					</Field>
				</>
			) : null}
		</>
	)
}
