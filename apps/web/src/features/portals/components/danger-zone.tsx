import type { Portal } from '@blocksmith/contracts/portals.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { RotateCcw, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { deletePortal, portalKeys, resetPortal } from '../api/portals.ts'

/**
 * Reset (branding, pages and access back to defaults; the name typed to confirm, as the server
 * checks it too) and delete (members and their sessions go with it).
 */
export function DangerZone({
	portal,
	onReset,
	onDeleted,
}: {
	portal: Portal
	onReset: (portal: Portal) => void
	onDeleted: () => void
}) {
	const queryClient = useQueryClient()
	const [typed, setTyped] = useState('')
	const [isResetOpen, setIsResetOpen] = useState(false)
	const [isTried, setIsTried] = useState(false)
	const reset = useMutation({
		mutationFn: () => resetPortal(portal, typed),
		onSuccess: async (saved) => {
			await queryClient.invalidateQueries({ queryKey: portalKeys.setup })
			onReset(saved)
			toast.success(`${portal.name} is back to its defaults`)
		},
	})
	const remove = useMutation({
		mutationFn: () => deletePortal(portal),
		onSuccess: async () => {
			onDeleted()
			await queryClient.invalidateQueries({ queryKey: portalKeys.setup })
			toast.success(`${portal.name} deleted`)
		},
	})
	const matches = typed.trim() === portal.name.trim()
	return (
		<section aria-labelledby="danger-title" className="grid gap-4 rounded-xl border border-error/40 p-4 sm:p-5">
			<h2 id="danger-title" className="font-semibold text-base">
				Danger zone
			</h2>
			<div className="flex flex-wrap items-center justify-between gap-3">
				<div className="grid max-w-prose gap-0.5">
					<h3 className="font-medium text-sm">Reset the setup</h3>
					<p className="text-muted-foreground text-sm">
						Branding, pages and access go back to their defaults. Members and the address stay.
					</p>
				</div>
				<ConfirmDialog
					open={isResetOpen}
					onOpenChange={(open) => {
						setIsResetOpen(open)
						setTyped('')
						setIsTried(false)
					}}
					title={`Reset ${portal.name}?`}
					description="Its branding, pages and access go back to their defaults; members lose the pages until you add them again."
					confirmLabel="Reset portal"
					isDestructive
					onConfirm={() => {
						if (!matches) {
							setIsTried(true)
							// Keeps the dialog open: the name is what confirms.
							throw new Error('The name does not match')
						}
						return reset.mutateAsync()
					}}
					trigger={
						<Button variant="outline" size="sm">
							<RotateCcw aria-hidden /> Reset…
						</Button>
					}
				>
					<Field
						label={`Type ${portal.name} to confirm`}
						error={(isTried || typed) && !matches ? `Type ${portal.name} exactly as it is written.` : undefined}
					>
						<Input value={typed} autoComplete="off" onChange={(event) => setTyped(event.target.value)} />
					</Field>
				</ConfirmDialog>
			</div>
			<div className="flex flex-wrap items-center justify-between gap-3">
				<div className="grid max-w-prose gap-0.5">
					<h3 className="font-medium text-sm">Delete the portal</h3>
					<p className="text-muted-foreground text-sm">
						Its address stops working and every member is signed out and removed. Your databases are not touched.
					</p>
				</div>
				<ConfirmDialog
					title={`Delete ${portal.name}?`}
					description={`${portal.membersCount} members lose access at once. This cannot be undone.`}
					confirmLabel="Delete portal"
					isDestructive
					onConfirm={() => remove.mutateAsync()}
					trigger={
						<Button variant="destructive" size="sm">
							<Trash2 aria-hidden /> Delete…
						</Button>
					}
				/>
			</div>
		</section>
	)
}
