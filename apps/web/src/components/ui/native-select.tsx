import type { ComponentProps } from 'react'
import { cn } from './cn.ts'
import { controlClasses } from './control-classes.ts'

/**
 * The browser's own <select>, styled like the other controls: for long lists (time zones) and
 * the rule editor, where the native keyboard handling (type-ahead, arrows) is what people expect.
 */
export function NativeSelect({ className, ...props }: ComponentProps<'select'>) {
	return <select className={cn(controlClasses, 'h-9 py-1 pointer-coarse:h-10', className)} {...props} />
}
