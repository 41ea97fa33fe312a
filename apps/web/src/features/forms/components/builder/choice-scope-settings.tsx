import type { ChoiceScope, FormField } from '@blocksmith/contracts/forms.ts'
import type { Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useQuery } from '@tanstack/react-query'
import { useEffect, useId, useState } from 'react'
import { Checkbox } from '#src/components/ui/checkbox.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { databaseQuery, searchRows, usersQuery } from '#src/workspaces/api/workspaces.ts'
import { ScopeFilters } from './scope-filters.tsx'

type ChoiceScopeSettingsProps = {
	field: FormField
	property: Property | undefined
	tool: WorkspaceTool
	workspaceId: string
	error: (key: string) => string | undefined
	onChange: (changes: Partial<FormField>, path: string) => void
}

type Mode = ChoiceScope['mode']

/**
 * "Choices visitors may see" of a relation or people field: everything, the related rows that
 * match filters (relation), a chosen few, or none until the visitor types (search only). The
 * public reads return nothing else, so this is also what the field exposes.
 */
export function ChoiceScopeSettings({ field, property, tool, workspaceId, error, onChange }: ChoiceScopeSettingsProps) {
	const id = useId()
	const scope = field.choiceScope
	const isRelation = field.kind === 'relation'
	const relationDatabaseId = property?.relationDatabaseId ?? ''
	const related = useQuery({
		...databaseQuery(tool, relationDatabaseId),
		enabled: isRelation && Boolean(relationDatabaseId),
	})
	const set = (next: ChoiceScope) => onChange({ choiceScope: next }, 'choiceScope')
	const noun = isRelation ? 'rows' : 'people'
	const modes: [Mode, string, string][] = [
		['all', `All ${noun}`, isRelation ? 'The first 100 rows by title.' : 'Everyone in the workspace.'],
		...(isRelation
			? ([['filter', 'Only rows matching filters', 'On the related database’s properties.']] as [
					Mode,
					string,
					string,
				][])
			: []),
		['subset', `Only chosen ${noun}`, 'Pick them below.'],
		['search', 'Search only', 'Nothing is listed; up to 10 matches appear after two typed letters.'],
	]

	function pick(mode: Mode): void {
		if (mode === scope.mode) {
			return
		}
		// Filters and chosen ids start empty; the contract asks for at least one before saving.
		if (mode === 'filter') {
			set({ mode, filters: [] })
		} else if (mode === 'subset') {
			set({ mode, ids: [] })
		} else {
			set({ mode })
		}
	}

	return (
		<div className="grid gap-3">
			<fieldset className="grid gap-2">
				<legend className="mb-2 font-medium text-sm leading-none">Choices visitors may see</legend>
				{modes.map(([mode, label, hint]) => (
					<label key={mode} className="flex items-start gap-2 text-sm">
						<input
							type="radio"
							name={`${id}-scope`}
							value={mode}
							checked={scope.mode === mode}
							className="mt-0.5 size-4 accent-primary"
							onChange={() => pick(mode)}
						/>
						<span>
							{label}
							<span className="block text-muted-foreground text-xs">{hint}</span>
						</span>
					</label>
				))}
				{error('choiceScope') ? <p className="text-[13px] text-error">{error('choiceScope')}</p> : null}
			</fieldset>
			{scope.mode === 'filter' ? (
				related.data ? (
					<ScopeFilters
						properties={related.data.properties}
						filters={scope.filters}
						error={(key) => error(`choiceScope.filters${key}`)}
						onChange={(filters) => set({ mode: 'filter', filters })}
					/>
				) : (
					<p className="text-muted-foreground text-sm">
						{related.isPending && relationDatabaseId
							? 'Loading the related database…'
							: 'The related database is not connected here, so its properties cannot be filtered.'}
					</p>
				)
			) : null}
			{scope.mode === 'subset' ? (
				<SubsetPicker
					field={field}
					tool={tool}
					workspaceId={workspaceId}
					databaseId={relationDatabaseId}
					ids={scope.ids}
					error={error('choiceScope.ids')}
					onChange={(ids) => set({ mode: 'subset', ids })}
				/>
			) : null}
		</div>
	)
}

type SubsetPickerProps = {
	field: FormField
	tool: WorkspaceTool
	workspaceId: string
	databaseId: string
	ids: readonly string[]
	error: string | undefined
	onChange: (ids: string[]) => void
}

/** Rows (searched by title) or people to offer; a relation holds the rows' workspace ids. */
function SubsetPicker({ field, tool, workspaceId, databaseId, ids, error, onChange }: SubsetPickerProps) {
	const id = useId()
	const isRelation = field.kind === 'relation'
	const [search, setSearch] = useState('')
	const [debounced, setDebounced] = useState('')
	useEffect(() => {
		const timer = setTimeout(() => setDebounced(search), 250)
		return () => clearTimeout(timer)
	}, [search])
	const users = useQuery({ ...usersQuery(tool, workspaceId), enabled: !isRelation })
	const rows = useQuery({
		queryKey: ['forms', 'relation-choices', tool, databaseId, debounced],
		queryFn: () => searchRows({ tool, databaseId, search: debounced }),
		enabled: isRelation && Boolean(databaseId),
	})
	const needle = search.trim().toLowerCase()
	const choices = isRelation
		? (rows.data ?? []).map((row) => ({ id: row.externalId, label: row.title || 'Untitled' }))
		: (users.data ?? [])
				.filter((user) => user.type === 'person' && (!needle || user.name.toLowerCase().includes(needle)))
				.map((user) => ({ id: user.id, label: user.name }))
	const isPending = isRelation ? rows.isPending && Boolean(databaseId) : users.isPending
	return (
		<fieldset className="grid gap-2 rounded-lg border p-3" aria-describedby={error ? `${id}-error` : undefined}>
			<legend className="px-1 font-medium text-sm">{isRelation ? 'Rows to offer' : 'People to offer'}</legend>
			<p className="text-muted-foreground text-xs">
				{ids.length} chosen{ids.length ? '' : ': tick at least one'}.
			</p>
			<Input
				type="search"
				aria-label={isRelation ? 'Search rows by title' : 'Search people by name'}
				placeholder="Search…"
				value={search}
				onChange={(event) => setSearch(event.target.value)}
			/>
			{choices.length === 0 ? (
				<p className="text-muted-foreground text-sm">{isPending ? 'Loading…' : 'Nothing matches.'}</p>
			) : null}
			<ul className="grid max-h-56 gap-1 overflow-y-auto">
				{choices.map((choice) => (
					<li key={choice.id}>
						<label htmlFor={`${id}-${choice.id}`} className="flex items-center gap-2 rounded-md px-1 py-1 text-sm">
							<Checkbox
								id={`${id}-${choice.id}`}
								checked={ids.includes(choice.id)}
								onCheckedChange={(checked) =>
									onChange(
										checked === true
											? [...ids.filter((item) => item !== choice.id), choice.id]
											: ids.filter((item) => item !== choice.id),
									)
								}
							/>
							<span className="truncate">{choice.label}</span>
						</label>
					</li>
				))}
			</ul>
			{error ? (
				<p id={`${id}-error`} className="text-[13px] text-error">
					{error}
				</p>
			) : null}
		</fieldset>
	)
}
