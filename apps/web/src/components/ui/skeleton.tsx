import type { ComponentProps, ReactNode } from 'react'
import { cn } from './cn.ts'

/** A grey placeholder block in the shape of what is loading. Size it with classes (`h-4 w-32`). Hidden from screen readers. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
	return <div aria-hidden className={cn('animate-pulse rounded-md bg-muted dark:bg-secondary', className)} {...props} />
}

type SkeletonGroupProps = {
	/** What screen readers hear instead of the placeholders. */
	label?: string
	children: ReactNode
	className?: string
}

/** Wraps a loading layout of skeletons and tells screen readers, once, that it is loading. */
export function SkeletonGroup({ label = 'Loading…', children, className }: SkeletonGroupProps) {
	return (
		<div role="status" aria-busy="true" className={className}>
			<span className="sr-only">{label}</span>
			{children}
		</div>
	)
}
