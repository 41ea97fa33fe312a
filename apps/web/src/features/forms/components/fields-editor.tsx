import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import {
	type Announcements,
	closestCenter,
	DndContext,
	type DragEndEvent,
	KeyboardSensor,
	PointerSensor,
	useSensor,
	useSensors,
} from '@dnd-kit/core'
import {
	arrayMove,
	SortableContext,
	sortableKeyboardCoordinates,
	useSortable,
	verticalListSortingStrategy,
} from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { ArrowDown, ArrowUp, ChevronDown, CircleAlert, GripVertical, ListPlus, Plus, Trash2 } from 'lucide-react'
import { useRef, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import {
	DropdownMenu,
	DropdownMenuContent,
	DropdownMenuItem,
	DropdownMenuLabel,
	DropdownMenuTrigger,
} from '#src/components/ui/dropdown-menu.tsx'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { typeLabels } from '#src/workspaces/lib/values.ts'
import { type DraftErrors, kindLabels, newField, unusedProperties } from '../lib/draft.ts'
import { ExposureNotice } from './exposure-notice.tsx'
import { FieldSettings } from './field-settings.tsx'

type FieldsEditorProps = {
	fields: FormField[]
	properties: Property[]
	tool: WorkspaceTool
	workspaceId: string
	errors: DraftErrors
	expandedId: string | null
	onExpandedChange: (id: string | null) => void
	onFieldsChange: (fields: FormField[]) => void
	onFieldChange: (index: number, changes: Partial<FormField>, path: string) => void
	/** The public page's address, for the prefill links. */
	publicLink: string
	/** The database is gone: fields cannot change. */
	isLocked?: boolean
}

const nameOf = (field: FormField | undefined) => field?.label.trim() || 'Untitled field'

/**
 * The form's fields in order. Reordered by dragging the handle (pointer or keyboard: Space,
 * arrows, Space), or by the move buttons; every move is announced to screen readers.
 */
export function FieldsEditor({
	fields,
	properties,
	tool,
	workspaceId,
	errors,
	expandedId,
	onExpandedChange,
	onFieldsChange,
	onFieldChange,
	publicLink,
	isLocked = false,
}: FieldsEditorProps) {
	const [announcement, setAnnouncement] = useState('')
	const focusAfterMenu = useRef<string | null>(null)
	const sensors = useSensors(
		useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
		useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
	)
	const byId = new Map(properties.map((property) => [property.id, property]))
	const unused = unusedProperties(properties, fields)
	const position = (id: string | number) => fields.findIndex((field) => field.id === id) + 1
	const labelOf = (id: string | number) => nameOf(fields.find((field) => field.id === id))

	const announcements: Announcements = {
		onDragStart: ({ active }) =>
			`Picked up ${labelOf(active.id)}, at position ${position(active.id)} of ${fields.length}.`,
		onDragOver: ({ active, over }) =>
			over ? `${labelOf(active.id)} is over position ${position(over.id)} of ${fields.length}.` : undefined,
		onDragEnd: ({ active, over }) =>
			over
				? `${labelOf(active.id)} was dropped at position ${position(over.id)} of ${fields.length}.`
				: `${labelOf(active.id)} was dropped.`,
		onDragCancel: ({ active }) => `Reordering was cancelled; ${labelOf(active.id)} is back where it was.`,
	}

	function focusLater(id: string): void {
		requestAnimationFrame(() => document.getElementById(id)?.focus())
	}

	function move(index: number, to: number): void {
		const field = fields[index]
		if (!field || to < 0 || to >= fields.length) {
			return
		}
		onFieldsChange(arrayMove(fields, index, to))
		setAnnouncement(`${nameOf(field)} moved to position ${to + 1} of ${fields.length}.`)
		// Moving the row in the page can take the focus with it: put it back on the button pressed.
		focusLater(`${field.id}-${to < index ? 'up' : 'down'}`)
	}

	function remove(index: number): void {
		const field = fields[index]
		if (!field) {
			return
		}
		const neighbour = fields[index + 1] ?? fields[index - 1]
		onFieldsChange(fields.filter((_, position) => position !== index))
		setAnnouncement(`${nameOf(field)} was removed. Its property is back in Add field.`)
		focusLater(neighbour ? `${neighbour.id}-toggle` : 'add-field')
	}

	function add(property: Property): void {
		const field = newField(property)
		onFieldsChange([...fields, field])
		onExpandedChange(field.id)
		setAnnouncement(`${nameOf(field)} was added at the end.`)
		focusAfterMenu.current = `${field.id}-label`
	}

	function handleDragEnd({ active, over }: DragEndEvent): void {
		if (!over || active.id === over.id) {
			return
		}
		const from = fields.findIndex((field) => field.id === active.id)
		const to = fields.findIndex((field) => field.id === over.id)
		if (from >= 0 && to >= 0) {
			onFieldsChange(arrayMove(fields, from, to))
		}
	}

	const addMenu = (
		<DropdownMenu>
			<DropdownMenuTrigger asChild>
				<Button id="add-field" variant="outline" size="sm" disabled={isLocked || unused.length === 0}>
					<Plus aria-hidden /> Add field
				</Button>
			</DropdownMenuTrigger>
			<DropdownMenuContent
				align="end"
				className="max-h-80"
				onCloseAutoFocus={(event) => {
					const target = focusAfterMenu.current
					if (target) {
						focusAfterMenu.current = null
						event.preventDefault()
						focusLater(target)
					}
				}}
			>
				<DropdownMenuLabel>Properties without a field</DropdownMenuLabel>
				{unused.map((property) => (
					<DropdownMenuItem key={property.id} onSelect={() => add(property)}>
						<span className="truncate">{property.name}</span>
						<span className="ml-auto pl-3 text-muted-foreground text-xs">{typeLabels[property.type]}</span>
					</DropdownMenuItem>
				))}
			</DropdownMenuContent>
		</DropdownMenu>
	)

	return (
		<section className="grid gap-3" aria-labelledby="fields-heading">
			<div className="flex flex-wrap items-center justify-between gap-2">
				<div className="grid gap-0.5">
					<h2 id="fields-heading" className="font-semibold text-base">
						Fields
					</h2>
					<p className="text-muted-foreground text-sm">
						{unused.length === 0 && fields.length > 0
							? 'Every property of the database has a field.'
							: 'Each field writes one property of the database. Drag or use the arrows to reorder.'}
					</p>
				</div>
				{addMenu}
			</div>
			<p aria-live="polite" className="sr-only">
				{announcement}
			</p>
			{fields.length === 0 ? (
				<EmptyState
					icon={ListPlus}
					headingLevel={3}
					title="No fields"
					description="Add a field for each property you want to ask about."
				/>
			) : (
				<DndContext
					sensors={sensors}
					collisionDetection={closestCenter}
					onDragEnd={handleDragEnd}
					accessibility={{
						announcements,
						screenReaderInstructions: {
							draggable:
								'To reorder a field, press Space or Enter to pick it up, the up and down arrows to move it, Space or Enter to drop it, or Escape to cancel.',
						},
					}}
				>
					<SortableContext items={fields.map((field) => field.id)} strategy={verticalListSortingStrategy}>
						<ol className="grid gap-2" aria-label="Fields">
							{fields.map((field, index) => (
								<SortableField
									key={field.id}
									field={field}
									index={index}
									count={fields.length}
									property={byId.get(field.propertyId)}
									tool={tool}
									workspaceId={workspaceId}
									publicLink={publicLink}
									errors={errors}
									isExpanded={expandedId === field.id}
									isLocked={isLocked}
									onToggle={() => onExpandedChange(expandedId === field.id ? null : field.id)}
									onMove={(to) => move(index, to)}
									onRemove={() => remove(index)}
									onChange={(changes, path) => onFieldChange(index, changes, path)}
								/>
							))}
						</ol>
					</SortableContext>
				</DndContext>
			)}
		</section>
	)
}

type SortableFieldProps = {
	field: FormField
	index: number
	count: number
	property: Property | undefined
	tool: WorkspaceTool
	workspaceId: string
	publicLink: string
	errors: DraftErrors
	isExpanded: boolean
	isLocked: boolean
	onToggle: () => void
	onMove: (to: number) => void
	onRemove: () => void
	onChange: (changes: Partial<FormField>, path: string) => void
}

function SortableField({
	field,
	index,
	count,
	property,
	tool,
	workspaceId,
	publicLink,
	errors,
	isExpanded,
	isLocked,
	onToggle,
	onMove,
	onRemove,
	onChange,
}: SortableFieldProps) {
	const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
		id: field.id,
		disabled: isLocked,
	})
	const name = nameOf(field)
	const hasError = Object.keys(errors).some((path) => path.startsWith(`fields.${index}.`))
	const isFirst = index === 0
	const isLast = index === count - 1
	const isExposing = field.kind === 'relation' || field.kind === 'people'
	return (
		<li
			ref={setNodeRef}
			style={{ transform: CSS.Translate.toString(transform), transition }}
			className={cn(
				'rounded-lg border bg-card shadow-xs',
				isDragging && 'relative z-10 shadow-lg ring-2 ring-ring/40',
				hasError && 'border-error/50',
			)}
		>
			<div className="flex items-center gap-1 p-1.5 sm:gap-2">
				<button
					ref={setActivatorNodeRef}
					type="button"
					aria-label={`Drag ${name}`}
					className="flex size-8 shrink-0 cursor-grab touch-none items-center justify-center rounded-md text-muted-foreground hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring active:cursor-grabbing disabled:cursor-not-allowed"
					{...attributes}
					{...listeners}
				>
					<GripVertical aria-hidden className="size-4" />
				</button>
				{/* The button is named by its label alone ("Edit Service"), so the kind line sits beside it, not in it
				    (the spoken name must contain the visible text: WCAG 2.5.3); its ::after covers the row, so a
				    click anywhere on the row still opens the field. */}
				<div className="relative flex min-h-9 min-w-0 flex-1 items-center gap-2 rounded-md px-1.5 hover:bg-accent/60 has-focus-visible:outline-2 has-focus-visible:outline-ring">
					<span className="grid min-w-0 flex-1">
						<button
							id={`${field.id}-toggle`}
							type="button"
							aria-expanded={isExpanded}
							aria-controls={`${field.id}-settings`}
							aria-label={`Edit ${name}`}
							aria-describedby={isExposing ? `${field.id}-exposure` : undefined}
							onClick={onToggle}
							className="truncate text-left font-medium text-sm outline-none after:absolute after:inset-0 after:rounded-md"
						>
							{name}
							{field.required ? (
								<span aria-hidden className="ml-0.5 text-error">
									*
								</span>
							) : null}
						</button>
						<span className="truncate text-muted-foreground text-xs">
							{kindLabels[field.kind]}
							{field.required ? ' · Required' : ''}
						</span>
					</span>
					{hasError ? <CircleAlert aria-hidden className="size-4 shrink-0 text-error" /> : null}
					<ChevronDown
						aria-hidden
						className={cn('size-4 shrink-0 text-muted-foreground transition-transform', isExpanded && 'rotate-180')}
					/>
				</div>
				<Button
					id={`${field.id}-up`}
					variant="ghost"
					size="icon-sm"
					aria-label={`Move ${name} up`}
					// aria-disabled, not disabled: a disabled button would drop the keyboard focus at the top.
					aria-disabled={isFirst || isLocked || undefined}
					className="aria-disabled:opacity-40"
					onClick={() => (isFirst || isLocked ? undefined : onMove(index - 1))}
				>
					<ArrowUp aria-hidden />
				</Button>
				<Button
					id={`${field.id}-down`}
					variant="ghost"
					size="icon-sm"
					aria-label={`Move ${name} down`}
					aria-disabled={isLast || isLocked || undefined}
					className="aria-disabled:opacity-40"
					onClick={() => (isLast || isLocked ? undefined : onMove(index + 1))}
				>
					<ArrowDown aria-hidden />
				</Button>
				<Button
					variant="ghost"
					size="icon-sm"
					aria-label={`Remove ${name}`}
					disabled={isLocked}
					className="text-muted-foreground hover:text-error"
					onClick={onRemove}
				>
					<Trash2 aria-hidden />
				</Button>
			</div>
			<ExposureNotice field={field} property={property} tool={tool} workspaceId={workspaceId} />
			{isExpanded ? (
				<section id={`${field.id}-settings`} aria-label={`Settings of ${name}`} className="border-t px-3 py-4 sm:px-4">
					<FieldSettings
						field={field}
						index={index}
						property={property}
						tool={tool}
						workspaceId={workspaceId}
						publicLink={publicLink}
						errors={errors}
						onChange={onChange}
					/>
				</section>
			) : null}
		</li>
	)
}
