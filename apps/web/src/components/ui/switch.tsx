import { Switch as SwitchPrimitive } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

/**
 * An on/off setting that applies as it is flipped (Radix: a <button role="switch">). Put it in a
 * horizontal `Field` for its label and description.
 */
export function Switch({ className, ...props }: ComponentProps<typeof SwitchPrimitive.Root>) {
	return (
		<SwitchPrimitive.Root
			className={cn(
				'peer relative inline-flex h-5 w-9 shrink-0 cursor-pointer items-center rounded-full border border-transparent shadow-xs transition-colors',
				// The track is 20 px high; the invisible ::after widens the hit area for fingers.
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
