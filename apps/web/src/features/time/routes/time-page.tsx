import type { TimeDatabase } from '@blocksmith/contracts/time.ts'
import { useQuery } from '@tanstack/react-query'
import { Plus } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { isTrackable, timeDatabasesQuery } from '../api/time.ts'
import { DatabaseSetup } from '../components/database-setup.tsx'
import { EntriesList } from '../components/entries-list.tsx'
import { EntryDialog } from '../components/entry-dialog.tsx'
import { TimeLayout } from '../components/time-nav.tsx'
import { TimerBar } from '../components/timer-bar.tsx'
import { databaseKey, readLastDatabase, rememberDatabase, useEntryProperties, useProjectNames } from '../lib/hooks.ts'

/**
 * /time: the timer and the caller's entries in a mapped database (the one last used on this
 * browser, with a chooser when there are several). With none mapped yet, the setup instead: the
 * first thing to do is choose where entries go.
 */
export function TimePage() {
	const databases = useQuery(timeDatabasesQuery)
	const [chosenKey, setChosenKey] = useState(readLastDatabase)
	const trackable = databases.data?.filter(isTrackable) ?? []
	const database = trackable.find((candidate) => databaseKey(candidate) === chosenKey) ?? trackable[0]
	return (
		<TimeLayout title="Time tracking" description="Track time into your own databases, in Notion or built in.">
			{databases.isPending ? (
				<SkeletonGroup label="Loading…">
					<Skeleton className="h-14 w-full" />
					<Skeleton className="h-40 w-full" />
				</SkeletonGroup>
			) : databases.isError ? (
				<Alert variant="error" title="Time tracking could not be loaded">
					{errorMessage(databases.error)}
				</Alert>
			) : database ? (
				<Tracker
					key={databaseKey(database)}
					database={database}
					databases={trackable}
					onChoose={(next) => {
						rememberDatabase(next)
						setChosenKey(databaseKey(next))
					}}
				/>
			) : (
				<DatabaseSetup isFirstRun />
			)}
		</TimeLayout>
	)
}

type TrackerProps = {
	database: TimeDatabase
	databases: TimeDatabase[]
	onChoose: (database: TimeDatabase) => void
}

function Tracker({ database, databases, onChoose }: TrackerProps) {
	const properties = useEntryProperties(database)
	const projectName = useProjectNames(database, properties.project)
	const [isAdding, setIsAdding] = useState(false)
	return (
		<div className="grid gap-6">
			<div className="grid gap-3">
				<div className="flex flex-wrap items-center justify-between gap-3">
					{databases.length > 1 ? (
						<div className="flex items-center gap-2 text-muted-foreground text-sm">
							<label htmlFor="time-database">Database</label>
							<NativeSelect
								id="time-database"
								className="w-auto min-w-48"
								value={databaseKey(database)}
								onChange={(event) => {
									const next = databases.find((candidate) => databaseKey(candidate) === event.target.value)
									if (next) {
										onChoose(next)
									}
								}}
							>
								{databases.map((candidate) => (
									<option key={databaseKey(candidate)} value={databaseKey(candidate)}>
										{candidate.name}
										{candidate.tool === 'notion' ? ' (Notion)' : ''}
									</option>
								))}
							</NativeSelect>
						</div>
					) : (
						<p className="text-muted-foreground text-sm">
							Entries go to <span className="font-medium text-foreground">{database.name}</span>.
						</p>
					)}
					<Button variant="outline" onClick={() => setIsAdding(true)}>
						<Plus aria-hidden /> Add time
					</Button>
				</div>
				<TimerBar database={database} properties={properties} projectName={projectName} />
			</div>
			<EntriesList database={database} properties={properties} projectName={projectName} />
			<EntryDialog
				database={database}
				properties={properties}
				projectName={projectName}
				isOpen={isAdding}
				onOpenChange={setIsAdding}
			/>
		</div>
	)
}
