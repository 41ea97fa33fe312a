import { CircleCheck, CircleExclamationPoint, Info, LoaderCircle, TriangleExclamationPoint } from 'lucide-react'
import type { CSSProperties } from 'react'
import { Toaster as Sonner } from 'sonner'
import { useResolvedThemeOrSystem } from './theme.tsx'

// Sonner reads these to paint its toasts; pointing them at our tokens makes toasts follow the theme.
const tokenStyle = {
	'--normal-bg': 'var(--popover)',
	'--normal-text': 'var(--popover-foreground)',
	'--normal-border': 'var(--border)',
	'--border-radius': 'calc(var(--radius) + 2px)',
} as CSSProperties

const icons = {
	success: <CircleCheck aria-hidden className="size-4 text-success" />,
	error: <CircleExclamationPoint aria-hidden className="size-4 text-error" />,
	warning: <TriangleExclamationPoint aria-hidden className="size-4 text-warning" />,
	info: <Info aria-hidden className="size-4 text-info" />,
	loading: <LoaderCircle aria-hidden className="size-4 animate-spin text-muted-foreground" />,
}

/**
 * The toast area, once per app (inside ThemeProvider to follow an explicit theme choice). Anything can then call `toast()`, `toast.success()`,
 * `toast.error()` … from 'sonner' directly. Alt+T moves the focus to the toasts.
 */
export function Toaster() {
	const theme = useResolvedThemeOrSystem()
	return (
		<Sonner
			theme={theme}
			position="bottom-right"
			closeButton
			icons={icons}
			style={tokenStyle}
			toastOptions={{
				classNames: {
					toast: 'shadow-lg! gap-3! text-sm!',
					title: 'font-medium!',
					description: 'text-muted-foreground!',
					actionButton: 'bg-primary! text-primary-foreground! font-medium!',
				},
			}}
		/>
	)
}
