import type { PortalRun } from '@blocksmith/contracts/portals.ts'
import type {
	BlockObjectResponse,
	CalloutBlockObjectResponse,
	ListBlockChildrenResponse,
	RichTextItemResponse,
} from '@notionhq/client'
import { isFullBlock } from '@notionhq/client'
import type { ContentBlock } from '#src/workspaces/connector.ts'

// A Notion page's content, reduced to the read-only blocks a portal draws (contracts
// `PortalBlock`). Two halves: `readBlockTree` walks the page's children through a listing function
// (the connector's, behind the rate queue) within explicit limits, and `toContentBlocks` maps the
// raw tree, purely. Limits exist because the content is mirrored for every row of a shown database:
// one odd page (a thousand nested toggles, a pasted book) must not cost minutes of the workspace's
// 3 requests a second nor megabytes of the mirror.

export const contentLimits = {
	/**
	 * Levels of blocks read: the page's own blocks and two levels below (a toggle's list's items).
	 * Layout blocks (columns, synced blocks, a table's rows) do not count as a level.
	 */
	maxDepth: 3,
	/** Blocks read per page, every level together; past it the content ends with `truncated`. */
	maxBlocks: 1000,
	/**
	 * Listings per page (a page of up to 100 children each): a page of many small toggles costs a
	 * request per toggle, so this bounds one page's share of the workspace's budget (~35 s at 3/s).
	 */
	maxRequests: 100,
	/** Characters of rich text kept per block (and per table cell); the rest is cut with an ellipsis. */
	maxTextChars: 4000,
	maxCellChars: 1000,
	maxCaptionChars: 500,
} as const

type Limits = { [K in keyof typeof contentLimits]: number }

/** A Notion block with the children read for it (none when it has none or a limit stopped the walk). */
export type NotionBlockTree = BlockObjectResponse & { children?: NotionBlockTree[] }

type ListChildren = (blockId: string, cursor: string | undefined) => Promise<ListBlockChildrenResponse>

/** Blocks that only arrange others: they do not count as a level of depth. */
const layoutTypes = new Set(['column_list', 'column', 'synced_block', 'table'])
/**
 * Blocks whose children the portal draws. Others' children are never read: a child page's are
 * another page's content, a template's or an unsupported block's would be dropped anyway.
 */
const parentTypes = new Set([
	...layoutTypes,
	'paragraph',
	'heading_1',
	'heading_2',
	'heading_3',
	'heading_4',
	'bulleted_list_item',
	'numbered_list_item',
	'quote',
	'toggle',
	'to_do',
	'callout',
])

/**
 * The page's blocks with their children, read in Notion's pages of 100, depth first, stopping
 * at `maxBlocks` or `maxRequests` (then `truncated`). Children are read only for blocks above
 * `maxDepth`.
 */
export async function readBlockTree(
	pageId: string,
	list: ListChildren,
	limits: Limits = contentLimits,
): Promise<{ blocks: NotionBlockTree[]; truncated: boolean }> {
	let count = 0
	let requests = 0
	let truncated = false

	async function children(blockId: string, depth: number): Promise<NotionBlockTree[]> {
		const out: NotionBlockTree[] = []
		let cursor: string | undefined
		do {
			if (requests >= limits.maxRequests) {
				truncated = true
				return out
			}
			requests++
			const response = await list(blockId, cursor)
			for (const result of response.results) {
				if (count >= limits.maxBlocks) {
					truncated = true
					return out
				}
				count++
				if (isFullBlock(result) && !result.in_trash) {
					out.push(result)
				}
			}
			cursor = response.has_more ? (response.next_cursor ?? undefined) : undefined
		} while (cursor)
		for (const block of out) {
			if (truncated) {
				break
			}
			if (!block.has_children || !parentTypes.has(block.type)) {
				continue
			}
			const next = layoutTypes.has(block.type) ? depth : depth + 1
			if (next < limits.maxDepth) {
				block.children = await children(block.id, next)
			}
		}
		return out
	}

	const blocks = await children(pageId, 0)
	return { blocks, truncated }
}

/** Only links a visitor can follow safely: http(s) and mailto, never to the team's Notion. */
export function safeHref(href: string | null | undefined): string | null {
	if (!href) {
		return null
	}
	let url: URL
	try {
		url = new URL(href.trim())
	} catch {
		// Relative links are Notion's own page links ("/0c5a…"): they lead into the workspace.
		return null
	}
	if (url.protocol === 'mailto:') {
		return url.href
	}
	if (url.protocol !== 'http:' && url.protocol !== 'https:') {
		return null
	}
	const host = url.hostname.toLowerCase()
	if (host === 'notion.so' || host.endsWith('.notion.so')) {
		return null
	}
	return url.href
}

function cut(text: string, room: number): string {
	return text.length <= room ? text : `${text.slice(0, Math.max(0, room - 1))}…`
}

/** Rich text → runs, at most `maxChars` characters. Mentions are their text only (a page's title, a person's name). */
export function toRuns(items: RichTextItemResponse[], maxChars: number): PortalRun[] {
	const runs: PortalRun[] = []
	let room = maxChars
	for (const item of items) {
		if (room <= 0) {
			break
		}
		const text = cut(item.plain_text, room)
		room -= item.plain_text.length
		if (text === '') {
			continue
		}
		const run: PortalRun = { text }
		const href = item.type === 'text' ? safeHref(item.text.link?.url ?? item.href) : null
		if (href) {
			run.href = href
		}
		const marks = item.annotations
		for (const mark of ['bold', 'italic', 'code', 'strikethrough', 'underline'] as const) {
			if (marks[mark] || (mark === 'code' && item.type === 'equation')) {
				run[mark] = true
			}
		}
		runs.push(run)
	}
	return runs
}

function plain(items: RichTextItemResponse[], maxChars: number): string {
	return cut(items.map((item) => item.plain_text).join(''), maxChars)
}

function emojiOf(icon: CalloutBlockObjectResponse['callout']['icon']): string | undefined {
	return icon?.type === 'emoji' ? icon.emoji : undefined
}

type Media =
	| { type: 'external'; external: { url: string } }
	| { type: 'file'; file: { url: string; expiry_time: string } }

/** A file block: an external http(s) URL as it is, a hosted one by reference (its URL kept aside, never sent). */
function media(
	block: { id: string; type: string },
	value: Media & { caption: RichTextItemResponse[]; name?: string },
	limits: Limits,
): ContentBlock {
	const out: ContentBlock = { type: block.type }
	if (value.type === 'external') {
		out.url = safeHref(value.external.url)
	} else {
		out.url = null
		out.fileRef = { blockId: block.id }
		out.hosted = { url: value.file.url, expiresAt: value.file.expiry_time }
	}
	if (value.name) {
		out.name = cut(value.name, 200)
	}
	const caption = plain(value.caption, limits.maxCaptionChars)
	if (caption) {
		out.caption = caption
	}
	return out
}

function withText(type: string, items: RichTextItemResponse[], limits: Limits): ContentBlock {
	return { type, text: toRuns(items, limits.maxTextChars) }
}

/** One block, without its children. Null for a layout block (its children take its place). */
function toContentBlock(block: NotionBlockTree, limits: Limits): ContentBlock | null {
	switch (block.type) {
		case 'paragraph':
			return withText(block.type, block.paragraph.rich_text, limits)
		case 'heading_1':
			return withText(block.type, block.heading_1.rich_text, limits)
		case 'heading_2':
			return withText(block.type, block.heading_2.rich_text, limits)
		case 'heading_3':
			return withText(block.type, block.heading_3.rich_text, limits)
		case 'heading_4':
			return withText(block.type, block.heading_4.rich_text, limits)
		case 'bulleted_list_item':
			return withText(block.type, block.bulleted_list_item.rich_text, limits)
		case 'numbered_list_item':
			return withText(block.type, block.numbered_list_item.rich_text, limits)
		case 'quote':
			return withText(block.type, block.quote.rich_text, limits)
		case 'toggle':
			return withText(block.type, block.toggle.rich_text, limits)
		case 'to_do':
			return { ...withText(block.type, block.to_do.rich_text, limits), checked: block.to_do.checked }
		case 'callout': {
			const out = withText(block.type, block.callout.rich_text, limits)
			const icon = emojiOf(block.callout.icon)
			return icon ? { ...out, icon } : out
		}
		case 'code': {
			const out: ContentBlock = {
				type: 'code',
				text: toRuns(block.code.rich_text, limits.maxTextChars),
				language: String(block.code.language).slice(0, 40),
			}
			const caption = plain(block.code.caption, limits.maxCaptionChars)
			return caption ? { ...out, caption } : out
		}
		case 'equation':
			return { type: 'equation', text: [{ text: cut(block.equation.expression, limits.maxTextChars), code: true }] }
		case 'divider':
			return { type: 'divider' }
		case 'image':
			return media(block, block.image, limits)
		case 'video':
			return media(block, block.video, limits)
		case 'pdf':
			return media(block, block.pdf, limits)
		case 'audio':
			return media(block, block.audio, limits)
		case 'file':
			return media(block, block.file, limits)
		case 'bookmark':
		case 'embed': {
			const value = block.type === 'bookmark' ? block.bookmark : block.embed
			const out: ContentBlock = { type: block.type, url: safeHref(value.url) }
			const caption = plain(value.caption, limits.maxCaptionChars)
			return caption ? { ...out, caption } : out
		}
		case 'link_preview':
			return { type: 'bookmark', url: safeHref(block.link_preview.url) }
		case 'child_page':
			return { type: 'child_page', text: [{ text: cut(block.child_page.title, 200) }] }
		case 'child_database':
			return { type: 'child_database', text: [{ text: cut(block.child_database.title, 200) }] }
		case 'table':
			return {
				type: 'table',
				hasColumnHeader: block.table.has_column_header,
				hasRowHeader: block.table.has_row_header,
			}
		case 'table_row':
			return { type: 'table_row', cells: block.table_row.cells.map((cell) => toRuns(cell, limits.maxCellChars)) }
		case 'column_list':
		case 'column':
		case 'synced_block':
			return null
		default:
			// Breadcrumbs, tables of contents, templates, meeting notes, links to pages (whose title
			// would need another read) and whatever Notion adds next: skipped by the portal.
			return { type: 'unsupported' }
	}
}

/** The raw tree → the mirror's blocks; `truncated` ends the top level with a `truncated` block. */
export function toContentBlocks(
	tree: NotionBlockTree[],
	options: { truncated?: boolean; limits?: Limits } = {},
): ContentBlock[] {
	const limits = options.limits ?? contentLimits
	const map = (blocks: NotionBlockTree[]): ContentBlock[] =>
		blocks.flatMap((block) => {
			const out = toContentBlock(block, limits)
			const children = block.children && block.children.length > 0 ? map(block.children) : []
			if (out === null) {
				// Columns and synced blocks: their content, in reading order.
				return children
			}
			if (children.length > 0 && out.type !== 'unsupported') {
				out.children = children
			}
			return [out]
		})
	const blocks = map(tree)
	return options.truncated ? [...blocks, { type: 'truncated' }] : blocks
}

/** A hosted file block's current URL, from `blocks.retrieve`; null when it no longer holds a hosted file. */
export function hostedFileOf(block: BlockObjectResponse): { url: string; expiresAt: string } | null {
	const value =
		block.type === 'image'
			? block.image
			: block.type === 'video'
				? block.video
				: block.type === 'pdf'
					? block.pdf
					: block.type === 'audio'
						? block.audio
						: block.type === 'file'
							? block.file
							: null
	if (value?.type !== 'file' || block.in_trash) {
		return null
	}
	return { url: value.file.url, expiresAt: value.file.expiry_time }
}
