import { CircleCheck, CircleExclamationPoint, Info, TriangleExclamationPoint } from 'lucide-react'
import type { ReactNode } from 'react'
import { cn } from './cn.ts'

const variants = {
	info: { icon: Info, classes: 'border-info/25 bg-info/5 [&_[data-icon]]:text-info', role: 'status' },
	success: {
		icon: CircleCheck,
		classes: 'border-success/25 bg-success/5 [&_[data-icon]]:text-success',
		role: 'status',
	},
	warning: {
		icon: TriangleExclamationPoint,
		classes: 'border-warning/30 bg-warning/5 [&_[data-icon]]:text-warning',
		role: 'alert',
	},
	error: {
		icon: CircleExclamationPoint,
		classes: 'border-error/25 bg-error/5 [&_[data-icon]]:text-error',
		role: 'alert',
	},
} as const

type AlertProps = {
	variant?: keyof typeof variants
	title?: ReactNode
	children?: ReactNode
	/** A button or link at the right (stacked below on phones). */
	action?: ReactNode
	className?: string
}

/**
 * An inline notice inside the page ("Your trial ends in 3 days", "This form is paused"). For passing
 * feedback after an action, use a toast instead. Warnings and errors are announced (role="alert").
 */
export function Alert({ variant = 'info', title, children, action, className }: AlertProps) {
	const { icon: Icon, classes, role } = variants[variant]
	return (
		<div
			role={role}
			className={cn(
				'flex flex-col gap-3 rounded-lg border px-4 py-3 text-foreground text-sm sm:flex-row sm:items-start',
				classes,
				className,
			)}
		>
			<div className="flex flex-1 gap-3">
				<Icon aria-hidden data-icon className="mt-0.5 size-4 shrink-0" />
				<div className="grid flex-1 gap-1">
					{title ? <p className="font-medium leading-5">{title}</p> : null}
					{children ? (
						<div className="text-muted-foreground leading-5 [&_a]:text-link [&_a]:underline">{children}</div>
					) : null}
				</div>
			</div>
			{action ? <div className="flex shrink-0 gap-2 pl-7 sm:pl-0">{action}</div> : null}
		</div>
	)
}
