import type { Form } from '@blocksmith/contracts/forms.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Copy, ExternalLink, Share2 } from 'lucide-react'
import { lazy, Suspense, useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { ItemActionsMenu, useDeleteItem } from '#src/components/item-actions-menu.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { DropdownMenuItem } from '#src/components/ui/dropdown-menu.tsx'
import { useIsOwnerOrAdmin } from '#src/core/teams/hooks/use-role.ts'
import { deleteForm, duplicateForm, formKeys } from '../api/forms.ts'
import { formPaths } from '../lib/form-paths.ts'

// The share panel and its QR encoder load when it first opens: pages that never share carry neither.
const SharePanel = lazy(() => import('./share-panel.tsx').then((module) => ({ default: module.SharePanel })))

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

/** Whether this browser has shown the panel for this form after publishing (a best effort: storage may be off). */
const sharedKey = (formId: string) => `blocksmith:form-shared:${formId}`

function hasShownShare(formId: string): boolean {
	try {
		return localStorage.getItem(sharedKey(formId)) !== null
	} catch {
		return false
	}
}

function rememberShownShare(formId: string): void {
	try {
		localStorage.setItem(sharedKey(formId), '1')
	} catch {
		// Private browsing: the panel may show again after a later first publish here; no harm.
	}
}

/**
 * Opens the share panel (link, QR code, embed codes, link preview) of a published form, and opens
 * it by itself right after the form is first published while the page is open.
 */
function useSharePanel(form: Form) {
	const [state, setState] = useState({ hasOpened: false, isOpen: false, isJustPublished: false })
	const wasPublished = useRef(form.published)
	useEffect(() => {
		if (form.published && !wasPublished.current && !hasShownShare(form.id)) {
			rememberShownShare(form.id)
			setState({ hasOpened: true, isOpen: true, isJustPublished: true })
		}
		wasPublished.current = form.published
	}, [form.published, form.id])
	const open = () => {
		rememberShownShare(form.id)
		setState({ hasOpened: true, isOpen: true, isJustPublished: false })
	}
	// Kept once opened, so it closes as a dialog does (its animation, the focus back where it was).
	const panel =
		state.hasOpened && form.published ? (
			<Suspense fallback={null}>
				<SharePanel
					form={form}
					open={state.isOpen}
					isJustPublished={state.isJustPublished}
					onOpenChange={(isOpen) => setState((current) => ({ ...current, isOpen }))}
				/>
			</Suspense>
		) : null
	return { open, panel }
}

/**
 * Share (once published), then the menu: open, open the public page, share, duplicate and delete
 * (after a confirmation).
 */
export function FormActionsMenu({ form, isInList = false, onLeave }: FormActionsMenuProps) {
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const canDelete = useIsOwnerOrAdmin()
	const share = useSharePanel(form)
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

	const menu = (
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
			{form.published && isInList ? (
				<DropdownMenuItem onSelect={share.open}>
					<Share2 aria-hidden /> Share…
				</DropdownMenuItem>
			) : null}
			<DropdownMenuItem onSelect={() => duplicate.mutate(form.id)}>
				<Copy aria-hidden /> Duplicate
			</DropdownMenuItem>
		</ItemActionsMenu>
	)
	if (isInList) {
		return (
			<>
				{menu}
				{share.panel}
			</>
		)
	}
	return (
		<div className="flex items-center gap-2">
			{form.published ? (
				<Button variant="outline" onClick={share.open}>
					<Share2 aria-hidden /> Share
				</Button>
			) : null}
			{menu}
			{share.panel}
		</div>
	)
}
