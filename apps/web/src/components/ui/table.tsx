import { type ComponentProps, type RefObject, useEffect, useRef, useState } from 'react'
import { cn } from './cn.ts'

type TableProps = ComponentProps<'table'> & {
	containerClassName?: string
}

/**
 * A semantic <table> in a bordered box that scrolls sideways when the table is wider than the screen.
 * Name it with `aria-label` or a `TableCaption`. When it does overflow, the box becomes a focusable,
 * named region so keyboard users can scroll it too.
 */
export function Table({ className, containerClassName, ...props }: TableProps) {
	const containerRef = useRef<HTMLDivElement>(null)
	const isOverflowing = useIsOverflowing(containerRef)
	return (
		<div
			ref={containerRef}
			// Inline-size containment: a wide table must not widen the grid or flex column around it; it scrolls instead.
			className={cn(
				'relative w-full overflow-x-auto rounded-lg border bg-card [contain:inline-size]',
				containerClassName,
			)}
			{...(isOverflowing
				? { tabIndex: 0, role: 'region', 'aria-label': props['aria-label'] ?? 'Table, scrolls sideways' }
				: {})}
		>
			<table className={cn('w-full caption-bottom border-collapse text-sm', className)} {...props} />
		</div>
	)
}

function useIsOverflowing(ref: RefObject<HTMLElement | null>): boolean {
	const [isOverflowing, setIsOverflowing] = useState(false)
	useEffect(() => {
		const element = ref.current
		if (!element || typeof ResizeObserver === 'undefined') {
			return
		}
		const measure = () => setIsOverflowing(element.scrollWidth > element.clientWidth)
		const observer = new ResizeObserver(measure)
		observer.observe(element)
		if (element.firstElementChild) {
			observer.observe(element.firstElementChild)
		}
		measure()
		return () => observer.disconnect()
	}, [ref])
	return isOverflowing
}

export function TableHeader({ className, ...props }: ComponentProps<'thead'>) {
	return <thead className={cn('bg-muted/50 [&_tr]:border-b', className)} {...props} />
}

export function TableBody({ className, ...props }: ComponentProps<'tbody'>) {
	return <tbody className={cn('[&_tr:last-child]:border-0', className)} {...props} />
}

export function TableFooter({ className, ...props }: ComponentProps<'tfoot'>) {
	return <tfoot className={cn('border-t bg-muted/50 font-medium [&>tr]:last:border-b-0', className)} {...props} />
}

/** Set data-state="selected" to highlight a selected row. */
export function TableRow({ className, ...props }: ComponentProps<'tr'>) {
	return (
		<tr
			className={cn('border-b transition-colors hover:bg-muted/40 data-[state=selected]:bg-muted', className)}
			{...props}
		/>
	)
}

type CellAlignment = {
	/** Right-aligned, tabular digits: amounts, counts, durations. */
	isNumeric?: boolean
}

/** A column header (`scope="col"` by default). */
export function TableHead({
	className,
	isNumeric = false,
	scope = 'col',
	...props
}: ComponentProps<'th'> & CellAlignment) {
	return (
		<th
			scope={scope}
			className={cn(
				'h-10 whitespace-nowrap px-3 text-left align-middle font-medium text-muted-foreground text-xs first:pl-4 last:pr-4',
				isNumeric && 'text-right',
				className,
			)}
			{...props}
		/>
	)
}

export function TableCell({ className, isNumeric = false, ...props }: ComponentProps<'td'> & CellAlignment) {
	return (
		<td
			className={cn(
				// One line per cell: on a phone the table scrolls sideways rather than breaking "INV-0012" in two.
				'whitespace-nowrap px-3 py-2.5 align-middle first:pl-4 last:pr-4',
				isNumeric && 'text-right tabular-nums',
				className,
			)}
			{...props}
		/>
	)
}

export function TableCaption({ className, ...props }: ComponentProps<'caption'>) {
	return <caption className={cn('border-t px-4 py-3 text-muted-foreground text-sm', className)} {...props} />
}
