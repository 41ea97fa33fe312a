import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query'
import { MoreHorizontal, PencilLine, Trash2 } from 'lucide-react'
import { type ReactNode, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Button } from './ui/button.tsx'
import { ConfirmDialog } from './ui/dialog.tsx'
import {
	DropdownMenu,
	DropdownMenuContent,
	DropdownMenuItem,
	DropdownMenuSeparator,
	DropdownMenuTrigger,
} from './ui/dropdown-menu.tsx'

type DeleteItemOptions<V> = {
	mutationFn: (variables: V) => Promise<unknown>
	keys: { list: QueryKey; detail: QueryKey }
	listPath: string
	/** The toast once it is gone. */
	deletedMessage: string
	isInList: boolean
	onLeave: (() => void) | undefined
}

/**
 * Deletes an object. From its own page, goes back to its list (after `onLeave`, so an editor's
 * unsaved-changes guard lets it go); its cached details are dropped last, once nothing shows them.
 */
export function useDeleteItem<V>({
	mutationFn,
	keys,
	listPath,
	deletedMessage,
	isInList,
	onLeave,
}: DeleteItemOptions<V>) {
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	return useMutation({
		mutationFn,
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: keys.list })
			toast.success(deletedMessage)
			if (!isInList) {
				onLeave?.()
				await navigate(listPath)
			}
			queryClient.removeQueries({ queryKey: keys.detail })
		},
	})
}

type ItemActionsMenuProps = {
	name: string
	/** What it is ("chart"): "Delete chart", "Only an owner or admin can delete a chart." */
	noun: string
	/** In a list row: the trigger names the object, and the menu can open it. */
	isInList: boolean
	openPath: string
	/** An action under way that leaves the page (a duplicate): the trigger spins meanwhile. */
	isBusy?: boolean
	/** Unknown while the role loads: Delete shows disabled until then. */
	canDelete: boolean | undefined
	/** The object's own actions, between Open and Delete. */
	children?: ReactNode
	deleteDescription: string
	onDelete: () => Promise<unknown>
	/** Inside the delete confirmation: a refusal, said where the user looks. */
	deleteProblem?: ReactNode
	onDeleteDialogClose?: () => void
}

/** The "…" menu of a form, chart or dashboard, in its list row and on its own page; Delete asks first. */
export function ItemActionsMenu({
	name,
	noun,
	isInList,
	openPath,
	isBusy = false,
	canDelete,
	children,
	deleteDescription,
	onDelete,
	deleteProblem,
	onDeleteDialogClose,
}: ItemActionsMenuProps) {
	const [isDeleting, setIsDeleting] = useState(false)
	return (
		<>
			<DropdownMenu>
				<DropdownMenuTrigger asChild>
					{isInList ? (
						<Button variant="ghost" size="icon-sm" aria-label={`Actions for ${name}`}>
							<MoreHorizontal aria-hidden />
						</Button>
					) : (
						<Button variant="outline" size="icon" aria-label="More actions" isLoading={isBusy}>
							{isBusy ? null : <MoreHorizontal aria-hidden />}
						</Button>
					)}
				</DropdownMenuTrigger>
				<DropdownMenuContent align="end">
					{isInList ? (
						<DropdownMenuItem asChild>
							<Link to={openPath}>
								<PencilLine aria-hidden /> Open
							</Link>
						</DropdownMenuItem>
					) : null}
					{children}
					{isInList || children ? <DropdownMenuSeparator /> : null}
					{canDelete ? (
						<DropdownMenuItem isDestructive onSelect={() => setIsDeleting(true)}>
							<Trash2 aria-hidden /> Delete
						</DropdownMenuItem>
					) : (
						<DropdownMenuItem disabled className="items-start">
							<Trash2 aria-hidden className="mt-0.5" />
							<span className="grid">
								Delete
								<span className="text-muted-foreground text-xs">{`Only an owner or admin can delete a ${noun}.`}</span>
							</span>
						</DropdownMenuItem>
					)}
				</DropdownMenuContent>
			</DropdownMenu>
			<ConfirmDialog
				open={isDeleting}
				onOpenChange={(open) => {
					setIsDeleting(open)
					if (!open) {
						onDeleteDialogClose?.()
					}
				}}
				title={`Delete ${name}?`}
				description={deleteDescription}
				confirmLabel={`Delete ${noun}`}
				isDestructive
				onConfirm={onDelete}
			>
				{deleteProblem}
			</ConfirmDialog>
		</>
	)
}
