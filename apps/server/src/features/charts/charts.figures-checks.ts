import type { Aggregation, ChartConfig, ChartProblem } from '@blocksmith/contracts/charts.ts'
import type { Property, RowFilter } from '@blocksmith/contracts/workspaces.ts'
import { AppError } from '#src/lib/errors.ts'
import { filtersSql } from '#src/workspaces/rows.query.ts'
import { type ChartField, fieldOf, kindOfProperty } from './charts.figures-values.ts'

// Does a configuration fit its database? Checked when a chart is saved (a 400 naming the field)
// and again whenever its figures are computed, because the database may have changed since:
// a property removed, renamed or of another type. Each problem names the setting and says, for
// a person, what is wrong and what to do.

const numberAggregations = new Set<Aggregation>(['sum', 'average', 'median', 'min', 'max'])

const aggregationWords: Record<Aggregation, string> = {
	count: 'count',
	count_distinct: 'count distinct values of',
	sum: 'sum',
	average: 'average',
	median: 'take the median of',
	min: 'take the minimum of',
	max: 'take the maximum of',
}

const operatorWords: Record<RowFilter['operator'], string> = {
	equals: 'is',
	not_equals: 'is not',
	contains: 'contains',
	not_contains: 'does not contain',
	is_empty: 'is empty',
	is_not_empty: 'is not empty',
	greater_than: 'is greater than',
	less_than: 'is less than',
	on_or_after: 'is on or after',
	on_or_before: 'is on or before',
}

type Check = { problems: ChartProblem[]; properties: Property[] }

/** The field a reference names, or a problem saying it is gone (or cannot be charted). */
function resolve(check: Check, field: string, ref: string, role: string): ChartField | null {
	const subject = role.startsWith('the ') ? `The ${role.slice(4)}` : `${role.charAt(0).toUpperCase()}${role.slice(1)}`
	const found = fieldOf(check.properties, ref)
	if (found) {
		return found
	}
	const property = check.properties.find((candidate) => candidate.id === ref)
	check.problems.push({
		field,
		message: property
			? `The property "${property.name}" (${property.type.replaceAll('_', ' ')}) cannot be charted. Choose another property for ${role}.`
			: `${subject} uses a property that no longer exists in this database. Choose another property for ${role}.`,
	})
	return null
}

/** Numbers, and formulas or rollups that compute numbers (or whose result is not known yet). */
function isNumberLike(field: ChartField): boolean {
	return field.kind === 'number' || field.kind === 'unknown'
}

function isDateLike(field: ChartField): boolean {
	return field.kind === 'date' || field.kind === 'unknown'
}

function checkFilter(check: Check, filter: RowFilter, index: number): void {
	const field = `filters.${index}`
	const property = check.properties.find((candidate) => candidate.id === filter.property)
	const isTimestamp = filter.property === 'created_time' || filter.property === 'last_edited_time'
	if (!property && !isTimestamp) {
		check.problems.push({
			field: `${field}.property`,
			message:
				'A filter uses a property that no longer exists in this database. Remove the filter or choose another property.',
		})
		return
	}
	if (property && !kindOfProperty(property)) {
		check.problems.push({
			field: `${field}.property`,
			message: `Rows cannot be filtered by "${property.name}". Remove the filter or choose another property.`,
		})
		return
	}
	// The row list's compiler is the authority on which conditions fit which type: what it refuses
	// here would fail the query later.
	try {
		filtersSql(check.properties, [filter], undefined)
	} catch (error) {
		if (!(error instanceof AppError)) {
			throw error
		}
		const name = property?.name ?? (filter.property === 'created_time' ? 'Created time' : 'Last edited time')
		const isValue = error.errors?.some((fieldError) => fieldError.field.endsWith('.value'))
		check.problems.push(
			isValue
				? {
						field: `${field}.value`,
						message: `The filter on "${name}" needs ${error.errors?.[0]?.message.replace(/^Must be /, '').replace(/\.$/, '') ?? 'another value'}. Change its value.`,
					}
				: {
						field: `${field}.operator`,
						message: `A filter on "${name}" cannot use "${operatorWords[filter.operator]}". Choose another condition.`,
					},
		)
	}
}

export function validateChartConfig(properties: Property[], config: ChartConfig): ChartProblem[] {
	const check: Check = { problems: [], properties }
	const isKpi = config.type === 'number'
	let x: ChartField | null = null
	if (!isKpi) {
		if (!config.x) {
			check.problems.push({ field: 'x.property', message: 'Choose a property to group by.' })
		} else {
			x = resolve(check, 'x.property', config.x.property, 'the grouping')
		}
	}
	if (x && config.x) {
		if (config.type === 'scatter' && !isNumberLike(x) && !isDateLike(x)) {
			check.problems.push({
				field: 'x.property',
				message: `A scatter chart places rows by a number or a date, and "${x.name}" is neither. Choose a number or date property for the x axis.`,
			})
		}
		if (config.x.rangeSize !== null && config.type !== 'scatter' && !isNumberLike(x)) {
			check.problems.push({
				field: 'x.rangeSize',
				message: `Ranges group numbers, and "${x.name}" is not a number. Clear the range size or choose a number property.`,
			})
		}
	}
	config.series.forEach((series, index) => {
		const field = `series.${index}.property`
		const needsProperty = series.aggregation !== 'count' || (config.type === 'scatter' && index === 0)
		if (!needsProperty) {
			return
		}
		if (series.property === null) {
			check.problems.push({
				field,
				message:
					config.type === 'scatter'
						? 'A scatter chart needs a number property for the vertical axis. Choose one.'
						: `Choose the property to ${aggregationWords[series.aggregation]}.`,
			})
			return
		}
		const measured = resolve(check, field, series.property, `series ${index + 1}`)
		if (!measured) {
			return
		}
		const needsNumber = numberAggregations.has(series.aggregation) || (config.type === 'scatter' && index === 0)
		if (needsNumber && !isNumberLike(measured)) {
			check.problems.push({
				field,
				message:
					config.type === 'scatter'
						? `A scatter chart needs a number on the vertical axis, and "${measured.name}" is not a number. Choose a number property.`
						: `"${measured.name}" does not hold numbers, so it cannot be used to ${aggregationWords[series.aggregation]}. Choose a number property, or count rows instead.`,
			})
		}
	})
	if (config.breakdown && !isKpi) {
		resolve(check, 'breakdown.property', config.breakdown.property, 'the breakdown')
	}
	let hasWindow = false
	if (config.dateRange) {
		const ranged = resolve(check, 'dateRange.property', config.dateRange.property, 'the date range')
		if (ranged && !isDateLike(ranged)) {
			check.problems.push({
				field: 'dateRange.property',
				message: `The date range needs a date, and "${ranged.name}" is not a date. Choose a date property.`,
			})
		}
		hasWindow = config.dateRange.range !== 'all_time'
	}
	const canCompare = hasWindow || (!isKpi && config.type !== 'scatter' && x !== null && isDateLike(x))
	config.series.forEach((series, index) => {
		if (series.compare !== 'none' && !canCompare && (!isKpi || index === 0)) {
			check.problems.push({
				field: `series.${index}.compare`,
				message:
					'A comparison needs time: a date to group by or a date range other than "All time". Add one, or turn the comparison off.',
			})
		}
	})
	config.filters.forEach((filter, index) => {
		checkFilter(check, filter, index)
	})
	return check.problems
}
