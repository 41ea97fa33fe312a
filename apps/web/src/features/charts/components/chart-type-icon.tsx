import type { ChartType } from '@blocksmith/contracts/charts.ts'
import {
	ChartArea,
	ChartBarBig,
	ChartColumn,
	ChartLine,
	ChartPie,
	ChartScatter,
	Donut,
	Hash,
	type LucideIcon,
	Table2,
} from 'lucide-react'
import type { TypeChoice } from '../lib/chart-config.ts'

const icons: Record<TypeChoice, LucideIcon> = {
	bar: ChartColumn,
	line: ChartLine,
	area: ChartArea,
	pie: ChartPie,
	donut: Donut,
	scatter: ChartScatter,
	number: Hash,
	table: Table2,
}

/** The icon of a chart type; horizontal bars lie down. */
export function chartTypeIcon(choice: TypeChoice | ChartType, orientation?: 'vertical' | 'horizontal'): LucideIcon {
	return choice === 'bar' && orientation === 'horizontal' ? ChartBarBig : icons[choice]
}
