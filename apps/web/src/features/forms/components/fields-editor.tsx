import type { ContentKind, QuestionKind } from '@blocksmith/contracts/form-kinds.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { Database, Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
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
import { arrayMove, SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable'
import { ListPlus } from 'lucide-react'
import { useRef, useState } from 'react'
import { EmptyState } from '#src/components/ui/empty-state.tsx'
import { type DraftErrors, newContent, newField, newQuestion, pageNumbers, unusedProperties } from '../lib/draft.ts'
import { AddItemMenu } from './builder/add-item-menu.tsx'
import { ItemRow, nameOf } from './builder/item-row.tsx'
import { createPropertyFor } from './builder/new-question.ts'
import type { LocalUploads } from './page-settings.tsx'

type FieldsEditorProps = {
	fields: FormField[]
	properties: Property[]
	/** The form's database (for a new question's property on a built-in one). */
	database: Database | undefined
	tool: WorkspaceTool
	workspaceId: string
	errors: DraftErrors
	/** Images uploaded in this visit (image items show them at once). */
	uploads: LocalUploads
	onUploaded: (blobId: string, file: { name: string; url: string }) => void
	expandedId: string | null
	onExpandedChange: (id: string | null) => void
	onFieldsChange: (fields: FormField[]) => void
	onFieldChange: (index: number, changes: Partial<FormField>, path: string) => void
	/** A property was added to the database for a new question: the saved database. */
	onDatabaseChange?: (database: Database) => void
	/** The public page's address, for the prefill links. */
	publicLink: string
	/** The database is gone: fields cannot change. */
	isLocked?: boolean
}

/**
 * The form's items in order: questions, content and page breaks. Reordered by dragging the
 * handle (pointer or keyboard: Space, arrows, Space), or by the move buttons; every move is
 * announced to screen readers.
 */
export function FieldsEditor({
	fields,
	properties,
	database,
	tool,
	workspaceId,
	errors,
	uploads,
	onUploaded,
	expandedId,
	onExpandedChange,
	onFieldsChange,
	onFieldChange,
	onDatabaseChange,
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
	const pages = pageNumbers(fields)
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
		setAnnouncement(
			field.propertyId ? `${nameOf(field)} was removed. Its property is back in Add.` : `${nameOf(field)} was removed.`,
		)
		focusLater(neighbour ? `${neighbour.id}-toggle` : 'add-field')
	}

	/** Adds at the end, opens it, and puts the focus in its first input once the menu or dialog closes. */
	function append(field: FormField, list: readonly FormField[] = fields): void {
		onFieldsChange([...list, field])
		onExpandedChange(field.id)
		setAnnouncement(`${nameOf(field)} was added at the end.`)
		focusAfterMenu.current = `${field.id}-label`
	}

	async function addQuestion(kind: QuestionKind, label: string, keepWithAnswers: boolean): Promise<void> {
		const question = newQuestion(kind, label)
		if (keepWithAnswers || tool !== 'local' || !database) {
			append(question)
			return
		}
		const created = await createPropertyFor(database, question)
		onDatabaseChange?.(created.database)
		append(created.field)
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

	return (
		<section className="grid gap-3" aria-labelledby="fields-heading">
			<div className="flex flex-wrap items-center justify-between gap-2">
				<div className="grid gap-0.5">
					<h2 id="fields-heading" className="font-semibold text-base">
						Fields
					</h2>
					<p className="text-muted-foreground text-sm">
						Questions, text, images and page breaks, in the order visitors meet them. Drag or use the arrows to reorder.
					</p>
				</div>
				<AddItemMenu
					unused={unused}
					tool={tool}
					databaseName={database?.name ?? 'the database'}
					isLocked={isLocked}
					focusAfterClose={() => {
						const target = focusAfterMenu.current
						focusAfterMenu.current = null
						return target
					}}
					onAddProperty={(property) => append(newField(property))}
					onAddQuestion={addQuestion}
					onAddContent={(kind: ContentKind) => append(newContent(kind))}
				/>
			</div>
			<p aria-live="polite" className="sr-only">
				{announcement}
			</p>
			{fields.length === 0 ? (
				<EmptyState
					icon={ListPlus}
					headingLevel={3}
					title="No fields"
					description="Add a question for each property you want to ask about, or new questions and text."
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
								'To reorder an item, press Space or Enter to pick it up, the up and down arrows to move it, Space or Enter to drop it, or Escape to cancel.',
						},
					}}
				>
					<SortableContext items={fields.map((field) => field.id)} strategy={verticalListSortingStrategy}>
						<ol className="grid gap-2" aria-label="Fields">
							{fields.map((field, index) => (
								<ItemRow
									key={field.id}
									field={field}
									fields={fields}
									index={index}
									count={fields.length}
									page={pages[index] ?? 1}
									property={field.propertyId ? byId.get(field.propertyId) : undefined}
									database={database}
									tool={tool}
									workspaceId={workspaceId}
									publicLink={publicLink}
									errors={errors}
									uploads={uploads}
									onUploaded={onUploaded}
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
