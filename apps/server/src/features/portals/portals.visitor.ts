import {
	type PortalBlock,
	type PortalMe,
	type PortalRowDetail,
	portalBlockSchema,
} from '@blocksmith/contracts/portals.ts'
import { and, eq } from 'drizzle-orm'
import { z } from 'zod'
import { readRowContent } from '#src/workspaces/workspaces.content.ts'
import { workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { toPortalRows } from './portals.cells.ts'
import { portalCharts } from './portals.charts.ts'
import { contentFileLink } from './portals.files.ts'
import { portalForms } from './portals.forms.ts'
import { portalLastSyncedAt } from './portals.freshness.ts'
import { type PortalReader, readerLastSyncedAt, readGrantedRow } from './portals.reader.ts'
import { pageSummary } from './portals.rows.ts'

// What a signed-in member reads besides a page's rows: who they are and what they can open, and
// one row with its page content.

async function companyName(reader: PortalReader): Promise<string | null> {
	const { companyRowId } = reader.member
	const databaseId = reader.portal.access.companiesDatabaseId
	if (!companyRowId || !databaseId) {
		return null
	}
	const [row] = await reader.deps.db
		.select({ title: workspaceRows.title })
		.from(workspaceRows)
		.where(
			and(
				eq(workspaceRows.organizationId, reader.portal.organizationId),
				eq(workspaceRows.databaseId, databaseId),
				eq(workspaceRows.externalId, companyRowId),
			),
		)
		.limit(1)
	return row?.title ?? null
}

export async function portalMe(reader: PortalReader): Promise<PortalMe> {
	const { member } = reader
	return {
		member: {
			id: member.memberId,
			email: member.email,
			name: member.name,
			companyName: await companyName(reader),
			hasPassword: member.hasPassword,
		},
		pages: [...reader.pages.values()].map(({ page }) => ({ id: page.id, title: page.title, view: page.view })),
		forms: await portalForms(reader.deps, reader.portal),
		charts: await portalCharts(reader),
		hasInvoices: reader.portal.showInvoices && reader.portal.access.companiesDatabaseId !== null,
		lastSyncedAt: (await portalLastSyncedAt(reader.deps, reader.portal))?.toISOString() ?? null,
	}
}

/**
 * Mirrored blocks as a member receives them: a file Notion hosts gets a portal link (signed, for
 * an <img>; it checks the row's grant and redirects to a fresh URL), never Notion's signed URL,
 * which the mirror keeps apart (`readRowContent` leaves it out); any other URL must be http(s).
 */
export function portalBlocks(blocks: PortalBlock[], link: (blockId: string) => string, depth = 0): PortalBlock[] {
	if (depth > 8) {
		return []
	}
	return blocks.map((block) => {
		const out: PortalBlock = { ...block }
		if (block.fileRef) {
			out.url = link(block.fileRef.blockId)
		} else if ('url' in block) {
			out.url = typeof block.url === 'string' && /^https?:\/\//i.test(block.url) ? block.url : null
		}
		if (block.children) {
			out.children = portalBlocks(block.children, link, depth + 1)
		}
		return out
	})
}

export async function portalRowDetail(reader: PortalReader, pageId: string, rowId: string): Promise<PortalRowDetail> {
	const { page, row } = await readGrantedRow(reader, pageId, rowId)
	const [portalRow] = await toPortalRows(reader, page, [row])
	let blocks: PortalBlock[] | null = null
	if (page.tool === 'notion' && page.page.showContent) {
		const content = await readRowContent(reader.deps.db, reader.portal.organizationId, row.id)
		if (content) {
			const link = (blockId: string) =>
				contentFileLink(reader.deps, reader.portal, reader.member.memberId, {
					pageId: page.page.id,
					rowId: row.externalId,
					blockId,
				})
			// The contract's shape only: whatever else the mirror keeps stays here.
			const parsed = z.array(portalBlockSchema).safeParse(portalBlocks(content.blocks, link))
			blocks = parsed.success ? parsed.data : null
		}
	}
	return {
		page: await pageSummary(reader, page),
		row: portalRow as PortalRowDetail['row'],
		blocks,
		lastSyncedAt: readerLastSyncedAt(reader, [page]),
	}
}
