import { useMutation, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { NewFromDatabaseDialog, NoDatabases } from '#src/workspaces/components/new-from-database-dialog.tsx'
import { chartKeys, createChart } from '../api/charts.ts'
import { chartPaths } from '../lib/chart-paths.ts'

const noDatabasesLead = 'A chart is drawn from a workspace database.'

/** Pick a database (grouped by workspace), name the chart, and land in its builder. */
export function NewChartDialog({ variant = 'primary' }: { variant?: 'primary' | 'outline' }) {
	const [isOpen, setIsOpen] = useState(false)
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const create = useMutation({
		mutationFn: createChart,
		meta: { isFormMutation: true },
		onSuccess: async (chart) => {
			queryClient.setQueryData(chartKeys.detail(chart.id), chart)
			await queryClient.invalidateQueries({ queryKey: chartKeys.list })
			toast.success(`${chart.name} was created. Shape it on the left; the preview follows.`)
			setIsOpen(false)
			await navigate(chartPaths.edit(chart.id, chart.tool))
		},
	})
	return (
		<NewFromDatabaseDialog
			noun="chart"
			variant={variant}
			description="A chart counts or sums the rows of one database. It starts as a bar chart of its first useful property; change anything in the builder."
			nameDescription="For you; the chart's title is set in the builder."
			noDatabaseProblem="Pick the database to chart."
			noDatabasesLead={noDatabasesLead}
			isOpen={isOpen}
			onOpenChange={setIsOpen}
			create={create}
			onCreate={(database, name) =>
				create.mutate({
					tool: database.tool,
					// Date buckets and "this month" follow the creator's clock until they choose another zone.
					chart: { databaseId: database.id, name, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone },
				})
			}
		/>
	)
}

/** A chart reads a database: without one, say where to get one. */
export function NoChartDatabases() {
	return <NoDatabases lead={noDatabasesLead} />
}
