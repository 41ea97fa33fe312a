import { Check, Minus } from 'lucide-react'
import { Checkbox as CheckboxPrimitive } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

/**
 * A checkbox (Radix: a <button role="checkbox">, plus a hidden native input inside a form so `name` submits).
 * `checked` may be 'indeterminate'. With react-hook-form use a Controller: `checked` + `onCheckedChange`.
 */
export function Checkbox({ className, ...props }: ComponentProps<typeof CheckboxPrimitive.Root>) {
	return (
		<CheckboxPrimitive.Root
			className={cn(
				'peer relative size-4 shrink-0 rounded-[4px] border border-input bg-background shadow-xs transition-colors',
				// The box is 16 px; the invisible ::after widens the hit area to 32 px for fingers.
				'after:absolute after:-inset-2',
				'disabled:cursor-not-allowed disabled:opacity-50',
				'data-[state=checked]:border-primary data-[state=checked]:bg-primary data-[state=checked]:text-primary-foreground',
				'data-[state=indeterminate]:border-primary data-[state=indeterminate]:bg-primary data-[state=indeterminate]:text-primary-foreground',
				'aria-invalid:border-error dark:bg-input/20',
				className,
			)}
			{...props}
		>
			<CheckboxPrimitive.Indicator className="group flex items-center justify-center text-current">
				<Check aria-hidden className="size-3.5 group-data-[state=indeterminate]:hidden" strokeWidth={3} />
				<Minus aria-hidden className="hidden size-3.5 group-data-[state=indeterminate]:block" strokeWidth={3} />
			</CheckboxPrimitive.Indicator>
		</CheckboxPrimitive.Root>
	)
}
