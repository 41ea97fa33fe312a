import { LoaderCircle } from 'lucide-react'
import { cn } from './cn.ts'

type SpinnerProps = {
	/** Announced to screen readers; leave it out when the surrounding element already says it is busy. */
	label?: string
	size?: 'sm' | 'md' | 'lg'
	className?: string
}

const sizeClasses = { sm: 'size-3.5', md: 'size-4', lg: 'size-6' } as const

export function Spinner({ label, size = 'md', className }: SpinnerProps) {
	const icon = (
		<LoaderCircle aria-hidden className={cn('shrink-0 animate-spin text-current', sizeClasses[size], className)} />
	)
	if (!label) {
		return icon
	}
	return (
		<span role="status" className="inline-flex items-center gap-2">
			{icon}
			<span className="sr-only">{label}</span>
		</span>
	)
}
