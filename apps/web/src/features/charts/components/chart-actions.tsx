import type { Chart } from '@blocksmith/contracts/charts.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { CopyPlus, ExternalLink, Link2, MoreHorizontal, PencilLine, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import {
	DropdownMenu,
	DropdownMenuContent,
	DropdownMenuItem,
	DropdownMenuSeparator,
	DropdownMenuTrigger,
} from '#src/components/ui/dropdown-menu.tsx'
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
	const [isDeleting, setIsDeleting] = useState(false)
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
	const remove = useMutation({
		mutationFn: deleteChart,
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: chartKeys.list })
			toast.success(`${chart.name} was deleted.`)
			if (!isInList) {
				onLeave?.()
				await navigate(chartPaths.list)
			}
			queryClient.removeQueries({ queryKey: chartKeys.detail(chart.id) })
		},
	})

	return (
		<>
			<DropdownMenu>
				<DropdownMenuTrigger asChild>
					{isInList ? (
						<Button variant="ghost" size="icon-sm" aria-label={`Actions for ${chart.name}`}>
							<MoreHorizontal aria-hidden />
						</Button>
					) : (
						<Button variant="outline" size="icon" aria-label="More actions" isLoading={duplicate.isPending}>
							{duplicate.isPending ? null : <MoreHorizontal aria-hidden />}
						</Button>
					)}
				</DropdownMenuTrigger>
				<DropdownMenuContent align="end">
					{isInList ? (
						<DropdownMenuItem asChild>
							<Link to={chartPaths.edit(chart.id, chart.tool)}>
								<PencilLine aria-hidden /> Open
							</Link>
						</DropdownMenuItem>
					) : null}
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
					<DropdownMenuSeparator />
					{canDelete ? (
						<DropdownMenuItem isDestructive onSelect={() => setIsDeleting(true)}>
							<Trash2 aria-hidden /> Delete
						</DropdownMenuItem>
					) : (
						<DropdownMenuItem disabled className="items-start">
							<Trash2 aria-hidden className="mt-0.5" />
							<span className="grid">
								Delete
								<span className="text-muted-foreground text-xs">Only an owner or admin can delete a chart.</span>
							</span>
						</DropdownMenuItem>
					)}
				</DropdownMenuContent>
			</DropdownMenu>
			<ConfirmDialog
				open={isDeleting}
				onOpenChange={setIsDeleting}
				title={`Delete ${chart.name}?`}
				description={
					chart.published
						? 'Its public page and every embed of it stop showing the chart. The database is not touched.'
						: 'The database is not touched.'
				}
				confirmLabel="Delete chart"
				isDestructive
				onConfirm={() => remove.mutateAsync(chart)}
			/>
		</>
	)
}
