import { X } from 'lucide-react'
import { AlertDialog as AlertDialogPrimitive, Dialog as DialogPrimitive } from 'radix-ui'
import { type ComponentProps, type ReactElement, type ReactNode, useState } from 'react'
import { Button } from './button.tsx'
import { cn } from './cn.ts'

const overlayClasses =
	'fixed inset-0 z-50 bg-black/40 backdrop-blur-[2px] data-[state=closed]:animate-fade-out data-[state=open]:animate-fade-in dark:bg-black/60'

const contentClasses = [
	'fixed top-1/2 left-1/2 z-50 grid w-[calc(100%-1.5rem)] -translate-x-1/2 -translate-y-1/2 gap-5',
	'max-h-[calc(100dvh-1.5rem)] overflow-y-auto rounded-xl border bg-popover p-5 text-popover-foreground shadow-2xl sm:p-6',
	'data-[state=closed]:animate-dialog-out data-[state=open]:animate-dialog-in',
	// The dialog takes the focus itself when it opens; its own ring would only flash.
	'focus-visible:outline-hidden',
].join(' ')

const sizeClasses = { sm: 'max-w-sm', md: 'max-w-lg', lg: 'max-w-2xl', xl: 'max-w-4xl' } as const

/** A modal dialog's state holder (Radix Dialog.Root): `open`/`onOpenChange`, or `defaultOpen`. */
export function Dialog(props: ComponentProps<typeof DialogPrimitive.Root>) {
	return <DialogPrimitive.Root {...props} />
}

/** Opens the dialog; use `asChild` around a Button. */
export function DialogTrigger(props: ComponentProps<typeof DialogPrimitive.Trigger>) {
	return <DialogPrimitive.Trigger {...props} />
}

/** Closes the dialog; use `asChild` around a Button ("Cancel"). */
export function DialogClose(props: ComponentProps<typeof DialogPrimitive.Close>) {
	return <DialogPrimitive.Close {...props} />
}

type DialogContentProps = Omit<ComponentProps<typeof DialogPrimitive.Content>, 'title'> & {
	/** Names the dialog for screen readers and shows as its heading. */
	title: ReactNode
	/** Read out when the dialog opens; leave it out only when the title says everything. */
	description?: ReactNode
	size?: keyof typeof sizeClasses
	isCloseButtonHidden?: boolean
}

/**
 * The dialog itself, in a portal over a dimmed page. Radix traps the focus inside, returns it to the
 * trigger on close, closes on Escape and on a click outside, and hides the rest of the page from
 * screen readers while open.
 */
export function DialogContent({
	title,
	description,
	size = 'md',
	isCloseButtonHidden = false,
	className,
	children,
	...props
}: DialogContentProps) {
	return (
		<DialogPrimitive.Portal>
			<DialogPrimitive.Overlay className={overlayClasses} />
			<DialogPrimitive.Content
				// Without a description Radix warns unless aria-describedby is explicitly empty.
				{...(description ? {} : { 'aria-describedby': undefined })}
				className={cn(contentClasses, sizeClasses[size], className)}
				{...props}
			>
				<div className={cn('grid gap-1.5', !isCloseButtonHidden && 'pr-8')}>
					<DialogPrimitive.Title className="font-semibold text-base text-foreground leading-6">
						{title}
					</DialogPrimitive.Title>
					{description ? (
						<DialogPrimitive.Description className="text-muted-foreground text-sm">
							{description}
						</DialogPrimitive.Description>
					) : null}
				</div>
				{children}
				{isCloseButtonHidden ? null : (
					<DialogPrimitive.Close asChild>
						<Button
							variant="ghost"
							size="icon-sm"
							className="absolute top-3.5 right-3.5 text-muted-foreground"
							aria-label="Close"
						>
							<X aria-hidden />
						</Button>
					</DialogPrimitive.Close>
				)}
			</DialogPrimitive.Content>
		</DialogPrimitive.Portal>
	)
}

/** The action row: buttons side by side, right-aligned; stacked full width on phones, main action on top. */
export function DialogFooter({ className, ...props }: ComponentProps<'div'>) {
	return (
		<div
			className={cn('flex flex-col-reverse gap-2 sm:flex-row sm:justify-end [&>*]:w-full sm:[&>*]:w-auto', className)}
			{...props}
		/>
	)
}

type ConfirmDialogProps = {
	title: ReactNode
	/** What will happen; an alert dialog must say it. */
	description: ReactNode
	/** Runs on confirm; while its promise is pending the button spins, then the dialog closes. */
	onConfirm: () => unknown
	confirmLabel?: string
	cancelLabel?: string
	/** Red confirm button, for deletions and other actions that cannot be undone. */
	isDestructive?: boolean
	/** An element (usually a Button) that opens the dialog; leave out and use `open` to control it. */
	trigger?: ReactElement
	open?: boolean
	onOpenChange?: (open: boolean) => void
	/** Extra content between the description and the buttons. */
	children?: ReactNode
}

/**
 * "Are you sure?" before an action (Radix AlertDialog): focus starts on Cancel, a click outside does not
 * dismiss it, Escape does. If `onConfirm` throws or rejects, the dialog stays open so the user can retry;
 * reporting the error (a toast) is the caller's mutation's job.
 */
export function ConfirmDialog({
	title,
	description,
	onConfirm,
	confirmLabel = 'Confirm',
	cancelLabel = 'Cancel',
	isDestructive = false,
	trigger,
	open,
	onOpenChange,
	children,
}: ConfirmDialogProps) {
	const [internalOpen, setInternalOpen] = useState(false)
	const [isPending, setIsPending] = useState(false)
	const isOpen = open ?? internalOpen

	function setOpen(next: boolean): void {
		if (open === undefined) {
			setInternalOpen(next)
		}
		onOpenChange?.(next)
	}

	async function confirm(): Promise<void> {
		setIsPending(true)
		try {
			await onConfirm()
			setOpen(false)
		} catch {
			// Stay open: the mutation's error handler has told the user what went wrong.
		} finally {
			setIsPending(false)
		}
	}

	return (
		<AlertDialogPrimitive.Root open={isOpen} onOpenChange={(next) => (isPending ? undefined : setOpen(next))}>
			{trigger ? <AlertDialogPrimitive.Trigger asChild>{trigger}</AlertDialogPrimitive.Trigger> : null}
			<AlertDialogPrimitive.Portal>
				<AlertDialogPrimitive.Overlay className={overlayClasses} />
				<AlertDialogPrimitive.Content className={cn(contentClasses, sizeClasses.sm, 'sm:max-w-md')}>
					<div className="grid gap-1.5">
						<AlertDialogPrimitive.Title className="font-semibold text-base text-foreground leading-6">
							{title}
						</AlertDialogPrimitive.Title>
						<AlertDialogPrimitive.Description className="text-muted-foreground text-sm">
							{description}
						</AlertDialogPrimitive.Description>
					</div>
					{children}
					<DialogFooter>
						<AlertDialogPrimitive.Cancel asChild>
							<Button variant="outline" disabled={isPending}>
								{cancelLabel}
							</Button>
						</AlertDialogPrimitive.Cancel>
						<Button
							variant={isDestructive ? 'destructive' : 'primary'}
							isLoading={isPending}
							onClick={() => {
								void confirm()
							}}
						>
							{confirmLabel}
						</Button>
					</DialogFooter>
				</AlertDialogPrimitive.Content>
			</AlertDialogPrimitive.Portal>
		</AlertDialogPrimitive.Root>
	)
}
