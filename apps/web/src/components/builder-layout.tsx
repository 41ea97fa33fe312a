import type { ReactNode } from 'react'
import { cn } from './ui/cn.ts'
import { TabsList, TabsTrigger } from './ui/tabs.tsx'

type SectionTabsListProps<S extends string> = {
	label: string
	sections: readonly (readonly [name: S, label: string])[]
	hasErrors: (name: S) => boolean
}

/** The tabs of an editor's sections; a dot marks a section with a problem to fix before saving. */
export function SectionTabsList<S extends string>({ label, sections, hasErrors }: SectionTabsListProps<S>) {
	return (
		<TabsList aria-label={label}>
			{sections.map(([name, sectionLabel]) => (
				<TabsTrigger key={name} value={name}>
					{sectionLabel}
					{hasErrors(name) ? <span aria-hidden className="size-1.5 rounded-full bg-error" /> : null}
				</TabsTrigger>
			))}
		</TabsList>
	)
}

type SettingsAndPreviewProps = {
	/** The grid's columns from `xl` up, where both show side by side. */
	className: string
	/** Below `xl` one shows at a time: the preview when this is on (the save bar's Preview). */
	isPreviewShown: boolean
	settings: ReactNode
	preview: ReactNode
}

/** An editor's settings beside its live preview, which stays in view while the settings scroll. */
export function SettingsAndPreview({ className, isPreviewShown, settings, preview }: SettingsAndPreviewProps) {
	return (
		<div className={cn('grid grid-cols-1 gap-6', className)}>
			<div className={cn('min-w-0', isPreviewShown && 'hidden xl:block')}>{settings}</div>
			<aside aria-label="Preview" className={cn('min-w-0', !isPreviewShown && 'hidden xl:block')}>
				<div className="grid gap-2 xl:sticky xl:top-20">
					<p className="font-medium text-muted-foreground text-xs uppercase tracking-wide">Preview</p>
					{preview}
				</div>
			</aside>
		</div>
	)
}
