import {
	type Chart,
	type Dashboard,
	type DashboardEmbed,
	type DashboardTile,
	maxDashboardTiles,
	type UpdateDashboard,
} from '@blocksmith/contracts/charts.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { LayoutDashboard, Move, Plus } from 'lucide-react'
import { type ReactNode, useMemo, useRef, useState } from 'react'
import { useParams } from 'react-router'
import { toast } from 'sonner'
import { SectionTabsList } from '#src/components/builder-layout.tsx'
import { PageGate } from '#src/components/page-gate.tsx'
import { ItemPageHeader } from '#src/components/page-header.tsx'
import { LeaveWithoutSavingDialog, SaveBar } from '#src/components/save-bar.tsx'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Tabs, TabsContent } from '#src/components/ui/tabs.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { useSaveShortcut, useUnsavedChangesGuard } from '#src/lib/use-unsaved-changes.ts'
import { chartsQuery } from '../api/charts.ts'
import {
	dashboardKeys,
	dashboardPaths,
	dashboardQuery,
	publicDashboardUrl,
	updateDashboard,
} from '../api/dashboards.ts'
import { ChartStatusBadge } from '../components/chart-actions.tsx'
import { compactTiles, DashboardGrid, withAddedTiles } from '../components/dashboard-grid.tsx'
import { ChartPicker, DashboardActionsMenu } from '../components/dashboard-list.tsx'
import { DashboardShare } from '../components/dashboard-share.tsx'
import { chartPaths } from '../lib/chart-paths.ts'
import { usePreviewTheme } from '../lib/hooks.ts'

/** What the editor changes before it is saved; publishing is applied at once, apart from it. */
type DashboardDraft = { name: string; description: string; tiles: DashboardTile[]; embed: DashboardEmbed }
type Errors = Record<string, string>
type Section = 'layout' | 'details' | 'share'

const sections = [
	['layout', 'Layout'],
	['details', 'Details'],
	['share', 'Share'],
] as const

/** The tiles as the grid shows them (pushed up into any gap), so opening a dashboard changes nothing. */
function draftFromDashboard(dashboard: Dashboard): DashboardDraft {
	return {
		name: dashboard.name,
		description: dashboard.description ?? '',
		tiles: compactTiles(dashboard.tiles),
		embed: dashboard.embed,
	}
}

function isSameDraft(left: DashboardDraft, right: DashboardDraft): boolean {
	return (
		left.name === right.name &&
		left.description === right.description &&
		JSON.stringify(left.tiles) === JSON.stringify(right.tiles) &&
		JSON.stringify(Object.entries(left.embed).sort()) === JSON.stringify(Object.entries(right.embed).sort())
	)
}

/** The whole dashboard, tiles included: the server keeps exactly the layout shown. */
function changesOf(draft: DashboardDraft): UpdateDashboard {
	return {
		name: draft.name.trim(),
		description: draft.description.trim() || null,
		tiles: draft.tiles.map(({ chartId, x, y, w, h }) => ({ chartId, x, y, w, h })),
		embed: draft.embed,
	}
}

function sectionOf(path: string): Section {
	return path.startsWith('embed') ? 'share' : path === 'name' || path === 'description' ? 'details' : 'layout'
}

function withoutErrors(errors: Errors, prefix: string): Errors {
	return Object.fromEntries(Object.entries(errors).filter(([path]) => !path.startsWith(prefix)))
}

/** /charts/dashboards/:id/edit: the dashboard's grid of charts, its details and its sharing. */
export function DashboardEditorPage() {
	const { id = '' } = useParams()
	return (
		<DashboardGate id={id}>{(dashboard) => <DashboardEditor key={dashboard.id} dashboard={dashboard} />}</DashboardGate>
	)
}

function DashboardGate({ id, children }: { id: string; children: (dashboard: Dashboard) => ReactNode }) {
	const dashboard = useQuery({ ...dashboardQuery(id), meta: { isErrorShownInPage: true } })
	return (
		<PageGate
			query={dashboard}
			loadingLabel="Loading the dashboard…"
			icon={LayoutDashboard}
			errorTitle="This dashboard could not be loaded"
			backTo={dashboardPaths.list}
			backLabel="Back to dashboards"
		>
			{children}
		</PageGate>
	)
}

function DashboardEditor({ dashboard }: { dashboard: Dashboard }) {
	const queryClient = useQueryClient()
	const charts = useQuery(chartsQuery)
	const chartsById = useMemo(
		() => (charts.data ? new Map(charts.data.map((chart) => [chart.id, chart])) : undefined),
		[charts.data],
	)
	const theme = usePreviewTheme()
	const baseline = useMemo(() => draftFromDashboard(dashboard), [dashboard])
	const [draft, setDraft] = useState<DashboardDraft>(baseline)
	const [saveErrors, setSaveErrors] = useState<Errors>({})
	const [section, setSection] = useState<Section>('layout')
	const isDirty = !isSameDraft(draft, baseline)

	// ---- editing ----

	function changeTiles(tiles: DashboardTile[]): void {
		setDraft((current) => ({ ...current, tiles }))
		// Tile errors name tiles by position: once the tiles change they may name the wrong one.
		setSaveErrors((current) => withoutErrors(current, 'tiles'))
	}

	function removeTile(chartId: string): void {
		changeTiles(compactTiles(draft.tiles.filter((tile) => tile.chartId !== chartId)))
	}

	// ---- saving ----

	function showProblems(error: unknown): void {
		if (error instanceof ApiError && error.fieldErrors.length > 0) {
			const found: Errors = {}
			for (const fieldError of error.fieldErrors) {
				found[fieldError.field] ??= fieldError.message
			}
			setSaveErrors(found)
			const first = Object.keys(found)[0]
			if (first !== undefined) {
				setSection(sectionOf(first))
			}
			toast.error(error.detail || 'Some settings need another look.')
		}
	}

	/** The draft a save sent, to tell whether it was edited while the save was on its way. */
	const submitted = useRef<DashboardDraft | null>(null)
	const save = useMutation({
		mutationFn: updateDashboard,
		meta: { isFormMutation: true },
		onSuccess: async (saved, variables) => {
			queryClient.setQueryData(dashboardKeys.detail(saved.id), saved)
			const sent = submitted.current
			setDraft((current) => (sent && isSameDraft(current, sent) ? draftFromDashboard(saved) : current))
			setSaveErrors({})
			await queryClient.invalidateQueries({ queryKey: dashboardKeys.list })
			if (variables.changes.published === true) {
				toast.success('The dashboard is published.', { description: publicDashboardUrl(saved.id) })
			} else {
				toast.success(saved.published ? 'Saved. The public dashboard and its embeds show the changes.' : 'Saved.')
			}
		},
		onError: showProblems,
	})
	// Publishing alone leaves the draft (and any unsaved edit in it) as it is.
	const publish = useMutation({
		mutationFn: updateDashboard,
		onSuccess: async (saved) => {
			queryClient.setQueryData(dashboardKeys.detail(saved.id), saved)
			await queryClient.invalidateQueries({ queryKey: dashboardKeys.list })
			toast.success(
				saved.published
					? 'The dashboard is published.'
					: 'The dashboard is unpublished: its link and embeds stop showing it.',
			)
		},
	})

	function submit(extra: { published?: boolean } = {}): void {
		if (!draft.name.trim()) {
			setSaveErrors({ name: 'Give the dashboard a name.' })
			setSection('details')
			toast.error('Give the dashboard a name before saving.')
			return
		}
		submitted.current = draft
		save.mutate({ id: dashboard.id, changes: { ...changesOf(draft), ...extra } })
	}

	function setPublished(published: boolean): void {
		// As the chart builder's: what is published is what the editor shows.
		if (published && isDirty) {
			submit({ published: true })
		} else {
			publish.mutate({ id: dashboard.id, changes: { published } })
		}
	}

	// Ctrl+S / ⌘S saves, as in any editor.
	useSaveShortcut(() => {
		if (isDirty && !save.isPending) {
			submit()
		}
	})

	// ---- leaving with unsaved changes ----

	const { blocker, leaveOnPurpose } = useUnsavedChangesGuard(isDirty)

	const isPublishing = publish.isPending || (save.isPending && save.variables?.changes.published !== undefined)
	const onBoard = new Set(draft.tiles.map((tile) => tile.chartId))
	const offBoard = charts.data?.filter((chart) => !onBoard.has(chart.id))
	const layoutProblem = saveErrors.tiles
	const sectionHasErrors = (name: Section) => Object.keys(saveErrors).some((path) => sectionOf(path) === name)

	return (
		<div className="grid grid-cols-1 gap-5">
			<ItemPageHeader
				crumbs={[
					{ label: 'Charts', to: chartPaths.list },
					{ label: 'Dashboards', to: dashboardPaths.list },
				]}
				title={dashboard.name}
				badge={<ChartStatusBadge chart={dashboard} />}
				details={
					<p className="text-muted-foreground text-sm">
						{dashboard.description ||
							`${draft.tiles.length} ${draft.tiles.length === 1 ? 'chart' : 'charts'} on one page`}
					</p>
				}
				actions={
					<DashboardActionsMenu
						dashboard={dashboard}
						onLeave={() => {
							leaveOnPurpose()
						}}
					/>
				}
			/>

			<SaveBar
				label="Save"
				noun="dashboard"
				isDirty={isDirty}
				save={save}
				isSaving={save.isPending && save.variables?.changes.published === undefined}
				onSave={() => submit()}
				onDiscard={() => {
					setDraft(baseline)
					setSaveErrors({})
				}}
			/>

			<Tabs value={section} onValueChange={(value) => setSection(value as Section)}>
				<SectionTabsList label="Dashboard settings" sections={sections} hasErrors={sectionHasErrors} />

				<TabsContent value="layout" className="grid gap-3">
					<div className="flex flex-wrap items-center justify-between gap-3">
						<p className="flex items-center gap-1.5 text-muted-foreground text-sm">
							<Move aria-hidden className="size-4 shrink-0" />
							Drag a chart by its title bar, resize it from its lower right corner, or use its menu.
						</p>
						<AddChartsDialog
							charts={offBoard}
							isLoading={charts.isPending}
							room={maxDashboardTiles - draft.tiles.length}
							onAdd={(chartIds) => changeTiles(withAddedTiles(draft.tiles, chartIds))}
						/>
					</div>
					{charts.isError ? (
						<Alert variant="error" title="Your charts could not be loaded">
							{errorMessage(charts.error)}
						</Alert>
					) : null}
					{layoutProblem ? (
						<Alert variant="error" title="The layout was not saved">
							{layoutProblem}
						</Alert>
					) : null}
					{draft.tiles.length > 0 ? (
						<div className="rounded-xl border bg-muted/30 dark:bg-muted/15">
							<DashboardGrid
								tiles={draft.tiles}
								charts={chartsById}
								theme={theme}
								tileErrors={saveErrors}
								onTilesChange={changeTiles}
								onRemove={removeTile}
							/>
						</div>
					) : (
						<EmptyState
							icon={LayoutDashboard}
							title="No charts on this dashboard"
							description="Add charts of your organization, then drag them into place and size them."
						/>
					)}
				</TabsContent>

				<TabsContent value="details" className="grid max-w-2xl gap-6">
					<Field label="Name" description="Shown as the public page's title." error={saveErrors.name} isRequired>
						<Input
							value={draft.name}
							maxLength={200}
							onChange={(event) => {
								const name = event.target.value
								setDraft((current) => ({ ...current, name }))
								setSaveErrors((current) => withoutErrors(current, 'name'))
							}}
						/>
					</Field>
					<Field
						label="Description"
						description="A line under the title on the public page; optional."
						error={saveErrors.description}
					>
						<Textarea
							value={draft.description}
							maxLength={1000}
							onChange={(event) => {
								const description = event.target.value
								setDraft((current) => ({ ...current, description }))
								setSaveErrors((current) => withoutErrors(current, 'description'))
							}}
						/>
					</Field>
				</TabsContent>

				<TabsContent value="share">
					<DashboardShare
						dashboard={dashboard}
						embed={draft.embed}
						errors={saveErrors}
						onEmbedChange={(embed) => {
							setDraft((current) => ({ ...current, embed }))
							setSaveErrors((current) => withoutErrors(current, 'embed'))
						}}
						onPublishedChange={setPublished}
						isPublishing={isPublishing}
					/>
				</TabsContent>
			</Tabs>

			<LeaveWithoutSavingDialog blocker={blocker} noun="dashboard" />
		</div>
	)
}

type AddChartsDialogProps = {
	/** The organization's charts not on the dashboard yet. */
	charts: Chart[] | undefined
	isLoading: boolean
	/** How many more the dashboard holds. */
	room: number
	onAdd: (chartIds: string[]) => void
}

/** Tick charts of the organization that are not on the dashboard yet; they go at the bottom. */
function AddChartsDialog({ charts, isLoading, room, onAdd }: AddChartsDialogProps) {
	const [isOpen, setIsOpen] = useState(false)
	const [picked, setPicked] = useState<string[]>([])
	return (
		<Dialog
			open={isOpen}
			onOpenChange={(open) => {
				setIsOpen(open)
				if (!open) {
					setPicked([])
				}
			}}
		>
			<DialogTrigger asChild>
				<Button variant="outline" size="sm" disabled={room <= 0}>
					<Plus aria-hidden /> Add chart
				</Button>
			</DialogTrigger>
			<DialogContent
				title="Add charts"
				description="They are placed at the bottom, two to a row. Save to keep them on the dashboard."
			>
				<ChartPicker
					charts={charts}
					isLoading={isLoading}
					picked={picked}
					onPickedChange={setPicked}
					limit={room}
					emptyMessage="Every chart of your organization is on this dashboard already."
				/>
				<DialogFooter>
					<Button variant="outline" onClick={() => setIsOpen(false)}>
						Cancel
					</Button>
					<Button
						disabled={picked.length === 0}
						onClick={() => {
							onAdd(picked)
							setIsOpen(false)
							setPicked([])
						}}
					>
						{picked.length > 1 ? `Add ${picked.length} charts` : 'Add chart'}
					</Button>
				</DialogFooter>
			</DialogContent>
		</Dialog>
	)
}
