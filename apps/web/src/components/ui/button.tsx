import { cva, type VariantProps } from 'class-variance-authority'
import { Slot } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from './cn.ts'
import { Spinner } from './spinner.tsx'

export const buttonVariants = cva(
	[
		'relative inline-flex shrink-0 select-none items-center justify-center gap-2 whitespace-nowrap rounded-md font-medium text-sm',
		'transition-[color,background-color,border-color,box-shadow,opacity] duration-150',
		'disabled:pointer-events-none aria-busy:cursor-progress disabled:aria-busy:opacity-60',
		// Disabled (and not busy with an action) looks switched off in every variant: grey, flat, no colour.
		'disabled:not-aria-busy:border-transparent disabled:not-aria-busy:bg-muted disabled:not-aria-busy:text-muted-foreground disabled:not-aria-busy:shadow-none',
		'[&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0',
	],
	{
		variants: {
			variant: {
				primary: 'bg-primary text-primary-foreground shadow-xs hover:bg-primary-hover',
				secondary: 'bg-secondary text-secondary-foreground hover:bg-secondary-hover',
				outline:
					'border border-input bg-background text-foreground shadow-xs hover:bg-accent hover:text-accent-foreground dark:bg-input/20 dark:hover:bg-input/40',
				ghost: 'text-foreground hover:bg-accent hover:text-accent-foreground',
				destructive: 'bg-destructive text-destructive-foreground shadow-xs hover:bg-destructive-hover',
				link: 'text-link underline-offset-4 hover:underline',
			},
			size: {
				// Controls are 36 px high; on touch screens they grow to 40 px so a thumb can hit them.
				sm: 'h-8 gap-1.5 px-3 text-[13px] pointer-coarse:h-9',
				md: 'h-9 px-4 pointer-coarse:h-10',
				lg: 'h-10 px-6 text-base sm:text-sm pointer-coarse:h-11',
				icon: 'size-9 pointer-coarse:size-10',
				'icon-sm': 'size-8 pointer-coarse:size-9',
			},
		},
		compoundVariants: [{ variant: 'link', className: 'h-auto px-0 pointer-coarse:h-auto' }],
		defaultVariants: { variant: 'primary', size: 'md' },
	},
)

export type ButtonProps = ComponentProps<'button'> &
	VariantProps<typeof buttonVariants> & {
		/** Renders the single child (a link, say) with the button's look instead of a <button>. */
		asChild?: boolean
		/** Shows a spinner, disables the button and marks it aria-busy while an action runs. */
		isLoading?: boolean
	}

export function Button({
	className,
	variant,
	size,
	asChild = false,
	isLoading = false,
	disabled,
	type,
	children,
	...props
}: ButtonProps) {
	const classes = cn(buttonVariants({ variant, size }), className)
	if (asChild) {
		return (
			<Slot.Root className={classes} {...props}>
				{children}
			</Slot.Root>
		)
	}
	return (
		<button
			// A bare <button> submits its form; only buttons that ask for it should.
			type={type ?? 'button'}
			className={classes}
			disabled={disabled || isLoading}
			aria-busy={isLoading || undefined}
			{...props}
		>
			{isLoading ? <Spinner /> : null}
			{children}
		</button>
	)
}
