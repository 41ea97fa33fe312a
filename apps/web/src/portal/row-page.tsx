import type { PortalRowDetail } from '@blocksmith/contracts/portals.ts'
import { useEffect } from 'react'
import { Blocks } from './blocks.tsx'
import { setTitle } from './branding.ts'
import { Cell, isEmptyCell } from './cell.tsx'
import { usePortal, useResource } from './portal-context.tsx'
import { Link, portalHref } from './router.tsx'
import { cardClasses, Loading, linkClasses, Message } from './ui.tsx'

// A row's own page: its shown properties, relations as links inside the portal, files, and for a
// Notion page its content, read-only.

export function RowPage({ pageId, rowId }: { pageId: string; rowId: string }) {
	const { call, basePath, info } = usePortal()
	const detail = useResource(`${pageId}/${rowId}`, (signal) =>
		call<PortalRowDetail>(`/pages/${encodeURIComponent(pageId)}/rows/${encodeURIComponent(rowId)}`, { signal }),
	)
	const title = detail.status === 'ready' ? detail.data.row.title : null
	useEffect(() => {
		if (title !== null) {
			setTitle(title || 'Untitled', info.name)
		}
	}, [title, info.name])

	if (detail.status === 'loading') {
		return <Loading />
	}
	if (detail.status === 'error') {
		// A row outside the member's rule is a 404 like one that never existed.
		return detail.error.status === 404 ? (
			<Message title="This item is not here">It may have been removed, or it is not shared with you.</Message>
		) : (
			<Message title="This item could not be loaded">{detail.error.message}</Message>
		)
	}
	const { page, row, blocks } = detail.data
	const properties = page.properties.filter(
		(property) => property.type !== 'title' && !isEmptyCell(row.cells[property.id]),
	)
	return (
		<article className="mx-auto max-w-3xl space-y-6">
			<nav aria-label="Breadcrumb" className="text-sm">
				<Link href={portalHref(basePath, page.id)} className={linkClasses}>
					← {page.title}
				</Link>
			</nav>
			<h1 className="text-3xl font-semibold break-words">{row.title || 'Untitled'}</h1>
			{properties.length > 0 ? (
				<dl className={`${cardClasses} grid gap-x-6 gap-y-3 p-4 text-sm sm:grid-cols-[minmax(8rem,auto)_1fr]`}>
					{properties.map((property) => (
						<div key={property.id} className="contents">
							<dt className="text-muted-foreground">{property.name}</dt>
							<dd className="min-w-0">
								<Cell cell={row.cells[property.id]} basePath={basePath} />
							</dd>
						</div>
					))}
				</dl>
			) : null}
			{blocks && blocks.length > 0 ? <Blocks blocks={blocks} /> : null}
		</article>
	)
}
