import type { LucideIcon } from 'lucide-react'
import { NavLink } from 'react-router'
import { cn } from '#src/components/ui/cn.ts'

export type NavSection = { name: string; to: string; icon: LucideIcon; end: boolean }

/**
 * A module's own navigation under its page title (time tracking, invoices): links, so each
 * section has its address, underlined when current; it scrolls sideways on a phone.
 */
export function SectionNav({
	label,
	sections,
	className,
}: {
	label: string
	sections: readonly NavSection[]
	className?: string | undefined
}) {
	return (
		<nav aria-label={label} className={cn('flex max-w-full overflow-x-auto border-b', className)}>
			<ul className="flex gap-4">
				{sections.map(({ name, to, icon: Icon, end }) => (
					<li key={to}>
						<NavLink
							to={to}
							end={end}
							className={({ isActive }) =>
								cn(
									'-mb-px inline-flex h-10 items-center gap-2 whitespace-nowrap border-b-2 px-1 font-medium text-sm transition-colors',
									'focus-visible:outline-offset-[-2px]',
									isActive
										? 'border-primary text-foreground dark:border-ring'
										: 'border-transparent text-muted-foreground hover:text-foreground',
								)
							}
						>
							<Icon aria-hidden className="size-4" />
							{name}
						</NavLink>
					</li>
				))}
			</ul>
		</nav>
	)
}
