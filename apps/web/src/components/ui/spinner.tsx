import { cn } from './cn.ts'

type SpinnerProps = {
	/** Announced to screen readers; leave it out when the surrounding element already says it is busy. */
	label?: string
	size?: 'sm' | 'md' | 'lg'
	className?: string
}

const sizeClasses = { sm: 'size-3.5', md: 'size-4', lg: 'size-6' } as const

export function Spinner({ label, size = 'md', className }: SpinnerProps) {
	// Drawn here rather than taken from the icon set: every button can spin, including the
	// sign-in page's, which must not pay for the icon library.
	const icon = (
		<svg
			aria-hidden="true"
			viewBox="0 0 24 24"
			fill="none"
			stroke="currentColor"
			strokeWidth="2"
			strokeLinecap="round"
			className={cn('shrink-0 animate-spin text-current', sizeClasses[size], className)}
		>
			<path d="M21 12a9 9 0 1 1-6.219-8.56" />
		</svg>
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
