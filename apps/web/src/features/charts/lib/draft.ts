import {
	type Chart,
	type ChartConfig,
	type ChartEmbed,
	chartConfigSchema,
	chartEmbedSchema,
	type UpdateChart,
} from '@blocksmith/contracts/charts.ts'
import type { ChartErrors } from './chart-config.ts'

/** What the builder edits before it is saved; publishing is applied at once, apart from it. */
export type ChartDraft = { name: string; config: ChartConfig; embed: ChartEmbed }

export function draftFromChart(chart: Chart): ChartDraft {
	return { name: chart.name, config: chart.config, embed: chart.embed }
}

/** Same settings: key order does not matter, values do. */
export function isSameDraft(left: ChartDraft, right: ChartDraft): boolean {
	return stableJson(left) === stableJson(right)
}

function stableJson(value: unknown): string {
	return JSON.stringify(value, (_key, item: unknown) =>
		item && typeof item === 'object' && !Array.isArray(item)
			? Object.fromEntries(Object.entries(item).sort(([left], [right]) => left.localeCompare(right)))
			: item,
	)
}

export function changesOf(draft: ChartDraft): UpdateChart {
	return { name: draft.name.trim(), config: draft.config, embed: draft.embed }
}

/** Settings the contract refuses (a currency code half-typed), by path, before the server is asked. */
export function configErrors(config: ChartConfig): ChartErrors {
	const result = chartConfigSchema.safeParse(config)
	const errors: ChartErrors = {}
	for (const issue of result.error?.issues ?? []) {
		errors[issue.path.join('.')] ??= issue.message
	}
	return errors
}

export function validateDraft(draft: ChartDraft): ChartErrors {
	const errors = configErrors(draft.config)
	for (const issue of chartEmbedSchema.safeParse(draft.embed).error?.issues ?? []) {
		errors[`embed.${issue.path.join('.')}`] ??= issue.message
	}
	if (!draft.name.trim()) {
		errors.name = 'Give the chart a name.'
	}
	return errors
}
