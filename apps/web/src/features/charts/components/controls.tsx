import { Switch as SwitchPrimitive } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from '#src/components/ui/cn.ts'
import { controlClasses } from '#src/components/ui/control-classes.ts'

// The forms builder has the same two controls; a feature does not import another feature, and
// neither is in the shared UI kit yet.

/** An on/off setting (Radix: a <button role="switch">). Put it in a horizontal `Field`. */
export function Switch({ className, ...props }: ComponentProps<typeof SwitchPrimitive.Root>) {
	return (
		<SwitchPrimitive.Root
			className={cn(
				'peer relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border border-transparent shadow-xs transition-colors',
				'after:absolute after:-inset-2',
				'focus-visible:outline-2 focus-visible:outline-ring focus-visible:outline-offset-2',
				'disabled:cursor-not-allowed disabled:opacity-50',
				'data-[state=checked]:bg-primary data-[state=unchecked]:bg-input dark:data-[state=unchecked]:bg-input/60',
				className,
			)}
			{...props}
		>
			{/* In dark mode the page-coloured thumb would vanish into the dark track: it takes the text colour when off. */}
			<SwitchPrimitive.Thumb className="pointer-events-none block size-4 rounded-full bg-background shadow-sm ring-0 transition-transform data-[state=checked]:translate-x-4 data-[state=unchecked]:translate-x-0.5 dark:data-[state=checked]:bg-primary-foreground dark:data-[state=unchecked]:bg-foreground/80" />
		</SwitchPrimitive.Root>
	)
}

/** The browser's own <select>, for long lists (time zones) where native type-ahead is expected. */
export function NativeSelect({ className, ...props }: ComponentProps<'select'>) {
	return <select className={cn(controlClasses, 'h-9 py-1 pointer-coarse:h-10', className)} {...props} />
}
