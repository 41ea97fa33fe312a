import { useQuery } from '@tanstack/react-query'
import { Check, Database } from 'lucide-react'
import { Link } from 'react-router'
import { modules } from '#src/app/modules.ts'
import { paths } from '#src/app/paths.ts'
import { Button } from '#src/components/ui/button.tsx'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '#src/components/ui/card.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { workspacesQuery } from '#src/workspaces/api/workspaces.ts'

// Each module's entry screen, until its own issue fills it: what the module will do, and how
// it stands with the team's workspaces. Forms, Charts, Time and Invoices have their own pages (features/).

type ModuleKey = 'portals'

/** What each module will do (product.md §3), said to the person who will use it. */
const plans: Record<ModuleKey, { heading: string; items: string[] }> = {
	portals: {
		heading: 'Portals will let you',
		items: [
			'Open a portal with your name, logo and colours, at your own address.',
			'Choose the databases and properties clients see, each client only their own rows (checked on the server).',
			'Invite clients in bulk; they sign in with a link by e-mail, with no password to remember.',
			'Let clients add rows through your forms, with a visible sync timer and a "refresh now".',
		],
	},
}

function ModulePage({ moduleKey }: { moduleKey: ModuleKey }) {
	const module = modules.find((candidate) => candidate.key === moduleKey)
	const workspaces = useQuery(workspacesQuery)
	if (!module) {
		return null
	}
	const plan = plans[moduleKey]
	const connected = workspaces.data?.filter((workspace) => workspace.status === 'connected') ?? []
	const Icon = module.icon
	return (
		<div className="grid gap-6">
			<div className="grid gap-1">
				<h1 className="font-semibold text-2xl tracking-tight">{module.name}</h1>
				<p className="text-muted-foreground">{module.summary}</p>
			</div>
			<Card>
				<CardHeader>
					<div className="flex items-center gap-3">
						<div className="flex size-9 shrink-0 items-center justify-center rounded-lg border bg-muted/40">
							<Icon aria-hidden className="size-4 text-muted-foreground" />
						</div>
						<div className="grid gap-0.5">
							<CardTitle asChild>
								<h2>{module.name} is on its way</h2>
							</CardTitle>
							<CardDescription>It is being built now. Here is what it will do.</CardDescription>
						</div>
					</div>
				</CardHeader>
				<CardContent className="grid gap-3">
					<h3 className="font-medium text-sm">{plan.heading}</h3>
					<ul className="grid gap-2 text-sm">
						{plan.items.map((item) => (
							<li key={item} className="flex gap-2">
								<Check aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
								<span>{item}</span>
							</li>
						))}
					</ul>
				</CardContent>
			</Card>
			<section aria-labelledby="module-data" className="grid gap-2 rounded-xl border p-5">
				<h2 id="module-data" className="flex items-center gap-2 font-medium text-sm">
					<Database aria-hidden className="size-4 text-muted-foreground" /> Your data
				</h2>
				{workspaces.isPending ? (
					<Skeleton className="h-5 w-2/3" />
				) : connected.length > 0 ? (
					<p className="text-muted-foreground text-sm">
						{module.name} will work on the databases you already have in{' '}
						<span className="font-medium text-foreground">{listOf(connected.map((workspace) => workspace.name))}</span>.
						There is nothing more to connect.
					</p>
				) : (
					<div className="flex flex-wrap items-center justify-between gap-3">
						<p className="text-muted-foreground text-sm">
							{module.name} will work on your workspace databases: connect Notion, or start with the sample workspace.
						</p>
						<Button asChild variant="outline" size="sm">
							<Link to={paths.workspaces}>Go to Workspaces</Link>
						</Button>
					</div>
				)}
			</section>
		</div>
	)
}

/** "A", "A and B", "A, B and C". */
function listOf(names: string[]): string {
	return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

export function PortalsPage() {
	return <ModulePage moduleKey="portals" />
}
