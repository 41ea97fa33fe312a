import type { ComponentProps } from 'react'
import { cn } from './cn.ts'
import { controlClasses } from './control-classes.ts'

/** A multi-line text input that grows with its content where the browser can (field-sizing). */
export function Textarea({ className, rows = 3, ...props }: ComponentProps<'textarea'>) {
	return (
		<textarea
			rows={rows}
			className={cn(controlClasses, 'field-sizing-content block min-h-20 py-2 leading-relaxed', className)}
			{...props}
		/>
	)
}
