import type { ListBlockChildrenResponse, RichTextItemResponse } from '@notionhq/client'
import { describe, expect, it } from 'vitest'
import {
	contentLimits,
	hostedFileOf,
	type NotionBlockTree,
	readBlockTree,
	safeHref,
	toContentBlocks,
	toRuns,
} from './notion.content.ts'

// Notion blocks as the API returns them → the portal's read-only blocks; the walk's limits.

const marks = { bold: false, italic: false, strikethrough: false, underline: false, code: false, color: 'default' }

function text(content: string, options: { href?: string; bold?: boolean; code?: boolean } = {}): RichTextItemResponse {
	const href = options.href ?? null
	return {
		type: 'text',
		text: { content, link: href ? { url: href } : null },
		annotations: { ...marks, bold: options.bold ?? false, code: options.code ?? false },
		plain_text: content,
		href,
	} as RichTextItemResponse
}

let nextId = 0
/** A block in the response shape: `content` is the type's own object. */
function block(type: string, content: Record<string, unknown> = {}, children?: NotionBlockTree[]): NotionBlockTree {
	nextId++
	return {
		object: 'block',
		id: `block-${nextId}`,
		type,
		[type]: content,
		has_children: (children?.length ?? 0) > 0,
		in_trash: false,
		archived: false,
		...(children ? { children } : {}),
	} as unknown as NotionBlockTree
}

const rich = (value: string) => ({ rich_text: [text(value)], color: 'default' })

describe('mapping each block type', () => {
	it('keeps text blocks with their type, runs and nested children', () => {
		const blocks = toContentBlocks([
			block('heading_1', rich('Brief')),
			block('heading_2', rich('Scope')),
			block('heading_3', rich('Details')),
			block('paragraph', { rich_text: [text('Plain '), text('bold', { bold: true }), text('x()', { code: true })] }),
			block('bulleted_list_item', rich('One'), [block('numbered_list_item', rich('Nested'))]),
			block('quote', rich('Said')),
			block('toggle', rich('More'), [block('paragraph', rich('Inside'))]),
		])
		expect(blocks).toEqual([
			{ type: 'heading_1', text: [{ text: 'Brief' }] },
			{ type: 'heading_2', text: [{ text: 'Scope' }] },
			{ type: 'heading_3', text: [{ text: 'Details' }] },
			{ type: 'paragraph', text: [{ text: 'Plain ' }, { text: 'bold', bold: true }, { text: 'x()', code: true }] },
			{
				type: 'bulleted_list_item',
				text: [{ text: 'One' }],
				children: [{ type: 'numbered_list_item', text: [{ text: 'Nested' }] }],
			},
			{ type: 'quote', text: [{ text: 'Said' }] },
			{ type: 'toggle', text: [{ text: 'More' }], children: [{ type: 'paragraph', text: [{ text: 'Inside' }] }] },
		])
	})

	it('to-dos keep checked, callouts their emoji, code its language and caption, equations their expression', () => {
		const blocks = toContentBlocks([
			block('to_do', { ...rich('Done'), checked: true }),
			block('to_do', { ...rich('Open'), checked: false }),
			block('callout', { ...rich('Note'), icon: { type: 'emoji', emoji: '💡' } }),
			block('callout', { ...rich('No emoji'), icon: { type: 'external', external: { url: 'https://x.test/i.png' } } }),
			block('code', { rich_text: [text('let a = 1')], caption: [text('setup')], language: 'typescript' }),
			block('equation', { expression: 'e=mc^2' }),
			block('divider'),
		])
		expect(blocks).toEqual([
			{ type: 'to_do', text: [{ text: 'Done' }], checked: true },
			{ type: 'to_do', text: [{ text: 'Open' }], checked: false },
			{ type: 'callout', text: [{ text: 'Note' }], icon: '💡' },
			{ type: 'callout', text: [{ text: 'No emoji' }] },
			{ type: 'code', text: [{ text: 'let a = 1' }], language: 'typescript', caption: 'setup' },
			{ type: 'equation', text: [{ text: 'e=mc^2', code: true }] },
			{ type: 'divider' },
		])
	})

	it('files: hosted ones by reference with their URL kept aside, external ones by their URL, unsafe URLs dropped', () => {
		const hosted = block('image', {
			type: 'file',
			file: { url: 'https://s3.test/signed?X-Amz=1', expiry_time: '2026-11-26T18:00:00.000Z' },
			caption: [text('Moodboard')],
		})
		const blocks = toContentBlocks([
			hosted,
			block('file', { type: 'external', external: { url: 'https://files.test/a.pdf' }, caption: [], name: 'a.pdf' }),
			block('video', { type: 'external', external: { url: 'javascript:alert(1)' }, caption: [] }),
			block('pdf', {
				type: 'file',
				file: { url: 'https://s3.test/b', expiry_time: '2026-11-26T18:00:00.000Z' },
				caption: [],
			}),
			block('bookmark', { url: 'https://example.com/article', caption: [text('Read this')] }),
			block('embed', { url: 'data:text/html,<script>', caption: [] }),
			block('link_preview', { url: 'https://github.com/x/y/pull/1' }),
		])
		expect(blocks).toEqual([
			{
				type: 'image',
				url: null,
				fileRef: { blockId: hosted.id },
				hosted: { url: 'https://s3.test/signed?X-Amz=1', expiresAt: '2026-11-26T18:00:00.000Z' },
				caption: 'Moodboard',
			},
			{ type: 'file', url: 'https://files.test/a.pdf', name: 'a.pdf' },
			{ type: 'video', url: null },
			expect.objectContaining({ type: 'pdf', url: null, fileRef: { blockId: expect.any(String) } }),
			{ type: 'bookmark', url: 'https://example.com/article', caption: 'Read this' },
			{ type: 'embed', url: null },
			{ type: 'bookmark', url: 'https://github.com/x/y/pull/1' },
		])
		expect(hostedFileOf(hosted)).toEqual({
			url: 'https://s3.test/signed?X-Amz=1',
			expiresAt: '2026-11-26T18:00:00.000Z',
		})
		expect(hostedFileOf(block('paragraph', rich('x')))).toBeNull()
	})

	it('child pages and databases are a title only (their content is never read); columns and synced blocks are flattened', () => {
		const blocks = toContentBlocks([
			block('child_page', { title: 'Meeting notes' }),
			block('child_database', { title: 'Tasks' }),
			block('column_list', {}, [
				block('column', {}, [block('paragraph', rich('Left'))]),
				block('column', {}, [block('paragraph', rich('Right'))]),
			]),
			block('synced_block', { synced_from: null }, [block('paragraph', rich('Synced'))]),
		])
		expect(blocks).toEqual([
			{ type: 'child_page', text: [{ text: 'Meeting notes' }] },
			{ type: 'child_database', text: [{ text: 'Tasks' }] },
			{ type: 'paragraph', text: [{ text: 'Left' }] },
			{ type: 'paragraph', text: [{ text: 'Right' }] },
			{ type: 'paragraph', text: [{ text: 'Synced' }] },
		])
	})

	it('tables keep their header flags and rows of cells', () => {
		const blocks = toContentBlocks([
			block('table', { table_width: 2, has_column_header: true, has_row_header: false }, [
				block('table_row', { cells: [[text('Item')], [text('Price')]] }),
				block('table_row', { cells: [[text('Design')], [text('1200', { bold: true })]] }),
			]),
		])
		expect(blocks).toEqual([
			{
				type: 'table',
				hasColumnHeader: true,
				hasRowHeader: false,
				children: [
					{ type: 'table_row', cells: [[{ text: 'Item' }], [{ text: 'Price' }]] },
					{ type: 'table_row', cells: [[{ text: 'Design' }], [{ text: '1200', bold: true }]] },
				],
			},
		])
	})

	it('unknown and unsupported types become `unsupported`, without their children', () => {
		const blocks = toContentBlocks([
			block('breadcrumb'),
			block('table_of_contents', { color: 'default' }),
			block('link_to_page', { type: 'page_id', page_id: 'p-1' }),
			block('some_future_block', { anything: 1 }, [block('paragraph', rich('hidden'))]),
		])
		expect(blocks).toEqual([
			{ type: 'unsupported' },
			{ type: 'unsupported' },
			{ type: 'unsupported' },
			{ type: 'unsupported' },
		])
	})
})

describe('rich text', () => {
	it('keeps http(s) and mailto links, drops javascript:, data:, relative and Notion links', () => {
		expect(safeHref('https://example.com/a?b=1')).toBe('https://example.com/a?b=1')
		expect(safeHref('http://example.com')).toBe('http://example.com/')
		expect(safeHref('mailto:ada@example.com')).toBe('mailto:ada@example.com')
		expect(safeHref('javascript:alert(document.cookie)')).toBeNull()
		expect(safeHref(' JavaScript:alert(1)')).toBeNull()
		expect(safeHref('data:text/html;base64,PHNjcmlwdD4=')).toBeNull()
		expect(safeHref('vbscript:msgbox')).toBeNull()
		expect(safeHref('/0c5a2b1e9f8d4c3b')).toBeNull()
		expect(safeHref('https://www.notion.so/Secret-0c5a2b1e')).toBeNull()
		expect(safeHref('https://notion.so/x')).toBeNull()
		expect(safeHref(null)).toBeNull()
		const runs = toRuns(
			[text('site', { href: 'https://example.com' }), text('evil', { href: 'javascript:alert(1)' })],
			contentLimits.maxTextChars,
		)
		expect(runs).toEqual([{ text: 'site', href: 'https://example.com/' }, { text: 'evil' }])
	})

	it('mentions are their plain text only: a page mention gives its title, never a link out', () => {
		const pageMention = {
			type: 'mention',
			mention: { type: 'page', page: { id: 'p-1' } },
			annotations: marks,
			plain_text: 'Secret roadmap',
			href: 'https://www.notion.so/p1',
		} as RichTextItemResponse
		const linkMention = {
			type: 'mention',
			mention: { type: 'link_preview', link_preview: { url: 'https://example.com' } },
			annotations: marks,
			plain_text: 'https://example.com',
			href: 'https://example.com',
		} as RichTextItemResponse
		const userMention = {
			type: 'mention',
			mention: { type: 'user', user: { object: 'user', id: 'u-1' } },
			annotations: { ...marks, italic: true },
			plain_text: '@Ada',
			href: null,
		} as RichTextItemResponse
		expect(toRuns([pageMention, linkMention, userMention], 100)).toEqual([
			{ text: 'Secret roadmap' },
			{ text: 'https://example.com' },
			{ text: '@Ada', italic: true },
		])
	})
})

describe('limits', () => {
	it('a block keeps at most maxTextChars characters of text, cut with an ellipsis', () => {
		const long = 'x'.repeat(contentLimits.maxTextChars + 500)
		const [paragraph] = toContentBlocks([block('paragraph', { rich_text: [text('ab'), text(long), text('gone')] })])
		const kept = (paragraph?.text ?? []).map((run) => run.text).join('')
		expect(kept).toHaveLength(contentLimits.maxTextChars)
		expect(kept.endsWith('…')).toBe(true)
		expect(paragraph?.text).toHaveLength(2)
		const [cellRow] = toContentBlocks([block('table_row', { cells: [[text('y'.repeat(5000))]] })])
		expect(cellRow?.cells?.[0]?.[0]?.text).toHaveLength(contentLimits.maxCellChars)
	})

	/** A fake listing: `tree` by parent id, served `pageSize` at a time; records the parents read. */
	function lister(tree: Map<string, NotionBlockTree[]>, pageSize = 100) {
		const calls: string[] = []
		const list = async (blockId: string, cursor: string | undefined): Promise<ListBlockChildrenResponse> => {
			calls.push(blockId)
			const all = tree.get(blockId) ?? []
			const start = cursor ? Number(cursor) : 0
			const results = all.slice(start, start + pageSize).map(({ children: _, ...rest }) => rest)
			const more = start + pageSize < all.length
			return {
				object: 'list',
				type: 'block',
				block: {},
				results,
				has_more: more,
				next_cursor: more ? String(start + pageSize) : null,
			} as ListBlockChildrenResponse
		}
		return { list, calls }
	}

	function nestedToggles(levels: number): Map<string, NotionBlockTree[]> {
		const tree = new Map<string, NotionBlockTree[]>()
		let parent = 'page'
		for (let level = 0; level < levels; level++) {
			const toggle = block('toggle', rich(`Level ${level}`))
			;(toggle as { has_children: boolean }).has_children = level < levels - 1
			tree.set(parent, [toggle])
			parent = toggle.id
		}
		return tree
	}

	it('reads children only down to maxDepth levels', async () => {
		const { list, calls } = lister(nestedToggles(6))
		const { blocks, truncated } = await readBlockTree('page', list)
		expect(truncated).toBe(false)
		// The page, then two levels of children: three levels of blocks, three listings.
		expect(calls).toHaveLength(contentLimits.maxDepth)
		const mapped = toContentBlocks(blocks)
		expect(mapped[0]?.children?.[0]?.children?.[0]).toEqual({ type: 'toggle', text: [{ text: 'Level 2' }] })
	})

	it('columns do not use up depth; child pages and templates are never opened', async () => {
		const tree = new Map<string, NotionBlockTree[]>()
		const columns = block('column_list')
		const column = block('column')
		const toggle = block('toggle', rich('In a column'))
		const child = block('child_page', { title: 'Sub' })
		const template = block('template', { rich_text: [] })
		for (const parent of [columns, column, toggle, child, template]) {
			;(parent as { has_children: boolean }).has_children = true
		}
		tree.set('page', [columns, child, template])
		tree.set(columns.id, [column])
		tree.set(column.id, [toggle])
		tree.set(toggle.id, [block('paragraph', rich('Deep in a column'))])
		tree.set(child.id, [block('paragraph', rich('Another page'))])
		tree.set(template.id, [block('paragraph', rich('Template content'))])
		const { list, calls } = lister(tree)
		const { blocks } = await readBlockTree('page', list)
		expect(calls).not.toContain(child.id)
		expect(calls).not.toContain(template.id)
		expect(toContentBlocks(blocks)).toEqual([
			{
				type: 'toggle',
				text: [{ text: 'In a column' }],
				children: [{ type: 'paragraph', text: [{ text: 'Deep in a column' }] }],
			},
			{ type: 'child_page', text: [{ text: 'Sub' }] },
			{ type: 'unsupported' },
		])
	})

	it('stops at maxRequests listings (a page of many small toggles) and says the content is truncated', async () => {
		const tree = new Map<string, NotionBlockTree[]>()
		const toggles = Array.from({ length: 30 }, (_, index) => {
			const toggle = block('toggle', rich(`T${index}`))
			;(toggle as { has_children: boolean }).has_children = true
			tree.set(toggle.id, [block('paragraph', rich(`Inside ${index}`))])
			return toggle
		})
		tree.set('page', toggles)
		const { list, calls } = lister(tree)
		const { blocks, truncated } = await readBlockTree('page', list, { ...contentLimits, maxRequests: 10 })
		expect(calls).toHaveLength(10)
		expect(truncated).toBe(true)
		const mapped = toContentBlocks(blocks, { truncated })
		expect(mapped.filter((item) => item.children)).toHaveLength(9)
		expect(mapped.at(-1)).toEqual({ type: 'truncated' })
		expect(contentLimits.maxRequests).toBe(100)
	})

	it('stops at maxBlocks, across pages of children, and says the content is truncated', async () => {
		const tree = new Map<string, NotionBlockTree[]>([
			['page', Array.from({ length: 250 }, (_, index) => block('paragraph', rich(`P${index}`)))],
		])
		const { list, calls } = lister(tree)
		const limits = { ...contentLimits, maxBlocks: 120 }
		const { blocks, truncated } = await readBlockTree('page', list, limits)
		expect(truncated).toBe(true)
		expect(blocks).toHaveLength(120)
		expect(calls).toHaveLength(2)
		const mapped = toContentBlocks(blocks, { truncated })
		expect(mapped).toHaveLength(121)
		expect(mapped.at(-1)).toEqual({ type: 'truncated' })

		const all = await readBlockTree('page', lister(tree).list)
		expect(all.truncated).toBe(false)
		expect(all.blocks).toHaveLength(250)
		expect(contentLimits.maxBlocks).toBe(1000)
	})
})
