import { isContentKind } from '@blocksmith/contracts/form-kinds.ts'
import type { FormField } from '@blocksmith/contracts/forms.ts'
import type { Database, Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useSortable } from '@dnd-kit/sortable'
import { CSS } from '@dnd-kit/utilities'
import { ArrowDown, ArrowUp, ChevronDown, CircleAlert, GripVertical, Trash2 } from 'lucide-react'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { cn } from '#src/components/ui/cn.ts'
import { type DraftErrors, kindLabels } from '../../lib/draft.ts'
import { ExposureNotice } from '../exposure-notice.tsx'
import { FieldSettings } from '../field-settings.tsx'
import type { LocalUploads } from '../page-settings.tsx'
import { kindIcons } from './item-icons.ts'

export const nameOf = (field: FormField | undefined) => field?.label.trim() || 'Untitled item'

type ItemRowProps = {
	field: FormField
	fields: readonly FormField[]
	index: number
	count: number
	/** 1-based page the item is on (a page break is on the page it opens). */
	page: number
	property: Property | undefined
	database: Database | undefined
	tool: WorkspaceTool
	workspaceId: string
	publicLink: string
	errors: DraftErrors
	uploads: LocalUploads
	onUploaded: (blobId: string, file: { name: string; url: string }) => void
	isExpanded: boolean
	isLocked: boolean
	onToggle: () => void
	onMove: (to: number) => void
	onRemove: () => void
	onChange: (changes: Partial<FormField>, path: string) => void
}

/** What the row says under the name: the kind, and where a question's answer goes. */
function subtitle(field: FormField, tool: WorkspaceTool): string {
	const parts = [kindLabels[field.kind]]
	if (field.required && !isContentKind(field.kind)) {
		parts.push('Required')
	}
	if (field.hidden) {
		parts.push(field.kind === 'calculated' ? 'Not shown' : 'Hidden')
	}
	if (!isContentKind(field.kind) && field.propertyId === null && tool === 'notion') {
		parts.push('Kept with the answers, not written to Notion')
	}
	return parts.join(' · ')
}

/**
 * One item of the form: a question, some content, or a page break (drawn as the separator
 * between two pages). Dragged by its handle, moved by its arrows, opened for its settings.
 */
export function ItemRow({
	field,
	fields,
	index,
	count,
	page,
	property,
	database,
	tool,
	workspaceId,
	publicLink,
	errors,
	uploads,
	onUploaded,
	isExpanded,
	isLocked,
	onToggle,
	onMove,
	onRemove,
	onChange,
}: ItemRowProps) {
	const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
		id: field.id,
		disabled: isLocked,
	})
	const name = field.kind === 'page_break' ? `Page ${page} — ${nameOf(field)}` : nameOf(field)
	const hasError = Object.keys(errors).some((path) => path.startsWith(`fields.${index}.`))
	const isFirst = index === 0
	const isLast = index === count - 1
	const isQuestion = !isContentKind(field.kind)
	const isUnbound = isQuestion && field.propertyId === null
	const isExposing = field.kind === 'relation' || field.kind === 'people'
	const isPageBreak = field.kind === 'page_break'
	const Icon = kindIcons[field.kind]
	return (
		<li
			ref={setNodeRef}
			style={{ transform: CSS.Translate.toString(transform), transition }}
			className={cn(
				'rounded-lg border bg-card shadow-xs',
				isPageBreak && 'mt-3 border-primary/40 border-dashed bg-primary/5',
				!isQuestion && !isPageBreak && 'bg-muted/30',
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
				<Icon aria-hidden className={cn('size-4 shrink-0', isPageBreak ? 'text-primary' : 'text-muted-foreground')} />
				{/* The button is named by its label alone ("Edit Service"), so the kind line sits beside it, not in it
				    (the spoken name must contain the visible text: WCAG 2.5.3); its ::after covers the row, so a
				    click anywhere on the row still opens the item. */}
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
							className={cn(
								'truncate text-left text-sm outline-none after:absolute after:inset-0 after:rounded-md',
								isPageBreak ? 'font-semibold text-primary' : 'font-medium',
							)}
						>
							{name}
							{field.required && isQuestion ? (
								<span aria-hidden className="ml-0.5 text-error">
									*
								</span>
							) : null}
						</button>
						<span className="truncate text-muted-foreground text-xs">{subtitle(field, tool)}</span>
					</span>
					{isUnbound ? (
						<Badge className="shrink-0" title="Its answers are kept with the submission only">
							Not in the database
						</Badge>
					) : null}
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
			{isQuestion ? <ExposureNotice field={field} property={property} tool={tool} workspaceId={workspaceId} /> : null}
			{isExpanded ? (
				<section id={`${field.id}-settings`} aria-label={`Settings of ${name}`} className="border-t px-3 py-4 sm:px-4">
					<FieldSettings
						field={field}
						fields={fields}
						index={index}
						property={property}
						database={database}
						tool={tool}
						workspaceId={workspaceId}
						publicLink={publicLink}
						errors={errors}
						uploads={uploads}
						onUploaded={onUploaded}
						onChange={onChange}
					/>
				</section>
			) : null}
		</li>
	)
}
