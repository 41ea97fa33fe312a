import { Database, FileText, Repeat, Settings2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { NavLink } from 'react-router'
import { paths } from '#src/app/paths.ts'
import { cn } from '#src/components/ui/cn.ts'

const sections = [
	{ name: 'Invoices', to: paths.invoices, icon: FileText, end: true },
	{ name: 'Recurring', to: paths.invoicesRecurring, icon: Repeat, end: false },
	{ name: 'Workspace', to: paths.invoicesDatabase, icon: Database, end: false },
	{ name: 'Settings', to: paths.invoicesSettings, icon: Settings2, end: false },
] as const

/** The invoice pages' own navigation, as time's: links, so each section has its address. */
function InvoicesNav() {
	return (
		<nav aria-label="Invoices" className="flex max-w-full overflow-x-auto border-b">
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

/** Every invoice page: its title, the navigation under it, then the page. */
export function InvoicesLayout({
	title,
	description,
	children,
}: {
	title: string
	description?: ReactNode
	children: ReactNode
}) {
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="grid gap-4">
				<div className="grid gap-1">
					<h1 className="font-semibold text-2xl tracking-tight">{title}</h1>
					{description ? <p className="text-muted-foreground">{description}</p> : null}
				</div>
				<InvoicesNav />
			</div>
			{children}
		</div>
	)
}
