import { Avatar as AvatarPrimitive } from 'radix-ui'
import { cn } from './cn.ts'

const sizeClasses = { sm: 'size-6 text-[10px]', md: 'size-8 text-xs', lg: 'size-10 text-sm' } as const

type AvatarProps = {
	/** A person's or organisation's name (or e-mail address): the initials, and the accessible name. */
	name: string
	src?: string | null
	size?: keyof typeof sizeClasses
	/** When the name is written right beside the avatar, hide it from screen readers so it is not read twice. */
	isDecorative?: boolean
	className?: string
}

/** A round picture, or the name's initials while it loads, when it fails, or when there is none. */
export function Avatar({ name, src, size = 'md', isDecorative = false, className }: AvatarProps) {
	return (
		<AvatarPrimitive.Root
			{...(isDecorative ? { 'aria-hidden': true } : { role: 'img', 'aria-label': name })}
			className={cn(
				'relative inline-flex shrink-0 select-none items-center justify-center overflow-hidden rounded-full bg-primary/10 align-middle ring-1 ring-border dark:bg-primary/25',
				sizeClasses[size],
				className,
			)}
		>
			{src ? <AvatarPrimitive.Image src={src} alt="" className="size-full object-cover" /> : null}
			{isDecorative ? (
				// Drawn by CSS, not written as text: beside a name inside a control, text initials would be
				// visible words missing from the control's name (axe's label-content-name-mismatch).
				<AvatarPrimitive.Fallback
					data-initials={initialsOf(name)}
					className="font-semibold text-link leading-none before:content-[attr(data-initials)]"
					delayMs={src ? 300 : undefined}
				/>
			) : (
				<AvatarPrimitive.Fallback className="font-semibold text-link leading-none" delayMs={src ? 300 : undefined}>
					{initialsOf(name)}
				</AvatarPrimitive.Fallback>
			)}
		</AvatarPrimitive.Root>
	)
}

/** "Ada Lovelace" → "AL", "cher" → "C", "jane.doe@example.com" → "JD", "" → "?". */
export function initialsOf(name: string): string {
	const local = name.includes('@') ? (name.split('@')[0] ?? '') : name
	const words = local
		.split(/[\s._-]+/)
		.map((word) => word.replace(/[^\p{L}\p{N}]/gu, ''))
		.filter(Boolean)
	const first = words[0]
	if (!first) {
		return '?'
	}
	const last = words.length > 1 ? words[words.length - 1] : undefined
	return ((Array.from(first)[0] ?? '') + (last ? (Array.from(last)[0] ?? '') : '')).toUpperCase()
}
