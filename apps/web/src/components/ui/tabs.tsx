import { Tabs as TabsPrimitive } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

// Radix Tabs: one tab stop for the list, arrow keys move between tabs, Home/End jump.

/** `value`/`onValueChange` (or `defaultValue`). */
export function Tabs({ className, ...props }: ComponentProps<typeof TabsPrimitive.Root>) {
	return <TabsPrimitive.Root className={cn('flex flex-col gap-4', className)} {...props} />
}

type TabsListProps = ComponentProps<typeof TabsPrimitive.List> & {
	/** 'underline' for page sections (default), 'pills' for a compact segmented switch. */
	variant?: 'underline' | 'pills'
}

/**
 * On a narrow screen the list scrolls sideways, and a page opened on a later tab (/settings?tab=members)
 * would show it cut off at the edge: scroll it into sight once, when the list mounts. (Module-level, so
 * React calls it on mount only, not on every render.)
 */
function revealActiveTab(list: HTMLDivElement | null): void {
	const active = list?.querySelector('[role="tab"][data-state="active"]')
	if (!list || !active) {
		return
	}
	const overflow = active.getBoundingClientRect().right - list.getBoundingClientRect().right
	if (overflow > 0) {
		list.scrollLeft += overflow
	}
}

/** Give it an aria-label when nothing nearby names the tabs. Scrolls sideways on narrow screens. */
export function TabsList({ className, variant = 'underline', ...props }: TabsListProps) {
	return (
		<TabsPrimitive.List
			ref={revealActiveTab}
			data-variant={variant}
			className={cn(
				'group/tabs flex max-w-full items-center overflow-x-auto [scrollbar-width:none]',
				variant === 'underline' ? 'gap-4 border-b' : 'w-fit gap-1 rounded-lg bg-muted p-1',
				className,
			)}
			{...props}
		/>
	)
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
	return (
		<TabsPrimitive.Trigger
			className={cn(
				'inline-flex shrink-0 items-center justify-center gap-2 whitespace-nowrap font-medium text-muted-foreground text-sm transition-colors',
				'hover:text-foreground disabled:pointer-events-none disabled:opacity-50 data-[state=active]:text-foreground',
				'[&_svg]:size-4 [&_svg]:shrink-0',
				// The outline would be clipped by the list's overflow; draw the focus ring inside.
				'focus-visible:outline-offset-[-2px]',
				'group-data-[variant=underline]/tabs:-mb-px group-data-[variant=underline]/tabs:h-10 group-data-[variant=underline]/tabs:border-transparent group-data-[variant=underline]/tabs:border-b-2 group-data-[variant=underline]/tabs:px-1',
				'group-data-[variant=underline]/tabs:data-[state=active]:border-primary dark:group-data-[variant=underline]/tabs:data-[state=active]:border-ring',
				'group-data-[variant=pills]/tabs:h-7 group-data-[variant=pills]/tabs:rounded-md group-data-[variant=pills]/tabs:px-3 pointer-coarse:group-data-[variant=pills]/tabs:h-9',
				'group-data-[variant=pills]/tabs:data-[state=active]:bg-background group-data-[variant=pills]/tabs:data-[state=active]:shadow-xs dark:group-data-[variant=pills]/tabs:data-[state=active]:bg-input',
				className,
			)}
			{...props}
		/>
	)
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
	return <TabsPrimitive.Content className={cn('focus-visible:outline-offset-4', className)} {...props} />
}
