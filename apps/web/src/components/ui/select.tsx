import { Check, ChevronDown, ChevronUp } from 'lucide-react'
import { Select as SelectPrimitive } from 'radix-ui'
import type { ReactNode, Ref } from 'react'
import { cn } from './cn.ts'
import { controlClasses } from './control-classes.ts'

export type SelectOption = {
	/** Must not be '' (Radix reserves it for "nothing chosen"). */
	value: string
	label: ReactNode
	/** Plain text for type-ahead when `label` is not a string. */
	textValue?: string
	isDisabled?: boolean
}

export type SelectOptionGroup = { label: string; options: readonly SelectOption[] }

type SelectProps = {
	options: readonly (SelectOption | SelectOptionGroup)[]
	value?: string
	defaultValue?: string
	onValueChange?: (value: string) => void
	placeholder?: string
	/** Submitted with a native form under this name. */
	name?: string
	isDisabled?: boolean
	isRequired?: boolean
	/** Goes to the trigger, so react-hook-form can focus the field with an error. */
	ref?: Ref<HTMLButtonElement>
	onBlur?: () => void
	className?: string
	/** Set by `Field`, or by hand when the select stands alone. */
	id?: string
	'aria-label'?: string
	'aria-labelledby'?: string
	'aria-describedby'?: string
	'aria-invalid'?: boolean | 'true' | 'false'
	'aria-required'?: boolean | 'true' | 'false'
}

/**
 * A single-choice list (Radix Select): opens with Enter, Space or the arrow keys, type-ahead, Escape closes.
 * With react-hook-form use a Controller and pass `value`, `onValueChange`, `onBlur`, `ref`, `name`.
 */
export function Select({
	options,
	value,
	defaultValue,
	onValueChange,
	placeholder = 'Select…',
	name,
	isDisabled,
	isRequired,
	ref,
	onBlur,
	className,
	...triggerProps
}: SelectProps) {
	return (
		<SelectPrimitive.Root
			value={value}
			defaultValue={defaultValue}
			onValueChange={onValueChange}
			name={name}
			disabled={isDisabled}
			required={isRequired}
		>
			<SelectPrimitive.Trigger
				ref={ref}
				onBlur={onBlur}
				className={cn(
					controlClasses,
					'flex h-9 items-center justify-between gap-2 whitespace-nowrap py-1 text-left pointer-coarse:h-10',
					'data-placeholder:text-muted-foreground [&>span]:truncate',
					className,
				)}
				{...triggerProps}
			>
				<SelectPrimitive.Value placeholder={placeholder} />
				<SelectPrimitive.Icon asChild>
					<ChevronDown aria-hidden className="size-4 shrink-0 text-muted-foreground" />
				</SelectPrimitive.Icon>
			</SelectPrimitive.Trigger>
			<SelectPrimitive.Portal>
				<SelectPrimitive.Content
					position="popper"
					sideOffset={4}
					className={cn(
						'relative z-50 max-h-(--radix-select-content-available-height) min-w-(--radix-select-trigger-width) overflow-hidden',
						'rounded-lg border bg-popover text-popover-foreground shadow-lg',
						'origin-(--radix-select-content-transform-origin) data-[state=open]:animate-pop-in',
					)}
				>
					<SelectPrimitive.ScrollUpButton className="flex h-6 items-center justify-center text-muted-foreground">
						<ChevronUp aria-hidden className="size-4" />
					</SelectPrimitive.ScrollUpButton>
					<SelectPrimitive.Viewport className="p-1">
						{options.map((entry) =>
							'options' in entry ? (
								<SelectPrimitive.Group key={entry.label}>
									<SelectPrimitive.Label className="px-2 pt-2 pb-1 font-medium text-muted-foreground text-xs">
										{entry.label}
									</SelectPrimitive.Label>
									{entry.options.map((option) => (
										<SelectItem key={option.value} option={option} />
									))}
								</SelectPrimitive.Group>
							) : (
								<SelectItem key={entry.value} option={entry} />
							),
						)}
					</SelectPrimitive.Viewport>
					<SelectPrimitive.ScrollDownButton className="flex h-6 items-center justify-center text-muted-foreground">
						<ChevronDown aria-hidden className="size-4" />
					</SelectPrimitive.ScrollDownButton>
				</SelectPrimitive.Content>
			</SelectPrimitive.Portal>
		</SelectPrimitive.Root>
	)
}

function SelectItem({ option }: { option: SelectOption }) {
	return (
		<SelectPrimitive.Item
			value={option.value}
			disabled={option.isDisabled}
			textValue={option.textValue}
			className={cn(
				'relative flex w-full cursor-default select-none items-center rounded-md py-1.5 pr-8 pl-2 text-sm outline-hidden pointer-coarse:py-2.5',
				'data-disabled:pointer-events-none data-highlighted:bg-accent data-highlighted:text-accent-foreground data-disabled:opacity-50',
			)}
		>
			<SelectPrimitive.ItemText>{option.label}</SelectPrimitive.ItemText>
			<span className="absolute right-2 flex size-4 items-center justify-center">
				<SelectPrimitive.ItemIndicator>
					<Check aria-hidden className="size-4 text-link" />
				</SelectPrimitive.ItemIndicator>
			</span>
		</SelectPrimitive.Item>
	)
}
