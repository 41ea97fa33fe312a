import { APIResponseError, isFullBlock } from '@notionhq/client'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { createFakeNotion } from '#src/test/fake-notion/fake-notion.ts'
import { createNotionClient, createNotionConnector } from './notion.connector.ts'
import { createNotionQueue } from './notion.queue.ts'

// Page content through the official SDK against the fake Notion: the block endpoints in Notion's
// wire format, and the connector's walk keeping to Notion's 3 requests a second.

let fake: Awaited<ReturnType<typeof createFakeNotion>>
let demo: ReturnType<typeof fake.seed>

beforeAll(async () => {
	fake = await createFakeNotion()
	demo = fake.seed()
})
afterAll(async () => {
	await fake?.close()
})

function connector(requestsPerSecond: number) {
	return createNotionConnector({
		client: createNotionClient({ token: fake.token, baseUrl: fake.url, timeoutMs: 10_000 }),
		queue: createNotionQueue({ requestsPerSecond, burst: 3 }),
		workspaceKey: fake.workspace.id,
		readBlob: async () => null,
	})
}

const paragraph = (content: string) => ({ type: 'paragraph', paragraph: { rich_text: [{ text: { content } }] } })

describe('the fake Notion block endpoints', () => {
	test('children come in pages of at most 100 with has_more and next_cursor; unknown ids are 404; page_size over 100 is refused', async () => {
		const page = demo.pages.projects[6] ?? ''
		fake.setPageContent(page, [
			...Array.from({ length: 150 }, (_, index) => paragraph(`Line ${index + 1}`)),
			{ type: 'image', image: { file: { name: 'a.png', content: 'png' } } },
		])
		const notion = createNotionClient({ token: fake.token, baseUrl: fake.url })
		const first = await notion.blocks.children.list({ block_id: page })
		expect(first).toMatchObject({ object: 'list', type: 'block', block: {}, has_more: true })
		expect(first.results).toHaveLength(100)
		expect(typeof first.next_cursor).toBe('string')
		const second = await notion.blocks.children.list({ block_id: page, start_cursor: first.next_cursor ?? '' })
		expect(second.results).toHaveLength(51)
		expect(second).toMatchObject({ has_more: false, next_cursor: null })
		const [one] = first.results
		expect(one && isFullBlock(one) && one.type === 'paragraph' ? one.paragraph.rich_text[0]?.plain_text : null).toBe(
			'Line 1',
		)
		const image = second.results.at(-1)
		expect(image).toMatchObject({ object: 'block', type: 'image', has_children: false, parent: { page_id: page } })
		const retrieved = await notion.blocks.retrieve({ block_id: image?.id ?? '' })
		expect(retrieved).toMatchObject({ image: { type: 'file', file: { url: expect.stringMatching(/^http/) } } })

		const missing = await notion.blocks.children.list({ block_id: 'no-such-block' }).catch((error: unknown) => error)
		expect(missing).toBeInstanceOf(APIResponseError)
		expect((missing as APIResponseError).code).toBe('object_not_found')
		const tooMany = await notion.blocks.children.list({ block_id: page, page_size: 101 }).catch((error) => error)
		expect((tooMany as APIResponseError).code).toBe('validation_error')
	})
})

describe('reading page content through the connector', () => {
	test('the walk goes through the rate queue: nested children read at 3 requests a second', async () => {
		const page = demo.pages.projects[7] ?? ''
		fake.setPageContent(
			page,
			Array.from({ length: 8 }, (_, index) => ({
				type: 'toggle',
				toggle: { rich_text: [{ text: { content: `Toggle ${index + 1}` } }] },
				children: [paragraph(`Inside ${index + 1}`)],
			})),
		)
		fake.resetRequests()
		const startedAt = Date.now()
		const blocks = await connector(3).readPageContent(page)
		const tookMs = Date.now() - startedAt
		expect(blocks).toHaveLength(8)
		expect(blocks?.[7]).toEqual({
			type: 'toggle',
			text: [{ text: 'Toggle 8' }],
			children: [{ type: 'paragraph', text: [{ text: 'Inside 8' }] }],
		})
		// Nine listings (the page, then each toggle): the three of the burst, then a third of a second
		// apiece, so at least two seconds, where unpaced they would take a few milliseconds.
		expect(fake.requestCount('GET', '/v1/blocks/:id/children')).toBe(9)
		expect(tookMs).toBeGreaterThan(1800)
	})

	test('a page that is gone reads as null; a block that is gone or holds no hosted file has no file', async () => {
		const reader = connector(100)
		const page = demo.pages.projects[8] ?? demo.pages.projects[0] ?? ''
		fake.setPageContent(page, [paragraph('Text only')])
		const notion = createNotionClient({ token: fake.token, baseUrl: fake.url })
		const [text] = (await notion.blocks.children.list({ block_id: page })).results
		expect(await reader.readContentFile(text?.id ?? '')).toBeNull()
		expect(await reader.readContentFile('no-such-block')).toBeNull()
		expect(await reader.readPageContent('no-such-page')).toBeNull()
	})
})
