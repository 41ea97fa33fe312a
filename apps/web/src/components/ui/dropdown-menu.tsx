import { Check, Circle } from 'lucide-react'
import { DropdownMenu as MenuPrimitive } from 'radix-ui'
import type { ComponentProps } from 'react'
import { cn } from './cn.ts'

// Radix DropdownMenu: arrow keys move, type-ahead jumps, Enter/Space choose, Escape closes and returns focus.

/** The menu's state holder (Radix DropdownMenu.Root). */
export function DropdownMenu(props: ComponentProps<typeof MenuPrimitive.Root>) {
	return <MenuPrimitive.Root {...props} />
}

/** Opens the menu; use `asChild` around a Button (an icon-only one needs an aria-label). */
export function DropdownMenuTrigger(props: ComponentProps<typeof MenuPrimitive.Trigger>) {
	return <MenuPrimitive.Trigger {...props} />
}

export function DropdownMenuContent({
	className,
	sideOffset = 4,
	align = 'end',
	...props
}: ComponentProps<typeof MenuPrimitive.Content>) {
	return (
		<MenuPrimitive.Portal>
			<MenuPrimitive.Content
				sideOffset={sideOffset}
				align={align}
				className={cn(
					'z-50 max-h-(--radix-dropdown-menu-content-available-height) min-w-44 overflow-y-auto overflow-x-hidden',
					'rounded-lg border bg-popover p-1 text-popover-foreground shadow-lg',
					'origin-(--radix-dropdown-menu-content-transform-origin) data-[state=closed]:animate-pop-out data-[state=open]:animate-pop-in',
					className,
				)}
				{...props}
			/>
		</MenuPrimitive.Portal>
	)
}

const itemClasses = [
	'relative flex cursor-default select-none items-center gap-2 rounded-md px-2 py-1.5 text-sm outline-hidden pointer-coarse:py-2.5',
	'data-disabled:pointer-events-none data-highlighted:bg-accent data-highlighted:text-accent-foreground data-disabled:opacity-50',
	'[&_svg]:pointer-events-none [&_svg]:size-4 [&_svg]:shrink-0 [&_svg]:text-muted-foreground',
].join(' ')

type DropdownMenuItemProps = ComponentProps<typeof MenuPrimitive.Item> & {
	/** Red text, for "Delete" and the like. */
	isDestructive?: boolean
}

/** One action. `onSelect` runs it; for navigation use `asChild` around a link. */
export function DropdownMenuItem({ className, isDestructive = false, ...props }: DropdownMenuItemProps) {
	return (
		<MenuPrimitive.Item
			className={cn(
				itemClasses,
				isDestructive && 'text-error data-highlighted:bg-error/10 data-highlighted:text-error [&_svg]:text-error',
				className,
			)}
			{...props}
		/>
	)
}

export function DropdownMenuCheckboxItem({
	className,
	children,
	...props
}: ComponentProps<typeof MenuPrimitive.CheckboxItem>) {
	return (
		<MenuPrimitive.CheckboxItem className={cn(itemClasses, 'pl-8', className)} {...props}>
			<span className="absolute left-2 flex size-4 items-center justify-center">
				<MenuPrimitive.ItemIndicator>
					<Check aria-hidden className="text-foreground!" />
				</MenuPrimitive.ItemIndicator>
			</span>
			{children}
		</MenuPrimitive.CheckboxItem>
	)
}

/** Holds radio items; `value` + `onValueChange`. */
export function DropdownMenuRadioGroup(props: ComponentProps<typeof MenuPrimitive.RadioGroup>) {
	return <MenuPrimitive.RadioGroup {...props} />
}

export function DropdownMenuRadioItem({
	className,
	children,
	...props
}: ComponentProps<typeof MenuPrimitive.RadioItem>) {
	return (
		<MenuPrimitive.RadioItem className={cn(itemClasses, 'pl-8', className)} {...props}>
			<span className="absolute left-2 flex size-4 items-center justify-center">
				<MenuPrimitive.ItemIndicator>
					<Circle aria-hidden className="size-2! fill-current text-foreground!" />
				</MenuPrimitive.ItemIndicator>
			</span>
			{children}
		</MenuPrimitive.RadioItem>
	)
}

/** A non-interactive heading inside the menu. */
export function DropdownMenuLabel({ className, ...props }: ComponentProps<typeof MenuPrimitive.Label>) {
	return (
		<MenuPrimitive.Label
			className={cn('px-2 pt-1.5 pb-1 font-medium text-muted-foreground text-xs', className)}
			{...props}
		/>
	)
}

export function DropdownMenuGroup(props: ComponentProps<typeof MenuPrimitive.Group>) {
	return <MenuPrimitive.Group {...props} />
}

export function DropdownMenuSeparator({ className, ...props }: ComponentProps<typeof MenuPrimitive.Separator>) {
	return <MenuPrimitive.Separator className={cn('-mx-1 my-1 h-px bg-border', className)} {...props} />
}

/** A keyboard shortcut hint at the item's right; hidden from screen readers, which have their own. */
export function DropdownMenuShortcut({ className, ...props }: ComponentProps<'span'>) {
	return (
		<span
			aria-hidden
			className={cn('ml-auto pl-4 text-muted-foreground text-xs tracking-widest', className)}
			{...props}
		/>
	)
}
