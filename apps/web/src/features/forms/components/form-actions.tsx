import type { Form } from '@blocksmith/contracts/forms.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Copy, ExternalLink } from 'lucide-react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { ItemActionsMenu, useDeleteItem } from '#src/components/item-actions-menu.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { DropdownMenuItem } from '#src/components/ui/dropdown-menu.tsx'
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
	const remove = useDeleteItem({
		mutationFn: deleteForm,
		keys: { list: formKeys.list, detail: formKeys.detail(form.id) },
		listPath: formPaths.list,
		deletedMessage: `${form.name} was deleted.`,
		isInList,
		onLeave,
	})

	return (
		<ItemActionsMenu
			name={form.name}
			noun="form"
			isInList={isInList}
			openPath={formPaths.edit(form.id)}
			isBusy={duplicate.isPending}
			canDelete={canDelete}
			deleteDescription={
				form.published
					? 'Its public page stops taking answers and says the form was deleted. Rows it already wrote stay in the database.'
					: 'Rows it already wrote stay in the database.'
			}
			onDelete={() => remove.mutateAsync(form.id)}
		>
			<DropdownMenuItem asChild>
				<a href={formPaths.public(form)} target="_blank" rel="noreferrer">
					<ExternalLink aria-hidden /> Open public page
				</a>
			</DropdownMenuItem>
			<DropdownMenuItem onSelect={() => duplicate.mutate(form.id)}>
				<Copy aria-hidden /> Duplicate
			</DropdownMenuItem>
		</ItemActionsMenu>
	)
}
