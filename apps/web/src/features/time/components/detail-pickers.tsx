import type { TimeDatabase } from '@blocksmith/contracts/time.ts'
import type { Property } from '@blocksmith/contracts/workspaces.ts'
import { useQuery } from '@tanstack/react-query'
import { Check, DollarSign, FolderKanban, Tag, X } from 'lucide-react'
import { useEffect, useId, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Checkbox } from '#src/components/ui/checkbox.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { Input } from '#src/components/ui/input.tsx'
import { Popover, PopoverContent, PopoverTrigger } from '#src/components/ui/popover.tsx'
import { searchRows } from '#src/workspaces/api/workspaces.ts'

// The entry's project, tags and billable, as compact buttons for the timer bar and the entry
// dialog. A project is a row of the projects database (relation: searched by title) or an
// option of a select; tags are the options of the multi-select.

type Choice = { value: string; label: string }

/** Rows of the projects database matching the search (relation), or the select's options. */
function useProjectChoices(
	database: TimeDatabase,
	property: Property,
	search: string,
	isOpen: boolean,
): Choice[] | null {
	const [debounced, setDebounced] = useState(search)
	useEffect(() => {
		const timer = setTimeout(() => setDebounced(search), 250)
		return () => clearTimeout(timer)
	}, [search])
	const relationId = property.type === 'relation' ? (property.relationDatabaseId ?? '') : ''
	const rows = useQuery({
		queryKey: ['time', 'project-choices', database.tool, relationId, debounced],
		queryFn: () => searchRows({ tool: database.tool, databaseId: relationId, search: debounced }),
		enabled: isOpen && Boolean(relationId),
	})
	if (property.type !== 'relation') {
		const text = search.trim().toLowerCase()
		return (property.options ?? [])
			.filter((option) => option.name.toLowerCase().includes(text))
			.map((option) => ({ value: option.name, label: option.name }))
	}
	return rows.data ? rows.data.map((row) => ({ value: row.id, label: row.title || 'Untitled' })) : null
}

type ProjectPickerProps = {
	database: TimeDatabase
	property: Property
	value: string | null
	/** The chosen project's name, for the button. */
	name: string | null
	onChange: (value: string | null, name: string | null) => void
	isDisabled?: boolean
	className?: string
}

export function ProjectPicker({
	database,
	property,
	value,
	name,
	onChange,
	isDisabled,
	className,
}: ProjectPickerProps) {
	const [isOpen, setIsOpen] = useState(false)
	const [search, setSearch] = useState('')
	const choices = useProjectChoices(database, property, search, isOpen)
	const choose = (next: Choice | null) => {
		onChange(next?.value ?? null, next?.label ?? null)
		setIsOpen(false)
		setSearch('')
	}
	return (
		<Popover open={isOpen} onOpenChange={setIsOpen}>
			<PopoverTrigger asChild>
				<Button
					variant="ghost"
					size="sm"
					disabled={isDisabled}
					aria-label={value ? `Project: ${name ?? value}` : 'Choose a project'}
					className={cn('max-w-52 justify-start', value ? 'text-foreground' : 'text-muted-foreground', className)}
				>
					<FolderKanban aria-hidden />
					<span className="truncate">{value ? (name ?? value) : 'Project'}</span>
				</Button>
			</PopoverTrigger>
			<PopoverContent aria-label="Projects" className="grid w-72 gap-2">
				<Input
					type="search"
					aria-label="Search projects"
					placeholder="Search projects…"
					value={search}
					autoFocus
					onChange={(event) => setSearch(event.target.value)}
				/>
				<ul className="grid max-h-64 gap-0.5 overflow-y-auto">
					{value ? (
						<li>
							<button
								type="button"
								className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-muted-foreground text-sm hover:bg-accent"
								onClick={() => choose(null)}
							>
								<X aria-hidden className="size-4" /> No project
							</button>
						</li>
					) : null}
					{choices === null ? <li className="px-2 py-1.5 text-muted-foreground text-sm">Loading…</li> : null}
					{choices?.length === 0 ? (
						<li className="px-2 py-1.5 text-muted-foreground text-sm">No project matches.</li>
					) : null}
					{choices?.map((choice) => (
						<li key={choice.value}>
							<button
								type="button"
								aria-pressed={choice.value === value}
								className="flex w-full items-center gap-2 rounded-md px-2 py-1.5 text-left text-sm hover:bg-accent"
								onClick={() => choose(choice)}
							>
								<Check aria-hidden className={cn('size-4', choice.value === value ? 'opacity-100' : 'opacity-0')} />
								<span className="truncate">{choice.label}</span>
							</button>
						</li>
					))}
				</ul>
			</PopoverContent>
		</Popover>
	)
}

type TagsPickerProps = {
	property: Property
	value: string[]
	onChange: (value: string[]) => void
	isDisabled?: boolean
}

export function TagsPicker({ property, value, onChange, isDisabled }: TagsPickerProps) {
	const options = property.options ?? []
	const baseId = useId()
	return (
		<Popover>
			<PopoverTrigger asChild>
				<Button
					variant="ghost"
					size="sm"
					disabled={isDisabled}
					aria-label={value.length ? `Tags: ${value.join(', ')}` : 'Choose tags'}
					className={cn('max-w-52 justify-start', value.length ? 'text-foreground' : 'text-muted-foreground')}
				>
					<Tag aria-hidden />
					<span className="truncate">{value.length ? value.join(', ') : 'Tags'}</span>
				</Button>
			</PopoverTrigger>
			<PopoverContent aria-label={property.name} className="grid w-60 gap-0.5">
				{options.length === 0 ? (
					<p className="text-muted-foreground text-sm">{property.name} has no options yet.</p>
				) : null}
				{options.map((option) => {
					const id = `${baseId}-${option.id ?? option.name}`
					return (
						<label
							key={option.name}
							htmlFor={id}
							className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-1.5 text-sm hover:bg-accent"
						>
							<Checkbox
								id={id}
								checked={value.includes(option.name)}
								onCheckedChange={(checked) =>
									onChange(checked === true ? [...value, option.name] : value.filter((name) => name !== option.name))
								}
							/>
							<span className="truncate">{option.name}</span>
						</label>
					)
				})}
			</PopoverContent>
		</Popover>
	)
}

/** A toggle button: pressed is billable. */
export function BillableToggle({
	value,
	onChange,
	isDisabled,
}: {
	value: boolean
	onChange: (value: boolean) => void
	isDisabled?: boolean
}) {
	return (
		<Button
			variant="ghost"
			size="icon"
			aria-label="Billable"
			aria-pressed={value}
			title={value ? 'Billable' : 'Not billable'}
			disabled={isDisabled}
			onClick={() => onChange(!value)}
			className={cn(value ? 'bg-success/10 text-success-on-tint hover:bg-success/15' : 'text-muted-foreground')}
		>
			<DollarSign aria-hidden />
		</Button>
	)
}
