import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

/**
 * A form label. A plain `<label>`: Radix's only adds that a double-click does not select the
 * text, which `select-none` does here too, and it cost the sign-in page its bundle budget.
 * `Field` renders one for you.
 */
export function Label({ className, ...props }: ComponentProps<'label'>) {
	return (
		// biome-ignore lint/a11y/noLabelWithoutControl: callers pass htmlFor or wrap their control
		<label
			className={cn(
				'select-none font-medium text-foreground text-sm leading-none peer-disabled:cursor-not-allowed peer-disabled:opacity-50',
				className,
			)}
			{...props}
		/>
	)
}
