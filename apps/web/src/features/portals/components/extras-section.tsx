import type { PortalDatabaseOption } from '@blocksmith/contracts/portals.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useQuery } from '@tanstack/react-query'
import { Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Controller, useWatch } from 'react-hook-form'
import { Button } from '#src/components/ui/button.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { type PortalOffer, portalChartsQuery, portalFormsQuery } from '../api/portals.ts'
import { Section } from './branding-section.tsx'
import { errorAt, type PortalForm } from './form-parts.ts'

/**
 * What members can do besides reading pages: fill in the team's forms (the new row linked to
 * them), see their company's invoices, and published charts filtered to the rows a page grants.
 */
export function ExtrasSection({
	form,
	tool,
	databases,
}: {
	form: PortalForm
	tool: WorkspaceTool
	databases: PortalDatabaseOption[] | undefined
}) {
	const err = (path: string) => errorAt(form, path)
	const forms = useQuery({ ...portalFormsQuery(tool), meta: { isErrorShownInPage: true } })
	const charts = useQuery({ ...portalChartsQuery(tool), meta: { isErrorShownInPage: true } })
	const [chosenForms, chosenCharts, pages, companiesDatabaseId, membersDatabaseId] = useWatch({
		control: form.control,
		name: ['rest.forms', 'rest.charts', 'pages', 'access.companiesDatabaseId', 'access.membersDatabaseId'],
	})
	const chosenFormList = chosenForms ?? []
	const chosenChartList = chosenCharts ?? []
	const [addingForm, setAddingForm] = useState('')
	const [addingChart, setAddingChart] = useState('')
	const formById = new Map((forms.data ?? []).map((one) => [one.id, one]))
	const chartById = new Map((charts.data ?? []).map((one) => [one.id, one]))
	const databaseById = new Map((databases ?? []).map((database) => [database.id, database]))
	const set = (name: 'rest.forms' | 'rest.charts', value: unknown) =>
		form.setValue(name, value as never, { shouldDirty: true })
	/** Relations of the form's database to the companies or members database: where the member's link goes. */
	const linkProperties = (offer: PortalOffer | undefined) =>
		(databaseById.get(offer?.databaseId ?? '')?.properties ?? []).filter(
			(property) =>
				property.type === 'relation' &&
				property.relationDatabaseId &&
				[companiesDatabaseId, membersDatabaseId].includes(property.relationDatabaseId),
		)
	const formsLeft = (forms.data ?? []).filter(
		(one) => one.published && !chosenFormList.some((chosen) => chosen.formId === one.id),
	)
	const chartsLeft = (charts.data ?? []).filter(
		(one) =>
			one.published &&
			!chosenChartList.some((chosen) => chosen.chartId === one.id) &&
			pages.some((page) => page.databaseId === one.databaseId),
	)
	const name = (offer: PortalOffer | undefined, id: string) => offer?.name ?? `Not found (${id})`

	return (
		<Section
			id="extras"
			title="For members"
			description="Besides reading pages, members can fill in your forms, see their invoices and look at your charts."
		>
			<fieldset className="grid gap-2">
				<legend className="mb-1 font-medium text-sm">Forms</legend>
				{chosenFormList.length === 0 ? (
					<p className="text-muted-foreground text-sm">No form yet. Members fill them in signed in, as themselves.</p>
				) : (
					<ul aria-label="Forms of the portal" className="grid gap-2">
						{chosenFormList.map((chosen, index) => {
							const offer = formById.get(chosen.formId)
							const links = linkProperties(offer)
							return (
								<li key={chosen.formId} className="flex flex-wrap items-end gap-2 rounded-md border p-2">
									<span className="min-w-0 flex-1 basis-40 self-center truncate font-medium text-sm">
										{name(offer, chosen.formId)}
									</span>
									<Field
										label={`Link the new row to the member through (${name(offer, chosen.formId)})`}
										isLabelHidden
										error={err(`rest.forms.${index}.linkProperty`) ?? err(`rest.forms.${index}.formId`)}
										className="min-w-0 flex-1 basis-56"
									>
										<NativeSelect
											value={chosen.linkProperty ?? ''}
											onChange={(event) =>
												set(
													'rest.forms',
													chosenFormList.map((one, at) =>
														at === index ? { ...one, linkProperty: event.target.value || null } : one,
													),
												)
											}
										>
											<option value="">Don’t link the new row</option>
											{links.map((property) => (
												<option key={property.id} value={property.id}>
													Link it through {property.name}
												</option>
											))}
										</NativeSelect>
									</Field>
									<Button
										variant="ghost"
										size="icon-sm"
										aria-label={`Remove ${name(offer, chosen.formId)}`}
										onClick={() =>
											set(
												'rest.forms',
												chosenFormList.filter((_, at) => at !== index),
											)
										}
									>
										<Trash2 aria-hidden />
									</Button>
								</li>
							)
						})}
					</ul>
				)}
				{formsLeft.length > 0 ? (
					<div className="flex flex-wrap items-end gap-2">
						<Field label="Add a form" className="min-w-0 flex-1 sm:max-w-sm">
							<NativeSelect value={addingForm} onChange={(event) => setAddingForm(event.target.value)}>
								<option value="">Choose a published form…</option>
								{formsLeft.map((one) => (
									<option key={one.id} value={one.id}>
										{one.name}
									</option>
								))}
							</NativeSelect>
						</Field>
						<Button
							variant="outline"
							disabled={!addingForm}
							onClick={() => {
								const link = linkProperties(formById.get(addingForm))[0]
								set('rest.forms', [...chosenFormList, { formId: addingForm, linkProperty: link?.id ?? null }])
								setAddingForm('')
							}}
						>
							<Plus aria-hidden /> Add form
						</Button>
					</div>
				) : null}
			</fieldset>

			<Controller
				control={form.control}
				name="rest.showInvoices"
				render={({ field }) => (
					<Field
						orientation="horizontal"
						label="Members see their company’s invoices"
						description={
							companiesDatabaseId
								? 'Sent invoices to their company, to view, download and pay.'
								: 'Needs the companies database (under Access).'
						}
						error={err('rest.showInvoices')}
					>
						<Switch checked={Boolean(field.value)} onCheckedChange={field.onChange} />
					</Field>
				)}
			/>

			<fieldset className="grid gap-2">
				<legend className="mb-1 font-medium text-sm">Charts</legend>
				{chosenChartList.length === 0 ? (
					<p className="text-muted-foreground text-sm">
						No chart yet. A chart shows a member only the rows a page gives them.
					</p>
				) : (
					<ul aria-label="Charts of the portal" className="grid gap-1.5">
						{chosenChartList.map((chosen, index) => (
							<li key={chosen.chartId} className="flex items-center gap-2 rounded-md border px-2 py-1.5 text-sm">
								<span className="min-w-0 flex-1 truncate">
									{name(chartById.get(chosen.chartId), chosen.chartId)}{' '}
									<span className="text-muted-foreground">
										· rows of {pages.find((page) => page.id === chosen.pageId)?.title ?? chosen.pageId}
									</span>
									{(err(`rest.charts.${index}.chartId`) ?? err(`rest.charts.${index}.pageId`)) ? (
										<span className="block text-error text-xs">
											{err(`rest.charts.${index}.chartId`) ?? err(`rest.charts.${index}.pageId`)}
										</span>
									) : null}
								</span>
								<Button
									variant="ghost"
									size="icon-sm"
									aria-label={`Remove ${name(chartById.get(chosen.chartId), chosen.chartId)}`}
									onClick={() =>
										set(
											'rest.charts',
											chosenChartList.filter((_, at) => at !== index),
										)
									}
								>
									<Trash2 aria-hidden />
								</Button>
							</li>
						))}
					</ul>
				)}
				{chartsLeft.length > 0 ? (
					<div className="flex flex-wrap items-end gap-2">
						<Field label="Add a chart" className="min-w-0 flex-1 sm:max-w-sm">
							<NativeSelect value={addingChart} onChange={(event) => setAddingChart(event.target.value)}>
								<option value="">Choose a published chart…</option>
								{chartsLeft.map((one) => (
									<option key={one.id} value={one.id}>
										{one.name}
									</option>
								))}
							</NativeSelect>
						</Field>
						<Button
							variant="outline"
							disabled={!addingChart}
							onClick={() => {
								const chart = chartById.get(addingChart)
								const page = pages.find((one) => one.databaseId === chart?.databaseId)
								if (page) {
									set('rest.charts', [...chosenChartList, { chartId: addingChart, pageId: page.id }])
								}
								setAddingChart('')
							}}
						>
							<Plus aria-hidden /> Add chart
						</Button>
					</div>
				) : (
					<p className="text-muted-foreground text-xs">
						A chart can be added once it is published and the portal has a page on its database.
					</p>
				)}
			</fieldset>
		</Section>
	)
}
