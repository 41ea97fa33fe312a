import type { PortalDatabaseOption, PortalView } from '@blocksmith/contracts/portals.ts'
import { Controller, useWatch } from 'react-hook-form'
import { Checkbox } from '#src/components/ui/checkbox.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Switch } from '#src/components/ui/switch.tsx'
import { propertyName } from '../lib/rules.ts'
import { errorAt, type PortalForm } from './form-parts.ts'
import { PropertyPicker } from './property-picker.tsx'
import { RulePicker } from './rule-picker.tsx'

const views: { value: PortalView; label: string }[] = [
	{ value: 'table', label: 'Table' },
	{ value: 'list', label: 'List' },
	{ value: 'board', label: 'Board' },
	{ value: 'gallery', label: 'Gallery' },
]

/** One page's settings: title, who sees which rows, the properties, the view and what visitors may do. */
export function PageEditor({
	form,
	index,
	database,
	tool,
}: {
	form: PortalForm
	index: number
	database: PortalDatabaseOption | undefined
	tool: 'local' | 'notion'
}) {
	const at = `pages.${index}` as const
	const err = (path: string) => errorAt(form, `${at}.${path}`)
	const page = useWatch({ control: form.control, name: at })
	const properties = database?.properties ?? []
	const shownProperties = page.properties.map((ref) => ({ ref, name: propertyName(database, ref) }))
	const groupable = properties.filter((property) => property.type === 'status' || property.type === 'select')
	const covers = properties.filter((property) => property.type === 'files')
	const sortable = properties.filter((property) => property.type !== 'relation' && property.type !== 'files')
	const sort = page.sort[0]
	const title = page.title || 'this page'
	return (
		<div className="grid gap-5">
			<Field label="Page title" isRequired error={err('title')}>
				<Input {...form.register(`${at}.title`)} />
			</Field>
			<Controller
				control={form.control}
				name={`${at}.rule`}
				render={({ field }) => (
					<RulePicker
						label={`Who sees which rows of ${title}`}
						value={field.value}
						database={database}
						error={err('rule.property') ?? err('rule.kind') ?? err('rule')}
						onChange={field.onChange}
					/>
				)}
			/>
			<Controller
				control={form.control}
				name={`${at}.properties`}
				render={({ field }) => (
					<PropertyPicker
						label={`Properties of ${title}`}
						properties={properties}
						value={field.value}
						error={err('properties')}
						onChange={field.onChange}
					/>
				)}
			/>
			<div className="grid items-start gap-4 sm:grid-cols-2">
				<Field label="View" error={err('view')}>
					<NativeSelect {...form.register(`${at}.view`)}>
						{views.map((view) => (
							<option key={view.value} value={view.value}>
								{view.label}
							</option>
						))}
					</NativeSelect>
				</Field>
				{page.view === 'board' ? (
					<Field label="Group the board by" isRequired error={err('groupBy')}>
						<NativeSelect
							value={page.groupBy ?? ''}
							onChange={(event) => form.setValue(`${at}.groupBy`, event.target.value || null, { shouldDirty: true })}
						>
							<option value="">Choose a status or select…</option>
							{groupable.map((property) => (
								<option key={property.id} value={property.id}>
									{property.name}
								</option>
							))}
						</NativeSelect>
					</Field>
				) : page.view === 'gallery' ? (
					<Field label="Card cover" description="The first image of a files property." error={err('coverProperty')}>
						<NativeSelect
							value={page.coverProperty ?? ''}
							onChange={(event) =>
								form.setValue(`${at}.coverProperty`, event.target.value || null, { shouldDirty: true })
							}
						>
							<option value="">No cover</option>
							{covers.map((property) => (
								<option key={property.id} value={property.id}>
									{property.name}
								</option>
							))}
						</NativeSelect>
					</Field>
				) : null}
			</div>
			<div className="grid items-start gap-4 sm:grid-cols-2">
				<Field label="Rows come sorted by" error={err('sort.0.property') ?? err('sort')}>
					<NativeSelect
						value={sort?.property ?? ''}
						onChange={(event) =>
							form.setValue(
								`${at}.sort`,
								event.target.value ? [{ property: event.target.value, direction: sort?.direction ?? 'ascending' }] : [],
								{ shouldDirty: true },
							)
						}
					>
						<option value="">The database’s order</option>
						{sortable.map((property) => (
							<option key={property.id} value={property.id}>
								{property.name}
							</option>
						))}
						<option value="created_time">Created</option>
						<option value="last_edited_time">Last edited</option>
					</NativeSelect>
				</Field>
				{sort ? (
					<Field label="Direction">
						<NativeSelect
							value={sort.direction}
							onChange={(event) =>
								form.setValue(
									`${at}.sort`,
									[{ property: sort.property, direction: event.target.value as 'ascending' | 'descending' }],
									{ shouldDirty: true },
								)
							}
						>
							<option value="ascending">Ascending (A→Z, oldest first)</option>
							<option value="descending">Descending (Z→A, newest first)</option>
						</NativeSelect>
					</Field>
				) : null}
			</div>
			<fieldset className="grid gap-2">
				<legend className="mb-1 font-medium text-sm">Members can filter by</legend>
				{shownProperties.length === 0 ? (
					<p className="text-muted-foreground text-sm">Show some properties first.</p>
				) : (
					<div className="flex flex-wrap gap-x-5 gap-y-2">
						{shownProperties.map(({ ref, name }) => (
							<Field key={ref} orientation="horizontal" label={name}>
								<Checkbox
									checked={page.filterable.includes(ref)}
									onCheckedChange={(checked) =>
										form.setValue(
											`${at}.filterable`,
											checked === true ? [...page.filterable, ref] : page.filterable.filter((other) => other !== ref),
											{ shouldDirty: true },
										)
									}
								/>
							</Field>
						))}
					</div>
				)}
				{err('filterable') ? <p className="text-[13px] text-error">{err('filterable')}</p> : null}
			</fieldset>
			<Controller
				control={form.control}
				name={`${at}.isSearchable`}
				render={({ field }) => (
					<Field orientation="horizontal" label="Members can search titles">
						<Switch checked={field.value} onCheckedChange={field.onChange} />
					</Field>
				)}
			/>
			<Controller
				control={form.control}
				name={`${at}.showContent`}
				render={({ field }) => (
					<Field
						orientation="horizontal"
						label="Show each row’s page content"
						description={
							tool === 'notion'
								? 'The Notion page’s text and images, read-only, on the row’s page.'
								: 'Built-in rows have no page content; this matters once the portal is on Notion.'
						}
					>
						<Switch checked={field.value} onCheckedChange={field.onChange} />
					</Field>
				)}
			/>
		</div>
	)
}
