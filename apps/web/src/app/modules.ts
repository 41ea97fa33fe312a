import { BarChart3, Clock, FileText, LayoutPanelLeft, Receipt } from 'lucide-react'
import { paths } from './paths.ts'

/** The five modules: how the navigation, the home page and their empty states name them. */
export const modules = [
	{
		key: 'forms',
		name: 'Forms',
		path: paths.forms,
		icon: FileText,
		summary: 'Forms that write every answer into your databases.',
		description:
			'Build a form from a database in a minute: every property becomes a field. Publish it, share the link or embed it, and each answer becomes a row — even when Notion is slow or down.',
	},
	{
		key: 'charts',
		name: 'Charts',
		path: paths.charts,
		icon: BarChart3,
		summary: 'Live charts of your databases, embeddable in Notion.',
		description:
			'Bar, line, pie, KPI and table charts of any database, grouped and filtered the way you need, kept fresh by sync and embeddable in your Notion pages in light or dark.',
	},
	{
		key: 'invoices',
		name: 'Invoices',
		path: paths.invoices,
		icon: Receipt,
		summary: 'Invoices from your rows, sent and tracked.',
		description:
			'Turn database rows or tracked time into invoices with your numbering, taxes and design; send them, take payment and see paid and overdue status written back to your workspace.',
	},
	{
		key: 'portals',
		name: 'Portals',
		path: paths.portals,
		icon: LayoutPanelLeft,
		summary: 'Client portals that show each client only their rows.',
		description:
			'A branded portal where each client signs in with a magic link and sees only their own projects, invoices and files — with rules enforced on the server.',
	},
	{
		key: 'time',
		name: 'Time Tracking',
		path: paths.time,
		icon: Clock,
		summary: 'Timers, timesheets and reports on your own data.',
		description:
			'Start a timer or fill in the week, with billable rates and rounding; get daily, weekly and monthly reports by project, person and client, and invoice the hours.',
	},
] as const
