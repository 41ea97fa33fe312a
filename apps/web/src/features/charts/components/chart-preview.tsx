import type { ChartFigures, ChartNumberFormat, ChartProblem, ChartRender } from '@blocksmith/contracts/charts.ts'
import { TriangleAlert } from 'lucide-react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { formatFigure } from '../lib/chart-format.ts'

type ChartPreviewProps = {
	render: ChartRender | undefined
	/** Why the settings could not be drawn (the last drawing that could stays shown). */
	error: string | null
	isLoading: boolean
	/** A newer preview is on its way; the one shown is of the previous settings. */
	isUpdating: boolean
	height: number
	numberFormat: ChartNumberFormat
	/** Opens the setting a problem is about. */
	onReveal: (field: string) => void
}

/**
 * The chart as the server draws it (its SVG, which has no scripts), the table as figures, or
 * what stops it from being drawn: a chart is never just blank.
 */
export function ChartPreview({
	render,
	error,
	isLoading,
	isUpdating,
	height,
	numberFormat,
	onReveal,
}: ChartPreviewProps) {
	if (isLoading && !render) {
		return (
			<SkeletonGroup label="Drawing the chart…">
				<Skeleton className="w-full" style={{ height }} />
			</SkeletonGroup>
		)
	}
	if (!render) {
		return (
			<Alert variant="error" title="The preview could not be drawn">
				{error ?? 'Try again in a moment.'}
			</Alert>
		)
	}
	const { figures, svg } = render
	return (
		<div className="grid gap-2" aria-busy={isUpdating || undefined}>
			{error && !isUpdating ? (
				<Alert variant="warning" title="These settings cannot be drawn">
					{error} The preview shows the last settings that could.
				</Alert>
			) : null}
			<div className={cn('relative transition-opacity', isUpdating && 'opacity-60')}>
				{isUpdating ? (
					<span className="absolute top-2 right-2 z-10 flex items-center gap-1.5 rounded-md border bg-background/90 px-2 py-1 text-muted-foreground text-xs">
						<Spinner /> Updating…
					</span>
				) : null}
				{figures.problems.length ? (
					<Problems problems={figures.problems} onReveal={onReveal} height={height} />
				) : figures.type === 'table' ? (
					<PivotTable figures={figures} numberFormat={numberFormat} />
				) : svg ? (
					<div
						data-testid="chart-svg"
						className="w-full overflow-hidden [&>svg]:h-auto [&>svg]:max-w-full"
						// The server's drawing of the figures: SVG markup without scripts, from our own API.
						// biome-ignore lint/security/noDangerouslySetInnerHtml: the markup is the server's chart drawing, not user HTML
						dangerouslySetInnerHTML={{ __html: svg }}
					/>
				) : (
					<p
						className="flex items-center justify-center rounded-lg border border-dashed text-muted-foreground text-sm"
						style={{ height }}
					>
						Nothing to draw yet.
					</p>
				)}
			</div>
			{figures.problems.length ? null : (
				<p className="text-muted-foreground text-xs">
					From {figures.rowCount.toLocaleString()} {figures.rowCount === 1 ? 'row' : 'rows'}
					{figures.isTruncated ? ' · only the first groups or points are shown' : ''}
				</p>
			)}
		</div>
	)
}

function Problems({
	problems,
	height,
	onReveal,
}: {
	problems: ChartProblem[]
	height: number
	onReveal: (field: string) => void
}) {
	return (
		<div
			role="alert"
			className="grid content-center gap-3 rounded-lg border border-warning/40 border-dashed bg-warning/5 p-5"
			style={{ minHeight: Math.min(height, 320) }}
		>
			<p className="flex items-center gap-2 font-medium text-sm">
				<TriangleAlert aria-hidden className="size-4 text-warning" />
				This chart needs another look before it can be drawn
			</p>
			<ul className="grid gap-2 text-sm">
				{problems.map((problem) => (
					<li key={`${problem.field}:${problem.message}`} className="flex flex-wrap items-center justify-between gap-2">
						<span>{problem.message}</span>
						<Button variant="outline" size="sm" onClick={() => onReveal(problem.field)}>
							Fix it
						</Button>
					</li>
				))}
			</ul>
		</div>
	)
}

/** The figures as a table: one row per group, one column per series. */
function PivotTable({ figures, numberFormat }: { figures: ChartFigures; numberFormat: ChartNumberFormat }) {
	if (figures.categories.length === 0 && !figures.kpi) {
		return (
			<p className="rounded-lg border border-dashed p-6 text-center text-muted-foreground text-sm">No rows match.</p>
		)
	}
	return (
		<div className="max-h-[36rem] overflow-auto rounded-lg border">
			<table className="w-full border-collapse text-sm" aria-label="Chart figures">
				<thead className="sticky top-0 bg-muted/80 backdrop-blur">
					<tr>
						<th scope="col" className="px-3 py-2 text-left font-medium text-muted-foreground">
							<span className="sr-only">Group</span>
						</th>
						{figures.series.map((series) => (
							<th key={series.key} scope="col" className="px-3 py-2 text-right font-medium text-muted-foreground">
								{series.name}
							</th>
						))}
					</tr>
				</thead>
				<tbody>
					{figures.categories.map((category, index) => (
						<tr key={category.key} className="border-t">
							<th scope="row" className="px-3 py-1.5 text-left font-normal">
								{category.label}
							</th>
							{figures.series.map((series) => (
								<td key={series.key} className="px-3 py-1.5 text-right tabular-nums">
									{formatFigure(series.values[index] ?? null, series.format ?? numberFormat)}
								</td>
							))}
						</tr>
					))}
				</tbody>
			</table>
		</div>
	)
}
