import type { Chart, ChartConfig, ChartEmbed, ChartRender } from '@blocksmith/contracts/charts.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { BarChart3, Table2 } from 'lucide-react'
import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react'
import { useParams, useSearchParams } from 'react-router'
import { toast } from 'sonner'
import { SectionTabsList, SettingsAndPreview } from '#src/components/builder-layout.tsx'
import { PageGate } from '#src/components/page-gate.tsx'
import { ItemPageHeader } from '#src/components/page-header.tsx'
import { LeaveWithoutSavingDialog, SaveBar } from '#src/components/save-bar.tsx'
import { Alert } from '#src/components/ui/alert.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Skeleton, SkeletonGroup } from '#src/components/ui/skeleton.tsx'
import { Tabs, TabsContent } from '#src/components/ui/tabs.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { useSaveShortcut, useUnsavedChangesGuard } from '#src/lib/use-unsaved-changes.ts'
import { databaseQuery, workspacesQuery } from '#src/workspaces/api/workspaces.ts'
import { chartKeys, chartQuery, previewQuery, updateChart } from '../api/charts.ts'
import { ChartActionsMenu, ChartStatusBadge } from '../components/chart-actions.tsx'
import { ChartPreview } from '../components/chart-preview.tsx'
import { DataSettings } from '../components/data-settings.tsx'
import { FilterSettings } from '../components/filter-settings.tsx'
import { ShareSettings } from '../components/share-settings.tsx'
import { StyleSettings } from '../components/style-settings.tsx'
import {
	type ChartErrors,
	chartableProperties,
	errorsByPath,
	type Section,
	sectionOf,
	withoutErrors,
} from '../lib/chart-config.ts'
import { chartPaths, publicChartUrl } from '../lib/chart-paths.ts'
import { type ChartDraft, changesOf, configErrors, draftFromChart, isSameDraft, validateDraft } from '../lib/draft.ts'
import { useDebouncedValue, useElementWidth, usePreviewTheme } from '../lib/hooks.ts'

/** How long the settings must rest before the preview is redrawn. */
const previewDelayMs = 250

/** /charts/:id/edit: the settings of a chart on the left, its live preview on the right. */
export function ChartBuilderPage() {
	const { id = '' } = useParams()
	return <ChartGate id={id}>{(chart) => <ChartBuilder key={chart.id} chart={chart} />}</ChartGate>
}

function ChartGate({ id, children }: { id: string; children: (chart: Chart) => ReactNode }) {
	const [search] = useSearchParams()
	const toolHint = search.get('tool')
	const chart = useQuery(chartQuery(id, toolHint === 'local' || toolHint === 'notion' ? toolHint : null))
	return (
		<PageGate
			query={chart}
			loadingLabel="Loading the chart…"
			icon={BarChart3}
			errorTitle="This chart could not be loaded"
			backTo={chartPaths.list}
			backLabel="Back to charts"
		>
			{children}
		</PageGate>
	)
}

const sections = [
	['data', 'Data'],
	['filters', 'Filters'],
	['style', 'Style'],
	['share', 'Share'],
] as const

function ChartBuilder({ chart }: { chart: Chart }) {
	const queryClient = useQueryClient()
	const database = useQuery({ ...databaseQuery(chart.tool, chart.databaseId), enabled: Boolean(chart.databaseId) })
	const workspaces = useQuery(workspacesQuery)
	const [draft, setDraft] = useState<ChartDraft>(() => draftFromChart(chart))
	const [saveErrors, setSaveErrors] = useState<ChartErrors>({})
	const [section, setSection] = useState<Section>('data')
	const [isPreviewShown, setIsPreviewShown] = useState(false)
	const baseline = useMemo(() => draftFromChart(chart), [chart])
	const isDirty = !isSameDraft(draft, baseline)
	const isDatabaseGone = !chart.databaseId || database.isError
	const properties = useMemo(() => chartableProperties(database.data?.properties ?? []), [database.data])
	const workspace = workspaces.data?.find((candidate) => candidate.id === chart.workspaceId)

	// ---- preview ----

	const theme = usePreviewTheme()
	const [measureRef, width] = useElementWidth(800)
	const settled = useDebouncedValue(draft.config, previewDelayMs)
	const settledErrors = useMemo(() => configErrors(settled), [settled])
	const canPreview = Boolean(chart.databaseId) && Object.keys(settledErrors).length === 0
	const preview = useQuery({
		...previewQuery({ tool: chart.tool, databaseId: chart.databaseId, config: settled, width, theme }),
		enabled: canPreview,
	})
	// Kept while a newer drawing is computed or could not be: the preview never blinks to empty.
	const lastRender = useRef<ChartRender | undefined>(undefined)
	if (preview.data) {
		lastRender.current = preview.data
	}
	const previewErrors = preview.error instanceof ApiError ? errorsByPath(preview.error.fieldErrors) : {}
	const problems = errorsByPath(preview.data?.figures.problems ?? [])
	const liveErrors = configErrors(draft.config)
	// The save's answer speaks last: it is about exactly these settings.
	const errors: ChartErrors = { ...problems, ...previewErrors, ...liveErrors, ...saveErrors }
	const isUpdating = preview.isFetching || settled !== draft.config

	// ---- editing ----

	const changeConfig = useCallback((config: ChartConfig, path: string) => {
		setDraft((current) => ({ ...current, config }))
		setSaveErrors((current) => withoutErrors(current, path))
	}, [])

	const changeEmbed = useCallback((embed: ChartEmbed, path: string) => {
		setDraft((current) => ({ ...current, embed }))
		setSaveErrors((current) => withoutErrors(current, path))
	}, [])

	/** Opens the tab of a setting with a problem and puts the focus on it. */
	const reveal = useCallback((path: string) => {
		setSection(sectionOf(path))
		setIsPreviewShown(false)
		requestAnimationFrame(() =>
			requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()),
		)
	}, [])

	// ---- saving ----

	function showProblems(error: unknown): void {
		if (error instanceof ApiError && error.fieldErrors.length > 0) {
			const found = errorsByPath(error.fieldErrors)
			setSaveErrors(found)
			const first = Object.keys(found)[0]
			if (first !== undefined) {
				reveal(first)
			}
			toast.error(error.detail || 'Some settings need another look.')
		}
	}

	/** The draft a save sent, to tell whether it was edited while the save was on its way. */
	const submitted = useRef<ChartDraft | null>(null)
	const save = useMutation({
		mutationFn: updateChart,
		meta: { isFormMutation: true },
		onSuccess: async (saved, variables) => {
			queryClient.setQueryData(chartKeys.detail(saved.id), saved)
			const sent = submitted.current
			setDraft((current) => (sent && isSameDraft(current, sent) ? draftFromChart(saved) : current))
			setSaveErrors({})
			await queryClient.invalidateQueries({ queryKey: chartKeys.list })
			if (variables.changes.published === true) {
				toast.success('The chart is published.', { description: publicChartUrl(saved.id) })
			} else {
				toast.success(saved.published ? 'Saved. The public chart and its embeds show the changes.' : 'Saved.')
			}
		},
		onError: showProblems,
	})
	// Publishing alone leaves the draft (and any unsaved edit in it) as it is.
	const publish = useMutation({
		mutationFn: updateChart,
		onSuccess: async (saved) => {
			queryClient.setQueryData(chartKeys.detail(saved.id), saved)
			await queryClient.invalidateQueries({ queryKey: chartKeys.list })
			toast.success(
				saved.published ? 'The chart is published.' : 'The chart is unpublished: its link and embeds stop showing it.',
			)
		},
	})

	function submit(extra: { published?: boolean } = {}): void {
		const found = validateDraft(draft)
		if (Object.keys(found).length > 0) {
			setSaveErrors(found)
			const first = Object.keys(found)[0]
			if (first !== undefined) {
				reveal(first)
			}
			toast.error('Some settings need another look before saving.')
			return
		}
		submitted.current = draft
		save.mutate({ chart, changes: { ...changesOf(draft), ...extra } })
	}

	function setPublished(published: boolean): void {
		// As the forms' Publish: what is published is what the builder shows.
		if (published && isDirty) {
			submit({ published: true })
		} else {
			publish.mutate({ chart, changes: { published } })
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

	const sectionHasErrors = (name: Section) => Object.keys(errors).some((path) => sectionOf(path) === name)
	const isPublishing = publish.isPending || (save.isPending && save.variables?.changes.published !== undefined)

	return (
		<div className="grid grid-cols-1 gap-5">
			<ItemPageHeader
				crumbs={[{ label: 'Charts', to: chartPaths.list }]}
				title={chart.name}
				badge={<ChartStatusBadge chart={chart} />}
				details={
					<p className="inline-flex items-center gap-1.5 text-muted-foreground text-sm">
						<Table2 aria-hidden className="size-4" />
						{chart.databaseId ? `Drawn from ${chart.databaseName}` : 'Its database was removed'}
						{workspace ? ` · ${workspace.name}` : ''} · {chart.tool === 'notion' ? 'Notion' : 'Built-in'}
					</p>
				}
				actions={
					<ChartActionsMenu
						chart={chart}
						onLeave={() => {
							leaveOnPurpose()
						}}
					/>
				}
			/>

			<SaveBar
				label="Save"
				noun="chart"
				isDirty={isDirty}
				save={save}
				isSaving={save.isPending && save.variables?.changes.published === undefined}
				onSave={() => submit()}
				onDiscard={() => {
					setDraft(baseline)
					setSaveErrors({})
				}}
				preview={{ isShown: isPreviewShown, onToggle: () => setIsPreviewShown((shown) => !shown) }}
			/>

			{isDatabaseGone && !database.isPending ? (
				<Alert variant="warning" title="The database of this chart is gone">
					It was removed or its workspace was disconnected, so there is nothing to draw. A published chart says so on
					its page; delete the chart, or build a new one on another database.
				</Alert>
			) : null}

			<SettingsAndPreview
				className="xl:grid-cols-[minmax(0,26rem)_minmax(0,1fr)]"
				isPreviewShown={isPreviewShown}
				settings={
					<Tabs value={section} onValueChange={(value) => setSection(value as Section)}>
						<SectionTabsList label="Chart settings" sections={sections} hasErrors={sectionHasErrors} />
						<TabsContent value="data" className="grid gap-8">
							<Field
								label="Chart name"
								description="For you and your team; the title is under Style."
								error={errors.name}
								isRequired
							>
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
							{database.isPending && chart.databaseId ? (
								<SkeletonGroup label="Loading the properties…" className="grid gap-2">
									<Skeleton className="h-24 w-full" />
									<Skeleton className="h-12 w-full" />
									<Skeleton className="h-12 w-full" />
								</SkeletonGroup>
							) : (
								<DataSettings config={draft.config} properties={properties} errors={errors} onChange={changeConfig} />
							)}
						</TabsContent>
						<TabsContent value="filters">
							<FilterSettings config={draft.config} properties={properties} errors={errors} onChange={changeConfig} />
						</TabsContent>
						<TabsContent value="style">
							<StyleSettings config={draft.config} errors={errors} onChange={changeConfig} />
						</TabsContent>
						<TabsContent value="share">
							<ShareSettings
								chart={chart}
								embed={draft.embed}
								errors={errors}
								onEmbedChange={changeEmbed}
								onPublishedChange={setPublished}
								isPublishing={isPublishing}
								isDirty={isDirty}
								theme={theme}
								width={width}
							/>
						</TabsContent>
					</Tabs>
				}
				preview={
					<div ref={measureRef} className="rounded-xl border bg-card p-4">
						{isDatabaseGone ? (
							<p className="py-12 text-center text-muted-foreground text-sm">
								There is nothing to draw without the chart's database.
							</p>
						) : (
							<ChartPreview
								render={preview.data ?? lastRender.current}
								error={
									preview.error
										? errorMessage(preview.error)
										: canPreview || !chart.databaseId
											? null
											: 'Some settings need another look (see the marked fields).'
								}
								isLoading={preview.isPending && canPreview}
								isUpdating={isUpdating && canPreview}
								height={draft.config.display.height}
								numberFormat={draft.config.display.numberFormat}
								onReveal={reveal}
							/>
						)}
					</div>
				}
			/>

			<LeaveWithoutSavingDialog blocker={blocker} noun="chart" />
		</div>
	)
}
