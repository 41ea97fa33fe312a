import { type Chart, type Dashboard, maxDashboardTiles } from '@blocksmith/contracts/charts.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ExternalLink, LayoutDashboard, Link2, Plus } from 'lucide-react'
import { useId, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { ItemActionsMenu, useDeleteItem } from '#src/components/item-actions-menu.tsx'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Checkbox } from '#src/components/ui/checkbox.tsx'
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { DropdownMenuItem } from '#src/components/ui/dropdown-menu.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '#src/components/ui/table.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { formatDateTime, relativeTime } from '#src/workspaces/lib/values.ts'
import { chartsQuery } from '../api/charts.ts'
import {
	createDashboard,
	dashboardKeys,
	dashboardPaths,
	dashboardsQuery,
	deleteDashboard,
	embedDashboardUrl,
} from '../api/dashboards.ts'
import { typeChoiceOf, typeLabels } from '../lib/chart-config.ts'
import { chartPaths } from '../lib/chart-paths.ts'
import { ChartStatusBadge, copyLink } from './chart-actions.tsx'
import { chartTypeIcon } from './chart-type-icon.tsx'

function countLabel(count: number): string {
	return count === 1 ? '1 chart' : `${count} charts`
}

/** The Dashboards view of the charts page: every dashboard, newest change first. */
export function DashboardsView() {
	const dashboards = useQuery(dashboardsQuery)
	const charts = useQuery(chartsQuery)
	if (dashboards.isPending) {
		return (
			<SkeletonGroup label="Loading dashboards…">
				<Skeleton className="h-48 w-full" />
			</SkeletonGroup>
		)
	}
	if (dashboards.isError) {
		return (
			<Alert variant="error" title="Your dashboards could not be loaded">
				{errorMessage(dashboards.error)}
			</Alert>
		)
	}
	if (dashboards.data.length === 0) {
		return <EmptyDashboards charts={charts.data} />
	}
	return (
		<Table aria-label="Dashboards">
			<TableHeader>
				<TableRow>
					<TableHead>Dashboard</TableHead>
					<TableHead>Charts</TableHead>
					<TableHead>Status</TableHead>
					<TableHead className="hidden sm:table-cell">Updated</TableHead>
					<TableHead>
						<span className="sr-only">Actions</span>
					</TableHead>
				</TableRow>
			</TableHeader>
			<TableBody>
				{dashboards.data.map((dashboard) => (
					<TableRow key={dashboard.id}>
						<TableCell className="max-w-80">
							<div className="flex min-w-0 items-center gap-2.5">
								<span className="flex size-7 shrink-0 items-center justify-center rounded-md border bg-muted/40">
									<LayoutDashboard aria-hidden className="size-4 text-muted-foreground" />
								</span>
								<div className="grid min-w-0">
									<Link to={dashboardPaths.edit(dashboard.id)} className="truncate font-medium hover:underline">
										{dashboard.name}
									</Link>
									{dashboard.description ? (
										<span className="truncate text-muted-foreground text-xs">{dashboard.description}</span>
									) : null}
								</div>
							</div>
						</TableCell>
						<TableCell className="whitespace-nowrap text-muted-foreground">
							{countLabel(dashboard.tiles.length)}
						</TableCell>
						<TableCell>
							<ChartStatusBadge chart={dashboard} />
						</TableCell>
						<TableCell
							className="hidden text-muted-foreground sm:table-cell"
							title={formatDateTime(dashboard.updatedAt)}
						>
							{relativeTime(dashboard.updatedAt)}
						</TableCell>
						<TableCell className="text-right">
							<DashboardActionsMenu dashboard={dashboard} isInList />
						</TableCell>
					</TableRow>
				))}
			</TableBody>
		</Table>
	)
}

/** What a dashboard is, and the first step: a dashboard, or first the chart it needs. */
function EmptyDashboards({ charts }: { charts: Chart[] | undefined }) {
	const hasCharts = charts === undefined || charts.length > 0
	return (
		<EmptyState
			icon={LayoutDashboard}
			title="No dashboards yet"
			description={
				hasCharts
					? 'A dashboard puts several charts on one page you can embed in Notion: drag them into place, size them, and publish the page once.'
					: 'A dashboard puts several charts on one page you can embed in Notion. It is made of charts: make a chart first, then come back to arrange it with others.'
			}
			action={
				hasCharts ? (
					<NewDashboardDialog />
				) : (
					<Button asChild>
						<Link to={chartPaths.list}>
							<Plus aria-hidden /> Make a chart first
						</Link>
					</Button>
				)
			}
		/>
	)
}

/** Name the dashboard, tick the charts to start with, and land in its editor. */
export function NewDashboardDialog() {
	const [isOpen, setIsOpen] = useState(false)
	const [name, setName] = useState('')
	const [picked, setPicked] = useState<string[]>([])
	const [isSubmitted, setIsSubmitted] = useState(false)
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const charts = useQuery({ ...chartsQuery, enabled: isOpen })

	const create = useMutation({
		mutationFn: createDashboard,
		meta: { isFormMutation: true },
		onSuccess: async (dashboard) => {
			queryClient.setQueryData(dashboardKeys.detail(dashboard.id), dashboard)
			await queryClient.invalidateQueries({ queryKey: dashboardKeys.list })
			toast.success(`${dashboard.name} was created. Drag its charts into place, then save.`)
			setIsOpen(false)
			await navigate(dashboardPaths.edit(dashboard.id))
		},
	})

	function reset(): void {
		setName('')
		setPicked([])
		setIsSubmitted(false)
		create.reset()
	}

	const nameProblem =
		(isSubmitted && !name.trim() ? 'Give the dashboard a name.' : undefined) ??
		(create.error instanceof ApiError
			? create.error.fieldErrors.find((error) => error.field === 'name')?.message
			: undefined)
	// Other refusals (a chart deleted meanwhile: `chartIds.0`) are about the list as a whole.
	const otherProblem =
		create.error && !nameProblem
			? create.error instanceof ApiError && create.error.fieldErrors.length > 0
				? create.error.fieldErrors.map((error) => error.message).join(' ')
				: errorMessage(create.error)
			: undefined

	return (
		<Dialog
			open={isOpen}
			onOpenChange={(open) => {
				setIsOpen(open)
				if (!open) {
					reset()
				}
			}}
		>
			<DialogTrigger asChild>
				<Button>
					<Plus aria-hidden /> New dashboard
				</Button>
			</DialogTrigger>
			<DialogContent
				title="New dashboard"
				description="Pick the charts to start with; they are placed two to a row. Add, remove and arrange them in the editor."
			>
				<form
					className="grid gap-4"
					noValidate
					onSubmit={(event) => {
						event.preventDefault()
						setIsSubmitted(true)
						if (name.trim()) {
							create.mutate({ name: name.trim(), chartIds: picked })
						}
					}}
				>
					<Field label="Name" error={nameProblem} isRequired>
						<Input
							value={name}
							maxLength={200}
							onChange={(event) => setName(event.target.value)}
							placeholder="Sales overview"
						/>
					</Field>
					<ChartPicker
						charts={charts.data}
						isLoading={charts.isPending}
						picked={picked}
						onPickedChange={setPicked}
						limit={maxDashboardTiles}
					/>
					{otherProblem ? (
						<Alert variant="error" title="The dashboard was not created">
							{otherProblem}
						</Alert>
					) : null}
					<DialogFooter>
						<Button variant="outline" onClick={() => setIsOpen(false)}>
							Cancel
						</Button>
						<Button type="submit" isLoading={create.isPending}>
							Create dashboard
						</Button>
					</DialogFooter>
				</form>
			</DialogContent>
		</Dialog>
	)
}

type ChartPickerProps = {
	charts: Chart[] | undefined
	isLoading: boolean
	picked: string[]
	onPickedChange: (picked: string[]) => void
	/** How many may be ticked at most (what the dashboard still has room for). */
	limit: number
	emptyMessage?: string
}

/** Charts to tick, in the list's order (newest change first); the order ticked is the order placed. */
export function ChartPicker({
	charts,
	isLoading,
	picked,
	onPickedChange,
	limit,
	emptyMessage = 'You have no charts yet: make one first, or create the dashboard empty.',
}: ChartPickerProps) {
	const id = useId()
	if (isLoading) {
		return (
			<SkeletonGroup label="Loading your charts…" className="grid gap-2">
				<Skeleton className="h-8 w-full" />
				<Skeleton className="h-8 w-full" />
			</SkeletonGroup>
		)
	}
	if (!charts?.length) {
		return <p className="rounded-lg border border-dashed p-4 text-muted-foreground text-sm">{emptyMessage}</p>
	}
	const isFull = picked.length >= limit
	return (
		<fieldset className="grid gap-2">
			<legend className="mb-2 font-medium text-sm">
				Charts <span className="font-normal text-muted-foreground">({picked.length} picked)</span>
			</legend>
			<ul className="grid max-h-72 gap-1 overflow-y-auto rounded-lg border p-1">
				{charts.map((chart) => {
					const choice = typeChoiceOf(chart.config)
					const Icon = chartTypeIcon(choice, chart.config.display.orientation)
					const isPicked = picked.includes(chart.id)
					const checkboxId = `${id}-${chart.id}`
					return (
						<li key={chart.id}>
							<label
								htmlFor={checkboxId}
								className="flex cursor-pointer items-center gap-3 rounded-md px-2 py-1.5 hover:bg-muted/60 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60"
							>
								<Checkbox
									id={checkboxId}
									checked={isPicked}
									disabled={!isPicked && isFull}
									onCheckedChange={(checked) =>
										onPickedChange(
											checked === true ? [...picked, chart.id] : picked.filter((candidate) => candidate !== chart.id),
										)
									}
								/>
								<Icon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
								<span className="min-w-0 flex-1 truncate text-sm">{chart.name}</span>
								<span className="hidden shrink-0 text-muted-foreground text-xs sm:inline">
									{typeLabels[choice]} · {chart.databaseId ? chart.databaseName : 'database removed'}
								</span>
							</label>
						</li>
					)
				})}
			</ul>
			{isFull ? (
				<p className="text-muted-foreground text-xs">A dashboard holds at most {maxDashboardTiles} charts.</p>
			) : null}
		</fieldset>
	)
}

type DashboardActionsMenuProps = {
	dashboard: Dashboard
	/** In a list row: the trigger names the dashboard, and the menu can open the editor. */
	isInList?: boolean
	/** Called just before an action leaves the page (the editor lets it go without asking). */
	onLeave?: () => void
}

/** Open, open the public page, copy the embed link, and delete (after a confirmation). */
export function DashboardActionsMenu({ dashboard, isInList = false, onLeave }: DashboardActionsMenuProps) {
	const canDelete = useIsOwnerOrAdmin()
	const remove = useDeleteItem({
		mutationFn: deleteDashboard,
		keys: { list: dashboardKeys.list, detail: dashboardKeys.detail(dashboard.id) },
		listPath: dashboardPaths.list,
		deletedMessage: `${dashboard.name} was deleted. Its charts stay.`,
		isInList,
		onLeave,
	})

	return (
		<ItemActionsMenu
			name={dashboard.name}
			noun="dashboard"
			isInList={isInList}
			openPath={dashboardPaths.edit(dashboard.id)}
			canDelete={canDelete}
			deleteDescription={
				dashboard.published
					? 'Its public page and every embed of it stop showing the dashboard. Its charts are not touched.'
					: 'Its charts are not touched.'
			}
			onDelete={() => remove.mutateAsync(dashboard.id)}
			// A refusal (the caller's role changed since the page loaded) is said where they look.
			deleteProblem={
				remove.error ? (
					<Alert variant="error" title="The dashboard was not deleted">
						{errorMessage(remove.error)}
					</Alert>
				) : null
			}
			onDeleteDialogClose={() => remove.reset()}
		>
			{dashboard.published ? (
				<>
					<DropdownMenuItem asChild>
						<a href={dashboardPaths.public(dashboard.id)} target="_blank" rel="noreferrer">
							<ExternalLink aria-hidden /> Open public page
						</a>
					</DropdownMenuItem>
					<DropdownMenuItem onSelect={() => void copyLink(embedDashboardUrl(dashboard.id), 'embed link')}>
						<Link2 aria-hidden /> Copy embed link
					</DropdownMenuItem>
				</>
			) : null}
		</ItemActionsMenu>
	)
}
