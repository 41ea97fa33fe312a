import { Eye } from 'lucide-react'
import type { ReactNode } from 'react'
import type { Blocker } from 'react-router'
import { errorMessage } from '#src/lib/api-client.ts'
import { Button, type ButtonProps } from './ui/button.tsx'
import { cn } from './ui/cn.ts'
import { ConfirmDialog } from './ui/dialog.tsx'

type SaveBarProps = {
	/** The toolbar's accessible name ("Save", or "Save and publish" when it also publishes). */
	label: string
	/** What is edited ("chart"), for the discard question. */
	noun: string
	isDirty: boolean
	/** The save under way or failed, said beside the dot; without it the bar tells saved from unsaved only. */
	save?: { isPending: boolean; isError: boolean; error: unknown }
	/** The Save button spins (a save that also publishes spins its own button instead). */
	isSaving: boolean
	saveVariant?: ButtonProps['variant']
	onSave: () => void
	onDiscard: () => void
	/** On narrow screens the preview replaces the settings; the bar holds the switch. */
	preview?: { isShown: boolean; onToggle: () => void }
	/** After Save: publishing buttons. */
	children?: ReactNode
}

/** The sticky bar of an editor with an explicit Save: whether it is saved, Discard, Save. */
export function SaveBar({
	label,
	noun,
	isDirty,
	save,
	isSaving,
	saveVariant,
	onSave,
	onDiscard,
	preview,
	children,
}: SaveBarProps) {
	return (
		<div
			role="toolbar"
			aria-label={label}
			className="sticky top-14 z-20 -mx-4 flex flex-wrap items-center justify-end gap-2 border-b bg-background/95 px-4 py-2.5 backdrop-blur sm:-mx-6 sm:px-6 lg:top-0 lg:mx-0 lg:px-0"
		>
			<p aria-live="polite" className="mr-auto flex basis-full items-center gap-2 text-sm sm:basis-auto">
				<span
					aria-hidden
					className={cn('size-2 rounded-full', save?.isError ? 'bg-error' : isDirty ? 'bg-warning' : 'bg-success')}
				/>
				{save?.isPending ? (
					<span className="text-muted-foreground">Saving…</span>
				) : save?.isError && isDirty ? (
					<span className="font-medium text-error">Not saved: {errorMessage(save.error)}</span>
				) : isDirty ? (
					<span className="font-medium">Unsaved changes</span>
				) : (
					<span className="text-muted-foreground">All changes saved</span>
				)}
			</p>
			{preview ? (
				<Button
					variant="outline"
					size="sm"
					aria-pressed={preview.isShown}
					className="xl:hidden"
					onClick={preview.onToggle}
				>
					<Eye aria-hidden /> Preview
				</Button>
			) : null}
			{isDirty ? (
				<ConfirmDialog
					title="Discard your changes?"
					description={`The ${noun} goes back to how it was last saved.`}
					confirmLabel="Discard changes"
					isDestructive
					onConfirm={onDiscard}
					trigger={
						<Button variant="ghost" size="sm">
							Discard
						</Button>
					}
				/>
			) : null}
			<Button
				size="sm"
				{...(saveVariant ? { variant: saveVariant } : {})}
				disabled={!isDirty}
				isLoading={isSaving}
				onClick={onSave}
			>
				Save
			</Button>
			{children}
		</div>
	)
}

/** Asks before a navigation held by `useUnsavedChangesGuard` loses the unsaved changes. */
export function LeaveWithoutSavingDialog({ blocker, noun }: { blocker: Blocker; noun: string }) {
	return (
		<ConfirmDialog
			open={blocker.state === 'blocked'}
			onOpenChange={(open) => {
				if (!open && blocker.state === 'blocked') {
					blocker.reset()
				}
			}}
			title="Leave without saving?"
			description={`Your changes to this ${noun} are not saved yet; they are lost if you leave.`}
			confirmLabel="Leave without saving"
			cancelLabel="Stay"
			isDestructive
			onConfirm={() => blocker.proceed?.()}
		/>
	)
}
