import { cn } from '#src/components/ui/cn.ts'

/**
 * The product mark (the favicon's four blocks) and name. Sized by its font size, so a text size in
 * `className` (e.g. `text-xs` in the "Made with" footer) scales the whole mark.
 */
export function Brand({ className, isNameHidden = false }: { className?: string; isNameHidden?: boolean }) {
	return (
		<span className={cn('inline-flex items-center gap-2 font-semibold text-[15px] text-foreground', className)}>
			<svg viewBox="0 0 32 32" className="size-[1.875em] shrink-0" aria-hidden="true">
				<rect width="32" height="32" rx="7" fill="#4338ca" />
				<rect x="7" y="7" width="8" height="8" rx="2" fill="#fff" />
				<rect x="17" y="7" width="8" height="8" rx="2" fill="#fff" fillOpacity=".55" />
				<rect x="7" y="17" width="8" height="8" rx="2" fill="#fff" fillOpacity=".55" />
				<rect x="17" y="17" width="8" height="8" rx="2" fill="#fbbf24" />
			</svg>
			<span className={cn('tracking-tight', isNameHidden && 'sr-only')}>Blocksmith</span>
		</span>
	)
}
