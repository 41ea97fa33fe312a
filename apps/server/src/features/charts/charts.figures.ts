import type { ChartConfig, ChartFigures } from '@blocksmith/contracts/charts.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import type { Db } from '#src/db/client.ts'
import { computeGroupedFigures, computeKpiFigures, computeScatterFigures } from './charts.figures-compute.ts'
import { inSnapshot } from './charts.figures-sql.ts'

// The figures engine's entry: a chart configuration becomes figures computed in the database
// from the mirror (never by loading rows into Node). Parts: charts.figures-values.ts reads a
// property (the one place that knows the JSONB shapes), charts.figures-sql.ts builds and runs
// the statements, charts.figures-compute.ts shapes groups into figures, charts.transforms.ts
// orders and transforms them, charts.figures-checks.ts says what no longer fits the database.

export { validateChartConfig } from './charts.figures-checks.ts'

/**
 * The figures of a valid configuration (check it with validateChartConfig first: references
 * that do not resolve are a programming error here). `now` fixes "today" for relative ranges.
 */
export function computeFigures(
	db: Db,
	database: { id: string; properties: Property[] },
	config: ChartConfig,
	options: { now: Date },
): Promise<ChartFigures> {
	return inSnapshot(db, (snapshot) => {
		switch (config.type) {
			case 'number':
				return computeKpiFigures(snapshot, database, config, options.now)
			case 'scatter':
				return computeScatterFigures(snapshot, database, config, options.now)
			default:
				// bar, line, area, pie, and table (the same figures, shown as a pivot).
				return computeGroupedFigures(snapshot, database, config, options.now)
		}
	})
}
