import { Database, FileText, Repeat, Settings2 } from 'lucide-react'
import type { ReactNode } from 'react'
import { paths } from '#src/app/paths.ts'
import { type NavSection, SectionNav } from '#src/components/section-nav.tsx'

const sections: readonly NavSection[] = [
	{ name: 'Invoices', to: paths.invoices, icon: FileText, end: true },
	{ name: 'Recurring', to: paths.invoicesRecurring, icon: Repeat, end: false },
	{ name: 'Workspace', to: paths.invoicesDatabase, icon: Database, end: false },
	{ name: 'Settings', to: paths.invoicesSettings, icon: Settings2, end: false },
]

/** The invoice pages' own navigation, as time's: links, so each section has its address. */
function InvoicesNav() {
	return <SectionNav label="Invoices" sections={sections} />
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
