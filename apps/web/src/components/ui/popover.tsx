import { Popover as PopoverPrimitive } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

// Radix Popover: a non-modal panel anchored to its trigger. Escape and a click outside close it, and the
// focus goes back to the trigger. For a list of actions use the dropdown menu; for a form, a dialog.

/** The popover's state holder: `open`/`onOpenChange`, or uncontrolled. */
export function Popover(props: ComponentProps<typeof PopoverPrimitive.Root>) {
	return <PopoverPrimitive.Root {...props} />
}

/** Opens the popover; use `asChild` around a Button. */
export function PopoverTrigger(props: ComponentProps<typeof PopoverPrimitive.Trigger>) {
	return <PopoverPrimitive.Trigger {...props} />
}

/** Positions the popover against another element than its trigger. */
export function PopoverAnchor(props: ComponentProps<typeof PopoverPrimitive.Anchor>) {
	return <PopoverPrimitive.Anchor {...props} />
}

/** The panel, in a portal. Name it with `aria-label` when it holds a form. */
export function PopoverContent({
	className,
	sideOffset = 4,
	align = 'start',
	...props
}: ComponentProps<typeof PopoverPrimitive.Content>) {
	return (
		<PopoverPrimitive.Portal>
			<PopoverPrimitive.Content
				sideOffset={sideOffset}
				align={align}
				className={cn(
					'z-50 max-h-(--radix-popover-content-available-height) w-72 overflow-y-auto rounded-lg border bg-popover p-3 text-popover-foreground shadow-lg',
					'origin-(--radix-popover-content-transform-origin) data-[state=closed]:animate-pop-out data-[state=open]:animate-pop-in',
					'focus-visible:outline-hidden',
					className,
				)}
				{...props}
			/>
		</PopoverPrimitive.Portal>
	)
}
