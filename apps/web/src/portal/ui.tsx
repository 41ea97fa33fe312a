import type { ReactNode } from 'react'

// The few pieces of look the portal shares, as plain class strings: the dashboard's ui/ kit
// (Radix, tailwind-merge) would cost the page more than the portal's own code.

export const inputClasses =
	'h-10 w-full rounded-md border border-input bg-background px-3 text-sm text-foreground placeholder:text-muted-foreground focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring'

export const buttonClasses =
	'inline-flex h-10 items-center justify-center gap-2 rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground hover:opacity-90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-60'

export const secondaryButtonClasses =
	'inline-flex h-10 items-center justify-center gap-2 rounded-md border border-border bg-card px-4 text-sm font-medium text-foreground hover:bg-accent focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-60'

export const linkClasses =
	'text-link underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring rounded-sm'

export const cardClasses = 'rounded-lg border border-border bg-card text-card-foreground'

export function Notice({ tone = 'info', children }: { tone?: 'info' | 'error'; children: ReactNode }) {
	return (
		<div
			role={tone === 'error' ? 'alert' : 'status'}
			className={`rounded-md border px-3 py-2 text-sm ${tone === 'error' ? 'border-error/40 text-error' : 'border-border text-foreground'}`}
		>
			{children}
		</div>
	)
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
	return (
		<p role="status" className="py-10 text-center text-sm text-muted-foreground">
			{label}
		</p>
	)
}

/** A whole-page message: no portal here, a row that isn't shared, a failure. */
export function Message({ title, children }: { title: string; children?: ReactNode }) {
	return (
		<div className="mx-auto max-w-md py-16 text-center">
			<h1 className="text-lg font-semibold">{title}</h1>
			{children ? <div className="mt-2 text-sm text-muted-foreground">{children}</div> : null}
		</div>
	)
}
