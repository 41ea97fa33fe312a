import { useQuery } from '@tanstack/react-query'
import { ArrowRight, Database } from 'lucide-react'
import { Link } from 'react-router'
import { modules } from '#src/app/modules.ts'
import { paths } from '#src/app/paths.ts'
import { Card, CardDescription, CardHeader, CardTitle } from '#src/components/ui/card.tsx'
import { useSession } from '#src/lib/session-context.tsx'
import { workspacesQuery } from '#src/workspaces/api/workspaces.ts'

export function HomePage() {
	const { user } = useSession()
	const workspaces = useQuery(workspacesQuery)
	const firstName = user?.name.split(' ')[0] ?? ''

	return (
		<div className="grid gap-8">
			<div className="flex flex-wrap items-end justify-between gap-4">
				<div className="grid gap-1">
					<h1 className="font-semibold text-2xl tracking-tight">Welcome{firstName ? `, ${firstName}` : ''}</h1>
					<p className="text-muted-foreground">What would you like to build on your data today?</p>
				</div>
			</div>
			{workspaces.data ? (
				<WorkspacesCard
					count={workspaces.data.length}
					databases={workspaces.data.reduce((sum, workspace) => sum + workspace.databasesCount, 0)}
				/>
			) : null}
			<ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
				{modules.map(({ key, name, path, icon: Icon, summary }) => (
					<li key={key}>
						<Link
							to={path}
							className="group block h-full rounded-xl focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2"
						>
							<Card className="h-full transition-colors group-hover:border-primary/40 group-hover:bg-accent/30">
								<CardHeader>
									<div className="mb-2 flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
										<Icon aria-hidden className="size-5" />
									</div>
									<CardTitle className="flex items-center gap-1.5">
										{name}
										<ArrowRight aria-hidden className="size-4 opacity-0 transition-opacity group-hover:opacity-100" />
									</CardTitle>
									<CardDescription>{summary}</CardDescription>
								</CardHeader>
							</Card>
						</Link>
					</li>
				))}
			</ul>
		</div>
	)
}

/** Where the data comes from: the first step for a new user, a shortcut afterwards. */
function WorkspacesCard({ count, databases }: { count: number; databases: number }) {
	const isEmpty = count === 0
	return (
		<Link
			to={paths.workspaces}
			className="group block rounded-xl focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2"
		>
			<Card
				className={
					isEmpty
						? 'border-primary/30 bg-primary/5 transition-colors group-hover:bg-primary/10'
						: 'transition-colors group-hover:border-primary/40 group-hover:bg-accent/30'
				}
			>
				<CardHeader className="grid-cols-[auto_minmax(0,1fr)] gap-x-4">
					<div className="row-span-2 flex size-10 items-center justify-center rounded-lg bg-primary/10 text-primary">
						<Database aria-hidden className="size-5" />
					</div>
					<CardTitle className="col-start-2 flex items-center gap-1.5">
						{isEmpty ? 'Start with data' : 'Workspaces'}
						<ArrowRight aria-hidden className="size-4 opacity-0 transition-opacity group-hover:opacity-100" />
					</CardTitle>
					<CardDescription className="col-start-2">
						{isEmpty
							? 'Connect Notion, start a local workspace, or create a sample workspace in one click to try every module.'
							: `${count} ${count === 1 ? 'workspace' : 'workspaces'} · ${databases} ${databases === 1 ? 'database' : 'databases'} that the modules read and write.`}
					</CardDescription>
				</CardHeader>
			</Card>
		</Link>
	)
}
