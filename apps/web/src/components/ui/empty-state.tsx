import type { LucideIcon } from 'lucide-react'
import type { ReactNode } from 'react'
import { cn } from './cn.ts'

type EmptyStateProps = {
	title: ReactNode
	description?: ReactNode
	icon?: LucideIcon
	/** Usually one primary Button ("Create your first form"), maybe a secondary link beside it. */
	action?: ReactNode
	/** Heading level of the title, to fit the page outline (the page's own title is the h1). */
	headingLevel?: 2 | 3
	className?: string
}

/** What a list shows before it has anything: what goes here, and the first step to get some. */
export function EmptyState({ title, description, icon: Icon, action, headingLevel = 2, className }: EmptyStateProps) {
	const Heading = headingLevel === 2 ? 'h2' : 'h3'
	return (
		<div
			className={cn(
				'flex flex-col items-center justify-center gap-4 rounded-xl border border-dashed px-6 py-12 text-center sm:py-16',
				className,
			)}
		>
			{Icon ? (
				<div className="flex size-11 items-center justify-center rounded-lg border bg-card shadow-xs">
					<Icon aria-hidden className="size-5 text-muted-foreground" />
				</div>
			) : null}
			<div className="grid max-w-sm gap-1.5">
				<Heading className="font-semibold text-base text-foreground">{title}</Heading>
				{description ? <p className="text-muted-foreground text-sm">{description}</p> : null}
			</div>
			{action ? <div className="flex flex-wrap items-center justify-center gap-2">{action}</div> : null}
		</div>
	)
}
