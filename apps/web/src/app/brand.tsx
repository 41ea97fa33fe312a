import { cn } from '#src/components/ui/cn.ts'

/** The product mark (the favicon's four blocks) and name. */
export function Brand({ className, isNameHidden = false }: { className?: string; isNameHidden?: boolean }) {
	return (
		<span className={cn('inline-flex items-center gap-2 font-semibold text-foreground', className)}>
			<svg viewBox="0 0 32 32" className="size-7 shrink-0" aria-hidden="true">
				<rect width="32" height="32" rx="7" fill="#4338ca" />
				<rect x="7" y="7" width="8" height="8" rx="2" fill="#fff" />
				<rect x="17" y="7" width="8" height="8" rx="2" fill="#fff" fillOpacity=".55" />
				<rect x="7" y="17" width="8" height="8" rx="2" fill="#fff" fillOpacity=".55" />
				<rect x="17" y="17" width="8" height="8" rx="2" fill="#fbbf24" />
			</svg>
			<span className={cn('text-[15px] tracking-tight', isNameHidden && 'sr-only')}>Blocksmith</span>
		</span>
	)
}
