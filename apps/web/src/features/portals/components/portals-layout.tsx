import type { Portal } from '@blocksmith/contracts/portals.ts'
import { ExternalLink, Plus, Settings2, Users } from 'lucide-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { type NavSection, SectionNav } from '#src/components/section-nav.tsx'
import { Badge } from '#src/components/ui/badge.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { portalPaths } from '../lib/portal-paths.ts'

/** Every portals page: its title, under it the portal's own navigation when one is open, then the page. */
export function PortalsLayout({
	title,
	description,
	portal,
	hasOthers = false,
	canAddPortal = false,
	children,
}: {
	title: string
	description?: ReactNode
	portal?: Portal | undefined
	/** Several portals: a link back to the list. */
	hasOthers?: boolean
	/** The plan allows another portal: a button to open one. */
	canAddPortal?: boolean
	children: ReactNode
}) {
	const sections: readonly NavSection[] = portal
		? [
				{ name: 'Setup', to: portalPaths.setup(portal.id), icon: Settings2, end: true },
				{ name: 'Members', to: portalPaths.members(portal.id), icon: Users, end: false },
			]
		: []
	return (
		<div className="grid grid-cols-1 gap-6">
			<div className="grid gap-4">
				<div className="grid gap-1">
					{hasOthers ? (
						<Link to={portalPaths.list} className="w-fit text-link text-sm underline-offset-4 hover:underline">
							All portals
						</Link>
					) : null}
					<div className="flex flex-wrap items-center gap-2">
						<h1 className="font-semibold text-2xl tracking-tight">{title}</h1>
						{portal && !portal.isEnabled ? <Badge variant="warning">Off</Badge> : null}
						{canAddPortal ? (
							<Button asChild variant="outline" size="sm" className="ml-auto">
								<Link to={portalPaths.new}>
									<Plus aria-hidden /> New portal
								</Link>
							</Button>
						) : null}
					</div>
					{portal ? (
						<a
							href={portal.url}
							target="_blank"
							rel="noreferrer"
							className="inline-flex w-fit max-w-full items-center gap-1.5 break-all text-link text-sm underline-offset-4 hover:underline"
						>
							{portal.url} <ExternalLink aria-hidden className="size-3.5 shrink-0" />
						</a>
					) : description ? (
						<p className="text-muted-foreground">{description}</p>
					) : null}
				</div>
				{portal ? <SectionNav label="Portal" sections={sections} /> : null}
			</div>
			{children}
		</div>
	)
}
