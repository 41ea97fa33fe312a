import { cva, type VariantProps } from 'class-variance-authority'
import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

const badgeVariants = cva(
	'inline-flex h-fit w-fit shrink-0 items-center gap-1 whitespace-nowrap rounded-md border px-1.5 py-0.5 font-medium text-xs leading-4 [&_svg]:size-3 [&_svg]:shrink-0',
	{
		variants: {
			variant: {
				neutral: 'border-border bg-muted text-muted-foreground',
				primary: 'border-info/20 bg-info/10 text-info',
				// The text is the darker "on tint" shade of each colour: the plain one falls under 4.5:1 on its tint.
				success: 'border-success/20 bg-success/10 text-success-on-tint',
				warning: 'border-warning/25 bg-warning/10 text-warning-on-tint',
				error: 'border-error/20 bg-error/10 text-error-on-tint',
				outline: 'border-border bg-transparent text-foreground',
			},
		},
		defaultVariants: { variant: 'neutral' },
	},
)

/** A short status label ("Paid", "Draft", "Overdue"). Colour is never the only signal: the word says it. */
export function Badge({ className, variant, ...props }: ComponentProps<'span'> & VariantProps<typeof badgeVariants>) {
	return <span className={cn(badgeVariants({ variant }), className)} {...props} />
}
