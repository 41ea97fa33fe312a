import type { Form } from '@blocksmith/contracts/forms.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Copy, ExternalLink, MoreHorizontal, PencilLine, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { toast } from 'sonner'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import {
	DropdownMenu,
	DropdownMenuContent,
	DropdownMenuItem,
	DropdownMenuSeparator,
	DropdownMenuTrigger,
} from '#src/components/ui/dropdown-menu.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import { deleteForm, duplicateForm, formKeys } from '../api/forms.ts'
import { formPaths } from '../lib/form-paths.ts'

/** Draft, Published or Closed (published but not taking answers). */
export function FormStatusBadge({ form }: { form: Pick<Form, 'published' | 'acceptingResponses'> }) {
	if (!form.published) {
		return <Badge>Draft</Badge>
	}
	return form.acceptingResponses ? <Badge variant="success">Published</Badge> : <Badge variant="warning">Closed</Badge>
}

type FormActionsMenuProps = {
	form: Form
	/** In a list row: the trigger names the form, and the menu can open the builder. */
	isInList?: boolean
	/** Called just before an action leaves the page (the builder lets it go without asking). */
	onLeave?: () => void
}

/** Open, open the public page, duplicate and delete (after a confirmation). */
export function FormActionsMenu({ form, isInList = false, onLeave }: FormActionsMenuProps) {
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const [isDeleting, setIsDeleting] = useState(false)
	const canDelete = useIsOwnerOrAdmin()
	const duplicate = useMutation({
		mutationFn: duplicateForm,
		onSuccess: async (copy) => {
			queryClient.setQueryData(formKeys.detail(copy.id), copy)
			await queryClient.invalidateQueries({ queryKey: formKeys.list })
			toast.success(`${copy.name} was created. It starts unpublished.`)
			onLeave?.()
			await navigate(formPaths.edit(copy.id))
		},
	})
	const remove = useMutation({
		mutationFn: deleteForm,
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: formKeys.list })
			toast.success(`${form.name} was deleted.`)
			if (!isInList) {
				onLeave?.()
				await navigate(formPaths.list)
			}
			queryClient.removeQueries({ queryKey: formKeys.detail(form.id) })
		},
	})

	return (
		<>
			<DropdownMenu>
				<DropdownMenuTrigger asChild>
					{isInList ? (
						<Button variant="ghost" size="icon-sm" aria-label={`Actions for ${form.name}`}>
							<MoreHorizontal aria-hidden />
						</Button>
					) : (
						<Button variant="outline" size="icon" aria-label="More actions" isLoading={duplicate.isPending}>
							{duplicate.isPending ? null : <MoreHorizontal aria-hidden />}
						</Button>
					)}
				</DropdownMenuTrigger>
				<DropdownMenuContent align="end">
					{isInList ? (
						<DropdownMenuItem asChild>
							<Link to={formPaths.edit(form.id)}>
								<PencilLine aria-hidden /> Open
							</Link>
						</DropdownMenuItem>
					) : null}
					<DropdownMenuItem asChild>
						<a href={formPaths.public(form)} target="_blank" rel="noreferrer">
							<ExternalLink aria-hidden /> Open public page
						</a>
					</DropdownMenuItem>
					<DropdownMenuItem onSelect={() => duplicate.mutate(form.id)}>
						<Copy aria-hidden /> Duplicate
					</DropdownMenuItem>
					<DropdownMenuSeparator />
					{canDelete ? (
						<DropdownMenuItem isDestructive onSelect={() => setIsDeleting(true)}>
							<Trash2 aria-hidden /> Delete
						</DropdownMenuItem>
					) : (
						<DropdownMenuItem disabled className="items-start">
							<Trash2 aria-hidden className="mt-0.5" />
							<span className="grid">
								Delete
								<span className="text-muted-foreground text-xs">Only an owner or admin can delete a form.</span>
							</span>
						</DropdownMenuItem>
					)}
				</DropdownMenuContent>
			</DropdownMenu>
			<ConfirmDialog
				open={isDeleting}
				onOpenChange={setIsDeleting}
				title={`Delete ${form.name}?`}
				description={
					form.published
						? 'Its public page stops taking answers and says the form was deleted. Rows it already wrote stay in the database.'
						: 'Rows it already wrote stay in the database.'
				}
				confirmLabel="Delete form"
				isDestructive
				onConfirm={() => remove.mutateAsync(form.id)}
			/>
		</>
	)
}
