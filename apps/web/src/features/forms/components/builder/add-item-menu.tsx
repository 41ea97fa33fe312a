import {
	type ContentKind,
	contentKinds,
	type QuestionKind,
	unboundQuestionKinds,
} from '@blocksmith/contracts/form-kinds.ts'
import type { Property, WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { Plus } from 'lucide-react'
import { type FormEvent, useId, useState } from 'react'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogFooter } from '#src/components/ui/dialog.tsx'
import {
	DropdownMenu,
	DropdownMenuContent,
	DropdownMenuGroup,
	DropdownMenuItem,
	DropdownMenuLabel,
	DropdownMenuSeparator,
	DropdownMenuTrigger,
} from '#src/components/ui/dropdown-menu.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { typeLabels } from '#src/workspaces/lib/values.ts'
import { kindLabels } from '../../lib/draft.ts'
import { kindIcons } from './item-icons.ts'
import { propertyTypeFor } from './new-question.ts'

type AddItemMenuProps = {
	/** Properties of the database without a question yet. */
	unused: readonly Property[]
	tool: WorkspaceTool
	databaseName: string
	isLocked: boolean
	/** Where the focus goes once the menu closes (the new item's first input), if anywhere. */
	focusAfterClose: () => string | null
	onAddProperty: (property: Property) => void
	/** `keepWithAnswers`: no property; otherwise (built-in databases) a property is made for it. */
	onAddQuestion: (kind: QuestionKind, label: string, keepWithAnswers: boolean) => Promise<void>
	onAddContent: (kind: ContentKind) => void
}

/**
 * The "Add" menu: questions on the database's unused properties, new questions of every kind
 * (on a built-in database, with a property made for them unless the answers stay with the
 * submission), and content. Opened with the keyboard like any menu.
 */
export function AddItemMenu({
	unused,
	tool,
	databaseName,
	isLocked,
	focusAfterClose,
	onAddProperty,
	onAddQuestion,
	onAddContent,
}: AddItemMenuProps) {
	const [asking, setAsking] = useState<QuestionKind | null>(null)
	return (
		<>
			<DropdownMenu>
				<DropdownMenuTrigger asChild>
					<Button id="add-field" variant="outline" size="sm" disabled={isLocked}>
						<Plus aria-hidden /> Add
					</Button>
				</DropdownMenuTrigger>
				<DropdownMenuContent
					align="end"
					className="max-h-96"
					onCloseAutoFocus={(event) => {
						const target = focusAfterClose()
						if (target) {
							event.preventDefault()
							requestAnimationFrame(() => document.getElementById(target)?.focus())
						}
					}}
				>
					<DropdownMenuGroup>
						<DropdownMenuLabel>Properties without a question</DropdownMenuLabel>
						{unused.length === 0 ? <DropdownMenuItem disabled>Every property has a question</DropdownMenuItem> : null}
						{unused.map((property) => (
							<DropdownMenuItem key={property.id} onSelect={() => onAddProperty(property)}>
								<span className="truncate">{property.name}</span>
								<span className="ml-auto pl-3 text-muted-foreground text-xs">{typeLabels[property.type]}</span>
							</DropdownMenuItem>
						))}
					</DropdownMenuGroup>
					<DropdownMenuSeparator />
					<DropdownMenuGroup>
						<DropdownMenuLabel>New question</DropdownMenuLabel>
						{unboundQuestionKinds.map((kind) => {
							const Icon = kindIcons[kind]
							return (
								<DropdownMenuItem
									key={kind}
									onSelect={() => {
										if (tool === 'local') {
											setAsking(kind)
										} else {
											// Notion's schema is the owner's: the answers stay with the submission.
											void onAddQuestion(kind, kindLabels[kind], true)
										}
									}}
								>
									<Icon aria-hidden className="text-muted-foreground" />
									{kindLabels[kind]}
								</DropdownMenuItem>
							)
						})}
					</DropdownMenuGroup>
					<DropdownMenuSeparator />
					<DropdownMenuGroup>
						<DropdownMenuLabel>Content</DropdownMenuLabel>
						{contentKinds.map((kind) => {
							const Icon = kindIcons[kind]
							return (
								<DropdownMenuItem key={kind} onSelect={() => onAddContent(kind)}>
									<Icon aria-hidden className="text-muted-foreground" />
									{kindLabels[kind]}
								</DropdownMenuItem>
							)
						})}
					</DropdownMenuGroup>
				</DropdownMenuContent>
			</DropdownMenu>
			<NewQuestionDialog
				kind={asking}
				focusAfterClose={focusAfterClose}
				databaseName={databaseName}
				onClose={() => setAsking(null)}
				onAdd={async (kind, label, keep) => {
					await onAddQuestion(kind, label, keep)
					setAsking(null)
				}}
			/>
		</>
	)
}

type NewQuestionDialogProps = {
	kind: QuestionKind | null
	focusAfterClose: () => string | null
	databaseName: string
	onClose: () => void
	onAdd: (kind: QuestionKind, label: string, keepWithAnswers: boolean) => Promise<void>
}

/** On a built-in database: the question's wording, and whether it gets a property of its own. */
function NewQuestionDialog({ kind, focusAfterClose, databaseName, onClose, onAdd }: NewQuestionDialogProps) {
	return (
		<Dialog open={kind !== null} onOpenChange={(open) => (open ? undefined : onClose())}>
			{kind ? (
				<DialogContent
					title={`New question: ${kindLabels[kind]}`}
					description="Name the question; a new property of the database takes its name."
					onCloseAutoFocus={(event) => {
						const target = focusAfterClose()
						if (target) {
							event.preventDefault()
							requestAnimationFrame(() => document.getElementById(target)?.focus())
						}
					}}
				>
					<NewQuestionForm key={kind} kind={kind} databaseName={databaseName} onClose={onClose} onAdd={onAdd} />
				</DialogContent>
			) : null}
		</Dialog>
	)
}

function NewQuestionForm({
	kind,
	databaseName,
	onClose,
	onAdd,
}: Omit<NewQuestionDialogProps, 'kind' | 'focusAfterClose'> & { kind: QuestionKind }) {
	const id = useId()
	const [label, setLabel] = useState<string>(kindLabels[kind])
	const [keep, setKeep] = useState(false)
	const [problem, setProblem] = useState<string | null>(null)
	const [isSaving, setIsSaving] = useState(false)
	const type = propertyTypeFor(kind)

	async function submit(event: FormEvent): Promise<void> {
		event.preventDefault()
		if (!label.trim()) {
			setProblem('Give the question a label.')
			return
		}
		setIsSaving(true)
		setProblem(null)
		try {
			await onAdd(kind, label.trim(), keep)
		} catch (error) {
			setProblem(errorMessage(error))
		} finally {
			setIsSaving(false)
		}
	}

	return (
		<form className="grid gap-4" onSubmit={(event) => void submit(event)} noValidate>
			<Field label="Question" error={problem ?? undefined} isRequired>
				<Input value={label} maxLength={200} onChange={(event) => setLabel(event.target.value)} />
			</Field>
			<fieldset className="grid gap-2">
				<legend className="mb-2 font-medium text-sm leading-none">Where the answers go</legend>
				<label className="flex items-start gap-2 text-sm">
					<input
						type="radio"
						name={`${id}-where`}
						className="mt-0.5 size-4 accent-primary"
						checked={!keep}
						onChange={() => setKeep(false)}
					/>
					<span>
						Into a new property of {databaseName}
						{type ? <span className="text-muted-foreground"> ({typeLabels[type]})</span> : null}
					</span>
				</label>
				<label className="flex items-start gap-2 text-sm">
					<input
						type="radio"
						name={`${id}-where`}
						className="mt-0.5 size-4 accent-primary"
						checked={keep}
						onChange={() => setKeep(true)}
					/>
					<span>
						Keep answers with the submission only
						<span className="block text-muted-foreground text-xs">
							In the submissions, e-mails, webhooks and CSV; not in the database.
						</span>
					</span>
				</label>
			</fieldset>
			<DialogFooter>
				<Button variant="outline" onClick={onClose}>
					Cancel
				</Button>
				<Button type="submit" isLoading={isSaving}>
					Add question
				</Button>
			</DialogFooter>
		</form>
	)
}
