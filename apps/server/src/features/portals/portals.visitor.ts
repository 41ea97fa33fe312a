import type { PortalBlock, PortalMe, PortalRowDetail } from '@blocksmith/contracts/portals.ts'
import { and, eq } from 'drizzle-orm'
import { workspaceRowContent, workspaceRows } from '#src/workspaces/workspaces.schema.ts'
import { toPortalRows } from './portals.cells.ts'
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
		// Forms, charts and invoices in the portal come with the next piece of work (issue 18 item 5).
		forms: [],
		charts: [],
		hasInvoices: false,
		lastSyncedAt: readerLastSyncedAt(reader),
	}
}

const maxDepth = 8

function safeHref(href: unknown): string | null {
	return typeof href === 'string' && /^(https?:|mailto:)/i.test(href) ? href : null
}

/**
 * Mirrored blocks reduced to the contract's shape, keeping only what is known to be safe to send:
 * links to the web (not Notion's own page links), and as a file or image URL only one of this
 * portal's own links (never Notion's signed URL).
 */
export function safeBlocks(blocks: unknown, portalPrefix: string, depth = 0): PortalBlock[] {
	if (!Array.isArray(blocks) || depth > maxDepth) {
		return []
	}
	return blocks.flatMap((raw): PortalBlock[] => {
		if (!raw || typeof raw !== 'object' || typeof (raw as { type?: unknown }).type !== 'string') {
			return []
		}
		const block = raw as Record<string, unknown>
		const out: PortalBlock = { type: String(block.type).slice(0, 60) }
		if (Array.isArray(block.text)) {
			out.text = block.text.flatMap((run) => {
				if (!run || typeof run !== 'object' || typeof (run as { text?: unknown }).text !== 'string') {
					return []
				}
				const r = run as Record<string, unknown>
				return [
					{
						text: r.text as string,
						href: safeHref(r.href),
						...(r.bold === true ? { bold: true } : {}),
						...(r.italic === true ? { italic: true } : {}),
						...(r.code === true ? { code: true } : {}),
					},
				]
			})
		}
		if (typeof block.checked === 'boolean') {
			out.checked = block.checked
		}
		if (typeof block.language === 'string') {
			out.language = block.language
		}
		if (typeof block.url === 'string' || block.url === null) {
			out.url = typeof block.url === 'string' && block.url.startsWith(portalPrefix) ? block.url : null
		}
		if (typeof block.caption === 'string') {
			out.caption = block.caption
		}
		if (Array.isArray(block.children)) {
			out.children = safeBlocks(block.children, portalPrefix, depth + 1)
		}
		return [out]
	})
}

export async function portalRowDetail(reader: PortalReader, pageId: string, rowId: string): Promise<PortalRowDetail> {
	const { page, row } = await readGrantedRow(reader, pageId, rowId)
	const [portalRow] = await toPortalRows(reader, page, [row])
	let blocks: PortalBlock[] | null = null
	if (page.tool === 'notion' && page.page.showContent) {
		const [content] = await reader.deps.db
			.select({ blocks: workspaceRowContent.blocks })
			.from(workspaceRowContent)
			.where(
				and(
					eq(workspaceRowContent.rowId, row.id),
					eq(workspaceRowContent.organizationId, reader.portal.organizationId),
				),
			)
		blocks = content ? safeBlocks(content.blocks, `/api/portal/${reader.portal.slug}/`) : null
	}
	return {
		page: pageSummary(page),
		row: portalRow as PortalRowDetail['row'],
		blocks,
		lastSyncedAt: readerLastSyncedAt(reader, [page]),
	}
}
