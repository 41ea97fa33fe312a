import { Slot } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

/**
 * A bordered surface. Compose: Card > CardHeader (CardTitle, CardDescription, CardAction) > CardContent > CardFooter.
 * A settings card is often one form: Card > form > header, content, footer. The form then gets the card's
 * column and gap, or the parts would touch.
 */
export function Card({ className, ...props }: ComponentProps<'div'>) {
	return (
		<div
			className={cn(
				'flex flex-col gap-5 rounded-xl border bg-card py-5 text-card-foreground shadow-xs [&>form]:flex [&>form]:flex-col [&>form]:gap-5',
				className,
			)}
			{...props}
		/>
	)
}

export function CardHeader({ className, ...props }: ComponentProps<'div'>) {
	return (
		<div
			className={cn(
				'grid auto-rows-min items-start gap-x-4 gap-y-1 px-5 has-data-[slot=card-action]:grid-cols-[minmax(0,1fr)_auto]',
				className,
			)}
			{...props}
		/>
	)
}

/** An <h3> by default; `asChild` around another heading level where the outline needs it. */
export function CardTitle({ className, asChild = false, ...props }: ComponentProps<'h3'> & { asChild?: boolean }) {
	const Component = asChild ? Slot.Root : 'h3'
	return <Component className={cn('col-start-1 font-semibold text-base leading-6', className)} {...props} />
}

export function CardDescription({ className, ...props }: ComponentProps<'p'>) {
	return <p className={cn('col-start-1 text-muted-foreground text-sm', className)} {...props} />
}

/** Top-right of the header: a button or menu that acts on the card. */
export function CardAction({ className, ...props }: ComponentProps<'div'>) {
	return (
		<div
			data-slot="card-action"
			className={cn('col-start-2 row-span-2 row-start-1 self-start justify-self-end', className)}
			{...props}
		/>
	)
}

export function CardContent({ className, ...props }: ComponentProps<'div'>) {
	return <div className={cn('px-5', className)} {...props} />
}

export function CardFooter({ className, ...props }: ComponentProps<'div'>) {
	return <div className={cn('flex items-center gap-2 border-t px-5 pt-4', className)} {...props} />
}
