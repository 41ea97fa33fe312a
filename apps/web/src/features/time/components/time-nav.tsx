import { BarChart3, CalendarDays, Settings2, Timer } from 'lucide-react'
import type { ReactNode } from 'react'
import { paths } from '#src/app/paths.ts'
import { type NavSection, SectionNav } from '#src/components/section-nav.tsx'

const sections: readonly NavSection[] = [
	{ name: 'Timer', to: paths.time, icon: Timer, end: true },
	{ name: 'Timesheet', to: paths.timeTimesheet, icon: CalendarDays, end: false },
	{ name: 'Reports', to: paths.timeReports, icon: BarChart3, end: false },
	{ name: 'Setup', to: paths.timeSetup, icon: Settings2, end: false },
]

/** The time pages' own navigation: Timer, Timesheet, Reports, Setup (links, so each has its address). */
export function TimeNav({ className }: { className?: string }) {
	return <SectionNav label="Time tracking" sections={sections} className={className} />
}

type TimeLayoutProps = {
	title: string
	description?: ReactNode
	/** At the right of the title: the page's main action. */
	action?: ReactNode
	children: ReactNode
}

/** Every time page: its title, the time navigation under it, then the page. */
export function TimeLayout({ title, description, action, children }: TimeLayoutProps) {
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="grid gap-4">
				<div className="flex flex-wrap items-end justify-between gap-4">
					<div className="grid gap-1">
						<h1 className="font-semibold text-2xl tracking-tight">{title}</h1>
						{description ? <p className="text-muted-foreground">{description}</p> : null}
					</div>
					{action}
				</div>
				<TimeNav />
			</div>
			{children}
		</div>
	)
}
