import type { Chart } from '@blocksmith/contracts/charts.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { CopyPlus, ExternalLink, Link2 } from 'lucide-react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { ItemActionsMenu, useDeleteItem } from '#src/components/item-actions-menu.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { DropdownMenuItem } from '#src/components/ui/dropdown-menu.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import { chartKeys, deleteChart, duplicateChart } from '../api/charts.ts'
import { chartPaths, embedChartUrl } from '../lib/chart-paths.ts'

export function ChartStatusBadge({ chart }: { chart: Pick<Chart, 'published'> }) {
	return chart.published ? <Badge variant="success">Published</Badge> : <Badge>Draft</Badge>
}

/** Copies a link, and says so (or says to copy it by hand when the browser refuses). */
export async function copyLink(url: string, what: string): Promise<void> {
	try {
		await navigator.clipboard.writeText(url)
		toast.success(`The ${what} was copied.`)
	} catch {
		toast.error(`The ${what} could not be copied: select it and copy it by hand.`, { description: url })
	}
}

type ChartActionsMenuProps = {
	chart: Chart
	/** In a list row: the trigger names the chart, and the menu can open the builder. */
	isInList?: boolean
	/** Called just before an action leaves the page (the builder lets it go without asking). */
	onLeave?: () => void
}

/** Open, open the public page, copy the embed link, duplicate and delete (after a confirmation). */
export function ChartActionsMenu({ chart, isInList = false, onLeave }: ChartActionsMenuProps) {
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const canDelete = useIsOwnerOrAdmin()
	const duplicate = useMutation({
		mutationFn: duplicateChart,
		onSuccess: async (copy) => {
			queryClient.setQueryData(chartKeys.detail(copy.id), copy)
			await queryClient.invalidateQueries({ queryKey: chartKeys.list })
			toast.success(`${copy.name} was created. It starts unpublished.`)
			onLeave?.()
			await navigate(chartPaths.edit(copy.id, copy.tool))
		},
	})
	const remove = useDeleteItem({
		mutationFn: deleteChart,
		keys: { list: chartKeys.list, detail: chartKeys.detail(chart.id) },
		listPath: chartPaths.list,
		deletedMessage: `${chart.name} was deleted.`,
		isInList,
		onLeave,
	})

	return (
		<ItemActionsMenu
			name={chart.name}
			noun="chart"
			isInList={isInList}
			openPath={chartPaths.edit(chart.id, chart.tool)}
			isBusy={duplicate.isPending}
			canDelete={canDelete}
			deleteDescription={
				chart.published
					? 'Its public page and every embed of it stop showing the chart. The database is not touched.'
					: 'The database is not touched.'
			}
			onDelete={() => remove.mutateAsync(chart)}
		>
			{chart.published ? (
				<>
					<DropdownMenuItem asChild>
						<a href={chartPaths.public(chart.id)} target="_blank" rel="noreferrer">
							<ExternalLink aria-hidden /> Open public page
						</a>
					</DropdownMenuItem>
					<DropdownMenuItem onSelect={() => void copyLink(embedChartUrl(chart.id), 'embed link')}>
						<Link2 aria-hidden /> Copy embed link
					</DropdownMenuItem>
				</>
			) : null}
			<DropdownMenuItem onSelect={() => duplicate.mutate(chart)}>
				<CopyPlus aria-hidden /> Duplicate
			</DropdownMenuItem>
		</ItemActionsMenu>
	)
}
