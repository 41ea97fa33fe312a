import { formRootClass } from '@blocksmith/contracts/form-theme.ts'
import type { PublicTheme } from '@blocksmith/contracts/forms.ts'
import type { CSSProperties, ReactNode } from 'react'

// Where a form's theme applies: its colours as the design tokens the page's components read,
// its font and corners (styles.css), its cover and logo, and the author's CSS, which the server
// confined to this element's class. Paint containment around it keeps whatever that CSS does
// inside the form: even a fixed-position element is placed and clipped within the form's box.
// The same in the public page and the builder's preview.

type ThemeRootProps = {
	theme: PublicTheme | null
	children: ReactNode
	className?: string
}

export function ThemeRoot({ theme, children, className = '' }: ThemeRootProps) {
	const accent = theme?.accentColor
	const style = accent
		? ({
				'--primary': accent,
				'--primary-hover': `color-mix(in oklab, ${accent} 85%, black)`,
				'--primary-foreground': theme?.accentForeground ?? '#ffffff',
				'--ring': accent,
			} as CSSProperties)
		: undefined
	return (
		// The containment is on a wrapper the author's selectors cannot name (they all start at the
		// root), so even the root made `position: fixed` stays inside the form's box.
		<div className={`[contain:layout_paint] ${className}`}>
			<div
				className={`${formRootClass} grid`}
				data-font={theme?.font ?? 'default'}
				data-corners={theme?.corners ?? 'rounded'}
				style={style}
			>
				{theme?.css ? <style>{theme.css}</style> : null}
				{theme?.cover ? (
					<img src={theme.cover} alt="" className="h-36 w-full rounded-t-xl object-cover sm:h-48" />
				) : null}
				{theme?.logo ? (
					<img
						src={theme.logo}
						alt=""
						className={`relative z-10 ml-5 size-16 rounded-xl border bg-card object-contain p-1.5 shadow-xs sm:ml-8 ${theme.cover ? '-mt-8 mb-3' : 'mb-4'}`}
					/>
				) : null}
				{children}
			</div>
		</div>
	)
}
