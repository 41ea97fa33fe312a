import { randomUUID } from 'node:crypto'
import { notFound, validationError } from './errors.ts'
import { isRecord, type JsonObject, richTextFromRequest } from './rich-text.ts'
import type { DemoWorkspace } from './seed.ts'
import { type FakeNotionStore, iso } from './store.ts'

// Page content for the fake: block trees under pages, served as Notion serves them
// (`GET /v1/blocks/:id/children` in pages of at most 100 with `has_more`/`next_cursor`, and
// `GET /v1/blocks/:id`). Content is given in Notion's request shape (`{ type, [type]: {…}, children }`,
// rich text as `rich_text: [{ text: { content, link } }]` or mentions); files either `external`
// or hosted by the fake (`{ type: 'file', file: { name, content } }`), whose URLs are signed for an
// hour from each read, as Notion's are.

/** How long a hosted file's URL works after the read that handed it out. */
const FILE_URL_LIFETIME_MS = 3_600_000
const FILE_TYPES = new Set(['image', 'file', 'pdf', 'video', 'audio'])
/** Rich text of a block's own object, turned into the response shape. */
const RICH_TEXT_KEYS = ['rich_text', 'caption']
const TEXT_TYPES = new Set([
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

/** What Notion always sends in a type's object, where a test leaves it out. */
function defaultsOf(type: string): JsonObject {
	const defaults: JsonObject = TEXT_TYPES.has(type) ? { rich_text: [], color: 'default' } : {}
	if (type.startsWith('heading_')) {
		defaults.is_toggleable = false
	}
	if (type === 'to_do') {
		defaults.checked = false
	}
	if (type === 'callout' || type === 'paragraph') {
		defaults.icon = null
	}
	if (type === 'code') {
		Object.assign(defaults, { rich_text: [], caption: [], language: 'plain text' })
	}
	if (type === 'bookmark' || type === 'embed' || FILE_TYPES.has(type)) {
		defaults.caption = []
	}
	if (type === 'synced_block') {
		defaults.synced_from = null
	}
	if (type === 'table') {
		Object.assign(defaults, { table_width: 1, has_column_header: false, has_row_header: false })
	}
	return defaults
}

export type BlockInput = JsonObject & { type: string; children?: BlockInput[] }

type FakeBlock = {
	id: string
	type: string
	/** The type's object in the response shape, files aside (rendered per read). */
	content: JsonObject
	parent: { type: 'page_id'; page_id: string } | { type: 'block_id'; block_id: string }
	createdTime: number
	lastEditedTime: number
	/** A hosted file: its upload in the store, signed again at each read. */
	uploadId: string | null
	inTrash: boolean
}

export class FakeBlockStore {
	private readonly blocks = new Map<string, FakeBlock>()
	/** Children in order, by page or block id. */
	private readonly children = new Map<string, string[]>()

	private readonly store: FakeNotionStore

	constructor(store: FakeNotionStore) {
		this.store = store
	}

	/**
	 * Replaces a page's content. With `touch` (the default) the page's `last_edited_time` moves, as
	 * an edit of its content in Notion moves it.
	 */
	setPageContent(pageId: string, blocks: BlockInput[], options: { touch?: boolean } = {}): void {
		const page = this.store.getPage(pageId)
		this.remove(pageId)
		const time = this.store.timestamp()
		this.children.set(
			pageId,
			blocks.map((block, index) => this.add(block, { type: 'page_id', page_id: pageId }, time, `children[${index}]`)),
		)
		if (options.touch ?? true) {
			page.lastEditedTime = Math.max(time, page.createdTime)
		}
	}

	/** The ids of the children of a page or block, in order; 404 as Notion answers for an unknown one. */
	childIds(parentId: string): string[] {
		const block = this.blocks.get(parentId)
		if (block?.inTrash === false) {
			return this.children.get(parentId) ?? []
		}
		const page = this.store.pages.get(parentId)
		if (!page) {
			throw notFound('block', parentId)
		}
		return this.children.get(parentId) ?? []
	}

	get(id: string): FakeBlock {
		const block = this.blocks.get(id)
		if (!block) {
			throw notFound('block', id)
		}
		return block
	}

	/** The block object as Notion returns it; a hosted file's URL is signed for an hour from now. */
	render(block: FakeBlock): JsonObject {
		let content = block.content
		if (block.uploadId) {
			const upload = this.store.fileUploads.get(block.uploadId)
			const expiresAt = this.store.options.now() + FILE_URL_LIFETIME_MS
			content = {
				...content,
				type: 'file',
				file: { url: upload ? this.store.fileUrl(upload, expiresAt) : '', expiry_time: iso(expiresAt) },
			}
		}
		const bot = { object: 'user', id: this.store.options.botId }
		return {
			object: 'block',
			id: block.id,
			parent: block.parent,
			created_time: iso(block.createdTime),
			last_edited_time: iso(block.lastEditedTime),
			created_by: bot,
			last_edited_by: bot,
			has_children: (this.children.get(block.id)?.length ?? 0) > 0,
			in_trash: block.inTrash,
			archived: block.inTrash,
			type: block.type,
			[block.type]: content,
		}
	}

	private remove(parentId: string): void {
		for (const id of this.children.get(parentId) ?? []) {
			this.remove(id)
			this.blocks.delete(id)
		}
		this.children.delete(parentId)
	}

	private add(input: BlockInput, parent: FakeBlock['parent'], time: number, path: string): string {
		if (!isRecord(input) || typeof input.type !== 'string') {
			throw validationError(`body failed validation: ${path}.type should be a string.`)
		}
		const raw = { ...defaultsOf(input.type), ...(isRecord(input[input.type]) ? (input[input.type] as JsonObject) : {}) }
		const content: JsonObject = { ...raw }
		for (const key of RICH_TEXT_KEYS) {
			if (key in raw) {
				content[key] = richTextFromRequest(`${path}.${input.type}.${key}`, raw[key], this.store.mentions)
			}
		}
		if (input.type === 'table_row' && Array.isArray(raw.cells)) {
			content.cells = raw.cells.map((cell, index) =>
				richTextFromRequest(`${path}.table_row.cells[${index}]`, cell, this.store.mentions),
			)
		}
		let uploadId: string | null = null
		if (FILE_TYPES.has(input.type)) {
			// Only a `file` block carries a name (of the upload, or the link's last segment).
			let name: unknown = raw.name
			if (isRecord(raw.file) && typeof raw.file.content === 'string') {
				name = name ?? raw.file.name
				uploadId = this.host(String(raw.file.name ?? 'file'), raw.file.content, time)
				delete content.file
			} else if (isRecord(raw.external)) {
				content.type = 'external'
				name = name ?? String(raw.external.url).split('/').at(-1)
			}
			delete content.name
			if (input.type === 'file') {
				content.name = typeof name === 'string' ? name : 'file'
			}
		}
		const id = randomUUID()
		this.blocks.set(id, {
			id,
			type: input.type,
			content,
			parent,
			createdTime: time,
			lastEditedTime: time,
			uploadId,
			inTrash: false,
		})
		const children = input.children ?? []
		this.children.set(
			id,
			children.map((child, index) =>
				this.add(child, { type: 'block_id', block_id: id }, time, `${path}.children[${index}]`),
			),
		)
		return id
	}

	/** A file the fake hosts, as an upload already sent (served at /__files through signed URLs). */
	private host(name: string, content: string, time: number): string {
		const id = randomUUID()
		const data = new TextEncoder().encode(content)
		this.store.fileUploads.set(id, {
			id,
			createdTime: time,
			lastEditedTime: time,
			status: 'uploaded',
			filename: name,
			contentType: name.endsWith('.png') ? 'image/png' : 'application/octet-stream',
			contentLength: data.byteLength,
			data,
			expiryTime: time + FILE_URL_LIFETIME_MS,
		})
		return id
	}
}

const text = (content: string, link?: string) => ({ text: { content, link: link ? { url: link } : null } })

/** Content on the first project's page: what a row page in a real workspace carries. */
export function seedPageContent(blocks: FakeBlockStore, demo: DemoWorkspace): void {
	const [project] = demo.pages.projects
	if (!project) {
		return
	}
	blocks.setPageContent(
		project,
		[
			{ type: 'heading_1', heading_1: { rich_text: [text('Project brief')] } },
			{
				type: 'paragraph',
				paragraph: {
					rich_text: [
						text('Scope agreed on '),
						{ mention: { date: { start: '2026-01-12' } } },
						text('; see '),
						text('the shared folder', 'https://example.com/folder'),
						text('.'),
					],
				},
			},
			{ type: 'to_do', to_do: { rich_text: [text('Kick-off call')], checked: true } },
			{ type: 'to_do', to_do: { rich_text: [text('First draft')], checked: false } },
			{
				type: 'callout',
				callout: { rich_text: [text('Invoices go out monthly.')], icon: { type: 'emoji', emoji: '💡' } },
			},
			{
				type: 'toggle',
				toggle: { rich_text: [text('Details')] },
				children: [{ type: 'bulleted_list_item', bulleted_list_item: { rich_text: [text('Two review rounds')] } }],
			},
			{ type: 'divider', divider: {} },
			{ type: 'image', image: { file: { name: 'moodboard.png', content: 'png bytes' }, caption: [text('Moodboard')] } },
		],
		{ touch: false },
	)
}
