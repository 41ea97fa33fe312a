import type { ComponentProps } from 'react'
import { cn } from './cn.ts'
import { controlClasses } from './control-classes.ts'

/** A text input. Put it inside a `Field` for its label, description and error. */
export function Input({ className, type = 'text', ...props }: ComponentProps<'input'>) {
	return (
		<input
			type={type}
			className={cn(
				controlClasses,
				'h-9 py-1 pointer-coarse:h-10',
				// A read-only value (the invited address, a name only admins may change) must not look editable.
				'read-only:bg-muted read-only:shadow-none dark:read-only:bg-muted',
				'file:mr-3 file:inline-flex file:h-7 file:border-0 file:bg-transparent file:font-medium file:text-foreground file:text-sm',
				className,
			)}
			{...props}
		/>
	)
}
