import type {
	DateValue,
	FileValue,
	Property,
	PropertyValue,
	WorkspaceTool,
	WorkspaceUser,
} from '@blocksmith/contracts/workspaces.ts'
import { useQuery } from '@tanstack/react-query'
import { Check, ExternalLink, Paperclip, Upload, X } from 'lucide-react'
import { createContext, Fragment, type ReactNode, useContext, useEffect, useId, useRef, useState } from 'react'
import { toast } from 'sonner'
import { Avatar } from '#src/components/ui/avatar.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Checkbox } from '#src/components/ui/checkbox.tsx'
import { cn } from '#src/components/ui/cn.ts'
import {
	DropdownMenu,
	DropdownMenuCheckboxItem,
	DropdownMenuContent,
	DropdownMenuItem,
	DropdownMenuLabel,
	DropdownMenuRadioGroup,
	DropdownMenuRadioItem,
	DropdownMenuSeparator,
	DropdownMenuTrigger,
} from '#src/components/ui/dropdown-menu.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Popover, PopoverContent, PopoverTrigger } from '#src/components/ui/popover.tsx'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { blobUrl, searchRows, uploadFile } from '../api/workspaces.ts'
import {
	asString,
	asStringList,
	formatDate,
	formatNumber,
	isDateValue,
	isFileList,
	optionColor,
	optionColorClasses,
	plainText,
} from '../lib/values.ts'

// One table cell: how each property type shows, and how each writable type is edited in place.

type CellContextValue = {
	tool: WorkspaceTool
	users: readonly WorkspaceUser[]
	/** A related row's title, when it is known (the first rows of the related database are loaded). */
	relationTitle: (databaseId: string | null | undefined, rowId: string) => string | undefined
	/** Opens a file Notion hosts: its URL in the row may have expired, the server renews it. */
	openHostedFile?: (rowId: string, propertyId: string, index: number) => Promise<void>
}

export const CellContext = createContext<CellContextValue>({
	tool: 'local',
	users: [],
	relationTitle: () => undefined,
})

// ---- showing values -----------------------------------------------------------------------

function OptionChip({ property, name }: { property: Property; name: string }) {
	return (
		<span
			className={cn(
				'inline-flex max-w-48 items-center truncate rounded-md px-1.5 py-0.5 text-xs leading-4',
				optionColorClasses[optionColor(property, name)],
			)}
		>
			{name}
		</span>
	)
}

function Chip({ children }: { children: ReactNode }) {
	return (
		<span className="inline-flex max-w-48 items-center gap-1 truncate rounded-md bg-secondary px-1.5 py-0.5 text-secondary-foreground text-xs leading-4">
			{children}
		</span>
	)
}

function PersonChip({ id }: { id: string }) {
	const { users } = useContext(CellContext)
	const user = users.find((candidate) => candidate.id === id)
	const name = user?.name ?? 'Unknown person'
	return (
		<span className="inline-flex items-center gap-1.5 text-sm">
			<Avatar name={name} src={user?.avatarUrl} size="sm" isDecorative />
			<span className="truncate">{name}</span>
		</span>
	)
}

const empty = <span className="text-muted-foreground/60">—</span>

/** A value as it reads in the table, for every property type (writable or computed). */
export function ValueView({
	property,
	value,
	isLinked = true,
	rowId,
}: {
	property: Property
	value: unknown
	isLinked?: boolean
	/** The row the value is of: files Notion hosts open through it. */
	rowId?: string
}) {
	const { relationTitle, openHostedFile } = useContext(CellContext)
	switch (property.type) {
		case 'checkbox':
			return value === true ? (
				<Check aria-label="Yes" className="size-4 text-success" />
			) : (
				<span className="sr-only">No</span>
			)
		case 'number':
			return typeof value === 'number' ? (
				<span className="tabular-nums">{formatNumber(value, property.format)}</span>
			) : (
				empty
			)
		case 'select':
		case 'status':
			return typeof value === 'string' && value ? <OptionChip property={property} name={value} /> : empty
		case 'multi_select': {
			const names = asStringList(value)
			return names.length ? (
				<span className="flex gap-1">
					{/* A space between the chips (flex hides it) keeps their text apart as words, as the cell's name says them. */}
					{names.map((name, index) => (
						<Fragment key={name}>
							{index > 0 ? ' ' : null}
							<OptionChip property={property} name={name} />
						</Fragment>
					))}
				</span>
			) : (
				empty
			)
		}
		case 'people':
		case 'created_by':
		case 'last_edited_by': {
			const ids = typeof value === 'string' ? [value] : asStringList(value)
			return ids.length ? (
				<span className="flex gap-2">
					{ids.map((id) => (
						<PersonChip key={id} id={id} />
					))}
				</span>
			) : (
				empty
			)
		}
		case 'relation': {
			const ids = asStringList(value)
			return ids.length ? (
				<span className="flex gap-1">
					{ids.slice(0, 3).map((id) => (
						<Chip key={id}>{relationTitle(property.relationDatabaseId, id) ?? 'Linked row'}</Chip>
					))}
					{ids.length > 3 ? <Chip>+{ids.length - 3}</Chip> : null}
				</span>
			) : (
				empty
			)
		}
		case 'files':
			return isFileList(value) && value.length ? (
				<span className="flex gap-2">
					{value.map((file, index) =>
						file.expiresAt && isLinked && rowId && openHostedFile ? (
							<button
								key={file.name}
								type="button"
								onClick={() => void openHostedFile(rowId, property.id, index)}
								className="inline-flex items-center gap-1 text-link hover:underline"
							>
								<Paperclip aria-hidden className="size-3.5" />
								{file.name}
							</button>
						) : file.url && isLinked && !file.expiresAt ? (
							<a
								key={file.name}
								href={file.url}
								target="_blank"
								rel="noreferrer"
								className="inline-flex items-center gap-1 text-link hover:underline"
							>
								<Paperclip aria-hidden className="size-3.5" />
								{file.name}
							</a>
						) : (
							<span key={file.name} className="inline-flex items-center gap-1">
								<Paperclip aria-hidden className="size-3.5 text-muted-foreground" />
								{file.name}
							</span>
						),
					)}
				</span>
			) : (
				empty
			)
		case 'url':
			return typeof value === 'string' && value ? (
				isLinked ? (
					<a
						href={/^https?:\/\//i.test(value) ? value : `https://${value}`}
						target="_blank"
						rel="noreferrer"
						className="inline-flex items-center gap-1 text-link hover:underline"
					>
						{value}
						<ExternalLink aria-hidden className="size-3" />
					</a>
				) : (
					<span className="text-link">{value}</span>
				)
			) : (
				empty
			)
		case 'email':
			return typeof value === 'string' && value ? (
				isLinked ? (
					<a href={`mailto:${value}`} className="text-link hover:underline">
						{value}
					</a>
				) : (
					<span className="text-link">{value}</span>
				)
			) : (
				empty
			)
		case 'title':
			return typeof value === 'string' && value ? (
				<span className="font-medium">{value}</span>
			) : (
				<span className="text-muted-foreground">Untitled</span>
			)
		case 'formula':
		case 'rollup':
			if (typeof value === 'boolean') {
				return value ? <Check aria-label="Yes" className="size-4 text-success" /> : <span>No</span>
			}
			if (typeof value === 'number') {
				return <span className="text-muted-foreground tabular-nums">{formatNumber(value, property.format)}</span>
			}
			return plainText(value, property) ? (
				<span className="text-muted-foreground">{plainText(value, property)}</span>
			) : (
				empty
			)
		case 'unique_id':
		case 'created_time':
		case 'last_edited_time':
			return plainText(value, property) ? (
				<span className="text-muted-foreground tabular-nums">{plainText(value, property)}</span>
			) : (
				empty
			)
		default:
			return plainText(value, property) ? <span>{plainText(value, property)}</span> : empty
	}
}

// ---- editing values -----------------------------------------------------------------------

type EditableCellProps = {
	property: Property
	value: unknown
	/** Names the row in the controls' labels ("Amount of Acme"). */
	rowLabel: string
	/** A field error from the server for this cell. */
	error?: string | undefined
	/** Opens the editor at once (the title of a row just added). */
	startsEditing?: boolean
	onSave: (value: PropertyValue) => void
}

const cellButtonClasses =
	'flex min-h-8 w-full min-w-24 items-center rounded-sm px-1.5 text-left outline-hidden hover:bg-accent/60 focus-visible:ring-2 focus-visible:ring-ring'

/** A cell of a `local` database: the value, and the editor of its type on click or Enter. */
export function EditableCell(props: EditableCellProps) {
	const { error } = props
	const content = <EditorByType {...props} />
	if (!error) {
		return content
	}
	return (
		<div className="grid gap-0.5">
			{content}
			<p className="px-1.5 text-error text-xs" role="alert">
				{error}
			</p>
		</div>
	)
}

function EditorByType(props: EditableCellProps) {
	switch (props.property.type) {
		case 'checkbox':
			return <CheckboxCell {...props} />
		case 'select':
		case 'status':
			return <SelectCell {...props} />
		case 'multi_select':
			return <MultiSelectCell {...props} />
		case 'people':
			return <PeopleCell {...props} />
		case 'date':
			return <DateCell {...props} />
		case 'relation':
			return <RelationCell {...props} />
		case 'files':
			return <FilesCell {...props} />
		case 'title':
		case 'rich_text':
		case 'number':
		case 'url':
		case 'email':
		case 'phone_number':
			return <TextCell {...props} />
		default:
			return <ValueView property={props.property} value={props.value} />
	}
}

function cellLabel({ property, rowLabel }: EditableCellProps): string {
	return `${property.name} of ${rowLabel || 'Untitled'}`
}

const inputTypes: Partial<Record<Property['type'], string>> = { url: 'url', email: 'email', phone_number: 'tel' }

/** Title, text, number, URL, e-mail and phone: an input; Enter saves, Escape cancels, leaving saves. */
function TextCell(props: EditableCellProps) {
	const { property, value, onSave, startsEditing = false } = props
	const isNumber = property.type === 'number'
	const current = isNumber ? (typeof value === 'number' ? String(value) : '') : asString(value)
	const [draft, setDraft] = useState<string | null>(startsEditing ? current : null)
	const [problem, setProblem] = useState<string | null>(null)
	const buttonRef = useRef<HTMLButtonElement>(null)

	/** `refocus` after Enter or Escape, so the keyboard stays on the cell; not after leaving it (Tab goes on). */
	function finish(shouldSave: boolean, refocus = true): void {
		if (draft === null) {
			return
		}
		if (shouldSave && draft !== current) {
			const text = draft.trim()
			if (isNumber) {
				const number = text === '' ? null : Number(text.replaceAll(',', ''))
				if (number !== null && !Number.isFinite(number)) {
					setProblem('Enter a number.')
					return
				}
				onSave(number)
			} else {
				onSave(property.type === 'title' || property.type === 'rich_text' ? draft : text || null)
			}
		}
		setDraft(null)
		setProblem(null)
		if (refocus) {
			requestAnimationFrame(() => buttonRef.current?.focus())
		}
	}

	if (draft !== null) {
		return (
			<div className="grid gap-0.5">
				<Input
					autoFocus
					aria-label={cellLabel(props)}
					aria-invalid={problem ? true : undefined}
					type={inputTypes[property.type] ?? 'text'}
					inputMode={isNumber ? 'decimal' : undefined}
					className="h-8 min-w-40 px-1.5"
					value={draft}
					onChange={(event) => {
						setDraft(event.target.value)
						setProblem(null)
					}}
					onKeyDown={(event) => {
						if (event.key === 'Enter') {
							event.preventDefault()
							finish(true)
						} else if (event.key === 'Escape') {
							event.preventDefault()
							event.stopPropagation()
							finish(false)
						}
					}}
					onBlur={() => finish(true, false)}
				/>
				{problem ? <p className="px-1.5 text-error text-xs">{problem}</p> : null}
			</div>
		)
	}
	return (
		<button
			ref={buttonRef}
			type="button"
			aria-label={`${cellLabel(props)}: ${plainText(value, property) || 'empty'}`}
			className={cn(cellButtonClasses, isNumber && 'justify-end')}
			onClick={() => setDraft(current)}
		>
			<ValueView property={property} value={value} isLinked={false} />
		</button>
	)
}

function CheckboxCell(props: EditableCellProps) {
	return (
		<div className="flex min-h-8 items-center px-1.5">
			<Checkbox
				aria-label={cellLabel(props)}
				checked={props.value === true}
				onCheckedChange={(checked) => props.onSave(checked === true)}
			/>
		</div>
	)
}

const clearValue = '\u0000clear'

function SelectCell(props: EditableCellProps) {
	const { property, value, onSave } = props
	const current = typeof value === 'string' ? value : ''
	return (
		<DropdownMenu>
			<DropdownMenuTrigger asChild>
				<button type="button" aria-label={`${cellLabel(props)}: ${current || 'empty'}`} className={cellButtonClasses}>
					<ValueView property={property} value={value} />
				</button>
			</DropdownMenuTrigger>
			<DropdownMenuContent align="start" className="max-h-80">
				<DropdownMenuLabel>{property.name}</DropdownMenuLabel>
				<DropdownMenuRadioGroup
					value={current || clearValue}
					onValueChange={(next) => onSave(next === clearValue ? null : next)}
				>
					{(property.options ?? []).map((option) => (
						<DropdownMenuRadioItem key={option.id} value={option.name}>
							<OptionChip property={property} name={option.name} />
						</DropdownMenuRadioItem>
					))}
					<DropdownMenuSeparator />
					<DropdownMenuRadioItem value={clearValue}>
						<span className="text-muted-foreground">None</span>
					</DropdownMenuRadioItem>
				</DropdownMenuRadioGroup>
			</DropdownMenuContent>
		</DropdownMenu>
	)
}

function MultiSelectCell(props: EditableCellProps) {
	const { property, value, onSave } = props
	const current = asStringList(value)
	return (
		<DropdownMenu>
			<DropdownMenuTrigger asChild>
				<button
					type="button"
					aria-label={`${cellLabel(props)}: ${current.join(', ') || 'empty'}`}
					className={cellButtonClasses}
				>
					<ValueView property={property} value={value} />
				</button>
			</DropdownMenuTrigger>
			<DropdownMenuContent align="start" className="max-h-80">
				<DropdownMenuLabel>{property.name}</DropdownMenuLabel>
				{(property.options ?? []).length === 0 ? (
					<DropdownMenuItem disabled>No options yet: add them in Edit properties</DropdownMenuItem>
				) : null}
				{(property.options ?? []).map((option) => (
					<DropdownMenuCheckboxItem
						key={option.id}
						checked={current.includes(option.name)}
						// Stay open: several options are usually toggled in a row.
						onSelect={(event) => event.preventDefault()}
						onCheckedChange={(checked) =>
							onSave(checked ? [...current, option.name] : current.filter((name) => name !== option.name))
						}
					>
						<OptionChip property={property} name={option.name} />
					</DropdownMenuCheckboxItem>
				))}
			</DropdownMenuContent>
		</DropdownMenu>
	)
}

function PeopleCell(props: EditableCellProps) {
	const { property, value, onSave } = props
	const { users } = useContext(CellContext)
	const current = asStringList(value)
	return (
		<DropdownMenu>
			<DropdownMenuTrigger asChild>
				<button
					type="button"
					aria-label={`${cellLabel(props)}: ${
						current.map((id) => users.find((user) => user.id === id)?.name ?? 'Unknown').join(', ') || 'empty'
					}`}
					className={cellButtonClasses}
				>
					<ValueView property={property} value={value} />
				</button>
			</DropdownMenuTrigger>
			<DropdownMenuContent align="start" className="max-h-80">
				<DropdownMenuLabel>{property.name}</DropdownMenuLabel>
				{users.length === 0 ? <DropdownMenuItem disabled>No people in this workspace</DropdownMenuItem> : null}
				{users.map((user) => (
					<DropdownMenuCheckboxItem
						key={user.id}
						checked={current.includes(user.id)}
						onSelect={(event) => event.preventDefault()}
						onCheckedChange={(checked) =>
							onSave(checked ? [...current, user.id] : current.filter((id) => id !== user.id))
						}
					>
						<Avatar name={user.name} src={user.avatarUrl} size="sm" isDecorative />
						<span className="truncate">{user.name}</span>
					</DropdownMenuCheckboxItem>
				))}
			</DropdownMenuContent>
		</DropdownMenu>
	)
}

function toLocalInput(iso: string): string {
	const date = new Date(iso)
	if (Number.isNaN(date.getTime())) {
		return ''
	}
	const local = new Date(date.getTime() - date.getTimezoneOffset() * 60_000)
	return local.toISOString().slice(0, 16)
}

function toDateInput(iso: string): string {
	return iso.length > 10 ? toLocalInput(iso).slice(0, 10) : iso
}

/** The date editor: start, an optional end, an optional time (entered in the browser's zone). */
function DateCell(props: EditableCellProps) {
	const { property, value, onSave } = props
	const current = isDateValue(value) ? value : null
	const [isOpen, setIsOpen] = useState(false)
	const [hasTime, setHasTime] = useState(false)
	const [hasEnd, setHasEnd] = useState(false)
	const [start, setStart] = useState('')
	const [end, setEnd] = useState('')
	const [problem, setProblem] = useState<string | null>(null)
	const formId = useId()

	useEffect(() => {
		if (isOpen) {
			setProblem(null)
			const withTime = (current?.start.length ?? 0) > 10
			setHasTime(withTime)
			setHasEnd(Boolean(current?.end))
			setStart(current ? (withTime ? toLocalInput(current.start) : current.start) : '')
			setEnd(current?.end ? (withTime ? toLocalInput(current.end) : toDateInput(current.end)) : '')
		}
	}, [isOpen, current])

	function toValue(text: string): string | null {
		if (!text) {
			return null
		}
		if (!hasTime) {
			return text.slice(0, 10)
		}
		const date = new Date(text.length === 10 ? `${text}T00:00` : text)
		return Number.isNaN(date.getTime()) ? null : date.toISOString()
	}

	function save(): void {
		const startValue = toValue(start)
		if (!startValue) {
			onSave(null)
		} else {
			const endValue = hasEnd ? toValue(end) : null
			if (endValue && new Date(endValue).getTime() < new Date(startValue).getTime()) {
				setProblem('The end is before the start.')
				return
			}
			const next: DateValue = {
				start: startValue,
				end: endValue,
				timeZone: hasTime ? Intl.DateTimeFormat().resolvedOptions().timeZone : null,
			}
			onSave(next)
		}
		setIsOpen(false)
	}

	return (
		<Popover open={isOpen} onOpenChange={setIsOpen}>
			<PopoverTrigger asChild>
				<button
					type="button"
					aria-label={`${cellLabel(props)}: ${current ? formatDate(current) : 'empty'}`}
					className={cellButtonClasses}
				>
					<ValueView property={property} value={value} />
				</button>
			</PopoverTrigger>
			<PopoverContent aria-label={property.name}>
				<form
					className="grid gap-3"
					onSubmit={(event) => {
						event.preventDefault()
						save()
					}}
				>
					<label className="grid gap-1.5 text-sm" htmlFor={`${formId}-start`}>
						<span className="font-medium">{hasEnd ? 'Start' : 'Date'}</span>
						<Input
							id={`${formId}-start`}
							type={hasTime ? 'datetime-local' : 'date'}
							value={hasTime ? start : start.slice(0, 10)}
							onChange={(event) => setStart(event.target.value)}
						/>
					</label>
					{hasEnd ? (
						<label className="grid gap-1.5 text-sm" htmlFor={`${formId}-end`}>
							<span className="font-medium">End</span>
							<Input
								id={`${formId}-end`}
								type={hasTime ? 'datetime-local' : 'date'}
								value={hasTime ? end : end.slice(0, 10)}
								onChange={(event) => setEnd(event.target.value)}
							/>
						</label>
					) : null}
					<div className="flex flex-wrap gap-4 text-sm">
						<label className="flex items-center gap-2" htmlFor={`${formId}-has-end`}>
							<Checkbox
								id={`${formId}-has-end`}
								checked={hasEnd}
								onCheckedChange={(checked) => setHasEnd(checked === true)}
							/>
							End date
						</label>
						<label className="flex items-center gap-2" htmlFor={`${formId}-has-time`}>
							<Checkbox
								id={`${formId}-has-time`}
								checked={hasTime}
								onCheckedChange={(checked) => {
									setHasTime(checked === true)
									if (checked === true) {
										setStart((text) => (text && text.length === 10 ? `${text}T09:00` : text))
										setEnd((text) => (text && text.length === 10 ? `${text}T10:00` : text))
									}
								}}
							/>
							Include time
						</label>
					</div>
					{problem ? (
						<p className="text-error text-xs" role="alert">
							{problem}
						</p>
					) : null}
					<div className="flex justify-between gap-2">
						<Button
							variant="ghost"
							size="sm"
							onClick={() => {
								onSave(null)
								setIsOpen(false)
							}}
						>
							Clear
						</Button>
						<Button type="submit" size="sm">
							Save
						</Button>
					</div>
				</form>
			</PopoverContent>
		</Popover>
	)
}

/** The relation editor: search the related database's rows by title and tick the linked ones. */
function RelationCell(props: EditableCellProps) {
	const { property, value, onSave } = props
	const { tool, relationTitle } = useContext(CellContext)
	const current = asStringList(value)
	const [isOpen, setIsOpen] = useState(false)
	const [search, setSearch] = useState('')
	const [debounced, setDebounced] = useState('')
	const [titles, setTitles] = useState<Record<string, string>>({})
	const listId = useId()
	const databaseId = property.relationDatabaseId ?? ''
	useEffect(() => {
		const timer = setTimeout(() => setDebounced(search), 250)
		return () => clearTimeout(timer)
	}, [search])
	const results = useQuery({
		queryKey: ['workspaces', 'relation-search', tool, databaseId, debounced],
		queryFn: () => searchRows({ tool, databaseId, search: debounced }),
		enabled: isOpen && Boolean(databaseId),
	})
	const titleOf = (id: string) => titles[id] ?? relationTitle(databaseId, id) ?? 'Linked row'

	function toggle(id: string, title: string, isChecked: boolean): void {
		setTitles((known) => ({ ...known, [id]: title }))
		onSave(isChecked ? [...current, id] : current.filter((candidate) => candidate !== id))
	}

	return (
		<Popover open={isOpen} onOpenChange={setIsOpen}>
			<PopoverTrigger asChild>
				<button
					type="button"
					aria-label={`${cellLabel(props)}: ${current.map(titleOf).join(', ') || 'empty'}`}
					className={cellButtonClasses}
				>
					<ValueView property={property} value={value} />
				</button>
			</PopoverTrigger>
			<PopoverContent aria-label={property.name} className="grid w-80 gap-3">
				{databaseId ? null : <p className="text-muted-foreground text-sm">This relation has no database to link to.</p>}
				{current.length > 0 ? (
					<ul className="flex flex-wrap gap-1" aria-label="Linked rows">
						{current.map((id) => (
							<li key={id}>
								<button
									type="button"
									className="inline-flex items-center gap-1 rounded-md bg-secondary px-1.5 py-0.5 text-xs hover:bg-secondary-hover"
									aria-label={`Unlink ${titleOf(id)}`}
									onClick={() => toggle(id, titleOf(id), false)}
								>
									{titleOf(id)} ×
								</button>
							</li>
						))}
					</ul>
				) : null}
				<Input
					aria-label={`Search rows for ${property.name}`}
					placeholder="Search by title…"
					value={search}
					autoFocus
					onChange={(event) => setSearch(event.target.value)}
				/>
				<ul className="grid max-h-60 gap-0.5 overflow-y-auto">
					{results.isPending && databaseId ? <li className="text-muted-foreground text-sm">Loading…</li> : null}
					{results.data?.length === 0 ? <li className="text-muted-foreground text-sm">No rows match.</li> : null}
					{results.data?.map((row) => {
						const isChecked = current.includes(row.id)
						return (
							<li key={row.id}>
								<label
									htmlFor={`${listId}-${row.id}`}
									className="flex cursor-pointer items-center gap-2 rounded-md px-1.5 py-1 text-sm hover:bg-accent"
								>
									<Checkbox
										id={`${listId}-${row.id}`}
										checked={isChecked}
										onCheckedChange={(checked) => toggle(row.id, row.title, checked === true)}
									/>
									<span className="truncate">{row.title || 'Untitled'}</span>
								</label>
							</li>
						)
					})}
				</ul>
			</PopoverContent>
		</Popover>
	)
}

/** Files: open, remove, or add (uploaded directly, then stored as the blob's id). */
function FilesCell(props: EditableCellProps) {
	const { property, value, onSave } = props
	const current: FileValue[] = isFileList(value) ? value : []
	const [isUploading, setIsUploading] = useState(false)
	const inputId = useId()

	async function add(files: FileList | null): Promise<void> {
		if (!files?.length) {
			return
		}
		setIsUploading(true)
		try {
			const uploaded: FileValue[] = []
			for (const file of Array.from(files)) {
				uploaded.push(await uploadFile(file))
			}
			onSave([...current, ...uploaded])
		} catch (error) {
			toast.error(errorMessage(error))
		} finally {
			setIsUploading(false)
		}
	}

	async function open(file: FileValue): Promise<void> {
		try {
			const url = file.url ?? (file.blobId ? await blobUrl(file.blobId) : null)
			if (url) {
				window.open(url, '_blank', 'noopener')
			}
		} catch (error) {
			toast.error(errorMessage(error))
		}
	}

	return (
		<Popover>
			<PopoverTrigger asChild>
				<button
					type="button"
					aria-label={`${cellLabel(props)}: ${current.map((file) => file.name).join(', ') || 'empty'}`}
					className={cellButtonClasses}
				>
					<ValueView property={property} value={value} isLinked={false} />
				</button>
			</PopoverTrigger>
			<PopoverContent aria-label={property.name} className="grid gap-3">
				{current.length > 0 ? (
					<ul className="grid gap-1" aria-label="Files">
						{current.map((file, index) => (
							<li key={`${file.blobId ?? file.url ?? ''}-${file.name}`} className="flex items-center gap-1 text-sm">
								<button
									type="button"
									className="inline-flex min-w-0 flex-1 items-center gap-1.5 truncate rounded-sm px-1 py-0.5 text-left text-link hover:underline"
									onClick={() => void open(file)}
								>
									<Paperclip aria-hidden className="size-3.5 shrink-0" />
									<span className="truncate">{file.name}</span>
								</button>
								<Button
									variant="ghost"
									size="icon-sm"
									aria-label={`Remove ${file.name}`}
									onClick={() => onSave(current.filter((_, position) => position !== index))}
								>
									<X aria-hidden />
								</Button>
							</li>
						))}
					</ul>
				) : (
					<p className="text-muted-foreground text-sm">No files yet.</p>
				)}
				<label
					htmlFor={inputId}
					className="inline-flex h-8 w-fit cursor-pointer items-center gap-1.5 rounded-md border border-input px-3 font-medium text-[13px] shadow-xs hover:bg-accent has-focus-visible:ring-2 has-focus-visible:ring-ring"
				>
					{isUploading ? <Spinner size="sm" /> : <Upload aria-hidden className="size-4" />}
					{isUploading ? 'Uploading…' : 'Add files'}
					<input
						id={inputId}
						type="file"
						multiple
						className="sr-only"
						disabled={isUploading}
						onChange={(event) => {
							void add(event.target.files)
							event.target.value = ''
						}}
					/>
				</label>
			</PopoverContent>
		</Popover>
	)
}
