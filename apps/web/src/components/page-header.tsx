import { Fragment, type ReactNode } from 'react'
import { Link } from 'react-router'

type ListPageHeaderProps = {
	title: string
	description: ReactNode
	/** The page's "New …" button; left out while the list is empty, as its empty state offers it. */
	action?: ReactNode
}

/** The head of a list page (Forms, Charts): what the list holds and how to add to it. */
export function ListPageHeader({ title, description, action }: ListPageHeaderProps) {
	return (
		<div className="flex flex-wrap items-end justify-between gap-4">
			<div className="grid gap-1">
				<h1 className="font-semibold text-2xl tracking-tight">{title}</h1>
				<p className="text-muted-foreground">{description}</p>
			</div>
			{action}
		</div>
	)
}

type ItemPageHeaderProps = {
	/** The pages above this one, outermost first; the breadcrumb ends with `title`. */
	crumbs: { label: string; to: string }[]
	title: string
	/** Beside the title: its state (Draft, Published…). */
	badge: ReactNode
	/** Under the title: one line on where its data comes from. */
	details: ReactNode
	/** At the right: its actions menu. */
	actions: ReactNode
	/** Under it all: the object's own sections, if it has several pages. */
	children?: ReactNode
}

/** The head of the pages of one object (a form, a chart, a dashboard): where it is, its state and actions. */
export function ItemPageHeader({ crumbs, title, badge, details, actions, children }: ItemPageHeaderProps) {
	return (
		<div className="grid gap-4">
			<nav aria-label="Breadcrumb" className="text-muted-foreground text-sm">
				{crumbs.map((crumb) => (
					<Fragment key={crumb.to}>
						<Link to={crumb.to} className="hover:underline">
							{crumb.label}
						</Link>
						<span aria-hidden> / </span>
					</Fragment>
				))}
				<span>{title}</span>
			</nav>
			<div className="flex flex-wrap items-start justify-between gap-3">
				<div className="grid min-w-0 gap-1">
					<div className="flex flex-wrap items-center gap-2">
						<h1 className="min-w-0 break-words font-semibold text-2xl tracking-tight">{title}</h1>
						{badge}
					</div>
					{details}
				</div>
				{actions}
			</div>
			{children}
		</div>
	)
}
