import type { PortalBlock } from '@blocksmith/contracts/portals.ts'
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Blocks } from './blocks.tsx'

const text = (value: string, marks: Partial<NonNullable<PortalBlock['text']>[number]> = {}) => [
	{ text: value, ...marks },
]

describe('the read-only blocks of a row page', () => {
	it('draws headings, paragraphs with marks and links, lists, to-dos, quotes, callouts, code, dividers, images, toggles and bookmarks', () => {
		const blocks: PortalBlock[] = [
			{ type: 'heading_1', text: text('Kick-off') },
			{
				type: 'paragraph',
				text: [
					{ text: 'Read ' },
					{ text: 'this', bold: true },
					{ text: ' and ' },
					{ text: 'that', italic: true },
					{ text: ' with ' },
					{ text: 'npm test', code: true },
					{ text: ' at ' },
					{ text: 'the site', href: 'https://example.com/brief' },
				],
			},
			{ type: 'bulleted_list_item', text: text('First') },
			{ type: 'bulleted_list_item', text: text('Second'), children: [{ type: 'paragraph', text: text('Nested') }] },
			{ type: 'numbered_list_item', text: text('Step one') },
			{ type: 'to_do', text: text('Sign contract'), checked: true },
			{ type: 'quote', text: text('Quoted') },
			{ type: 'callout', text: text('Heads up') },
			{ type: 'code', text: text('const a = 1'), language: 'javascript' },
			{ type: 'divider' },
			{ type: 'image', url: '/api/portal/acme/files/img1', caption: 'Moodboard' },
			{ type: 'toggle', text: text('More'), children: [{ type: 'paragraph', text: text('Hidden detail') }] },
			{ type: 'bookmark', url: 'https://example.org/ref', caption: 'Reference' },
			{ type: 'callout', icon: '💡', text: text('Tip') },
			{
				type: 'table',
				hasColumnHeader: true,
				children: [
					{ type: 'table_row', cells: [text('Phase'), text('Weeks')] },
					{ type: 'table_row', cells: [text('Design'), text('3')] },
				],
			},
			{ type: 'paragraph', text: [{ text: 'old', strikethrough: true }] },
			{ type: 'truncated' },
		]
		const { container } = render(<Blocks blocks={blocks} />)
		expect(screen.getByRole('heading', { name: 'Kick-off' })).toBeInTheDocument()
		expect(screen.getByText('this').closest('strong')).not.toBeNull()
		expect(screen.getByText('that').closest('em')).not.toBeNull()
		expect(screen.getByText('npm test').closest('code')).not.toBeNull()
		const link = screen.getByRole('link', { name: 'the site' })
		expect(link).toHaveAttribute('href', 'https://example.com/brief')
		expect(link).toHaveAttribute('target', '_blank')
		expect(link).toHaveAttribute('rel', 'noopener noreferrer')
		// Consecutive items of one kind are one list.
		const bullets = container.querySelectorAll('ul')
		expect(bullets).toHaveLength(1)
		expect(bullets[0]?.querySelectorAll(':scope > li')).toHaveLength(2)
		expect(screen.getByText('Nested')).toBeInTheDocument()
		expect(container.querySelector('ol li')).toHaveTextContent('Step one')
		expect(screen.getByRole('checkbox', { name: 'Sign contract' })).toBeChecked()
		expect(container.querySelector('blockquote')).toHaveTextContent('Quoted')
		expect(container.querySelector('aside')).toHaveTextContent('Heads up')
		expect(container.querySelector('pre code')).toHaveTextContent('const a = 1')
		expect(container.querySelector('hr')).not.toBeNull()
		expect(screen.getByRole('img', { name: 'Moodboard' })).toHaveAttribute('src', '/api/portal/acme/files/img1')
		expect(container.querySelector('details summary')).toHaveTextContent('More')
		expect(screen.getByRole('link', { name: /Reference/ })).toHaveAttribute('href', 'https://example.org/ref')
		expect(screen.getByText('💡')).toBeInTheDocument()
		expect(screen.getByRole('columnheader', { name: 'Phase' })).toBeInTheDocument()
		expect(screen.getByRole('cell', { name: 'Design' })).toBeInTheDocument()
		expect(screen.getByText('old').closest('s')).not.toBeNull()
		expect(screen.getByText(/more content than the portal shows/)).toBeInTheDocument()
	})

	it('drops links and images that are not http(s) or mailto, keeping the text', () => {
		render(
			<Blocks
				blocks={[
					{
						type: 'paragraph',
						text: [
							{ text: 'bad link', href: 'javascript:alert(1)' },
							{ text: ' data', href: 'data:text/html,<b>x</b>' },
							{ text: ' mail', href: 'mailto:team@example.com' },
						],
					},
					{ type: 'image', url: 'javascript:alert(1)', caption: 'Evil' },
					{ type: 'bookmark', url: 'javascript:alert(2)' },
				]}
			/>,
		)
		expect(screen.getByText('bad link')).toBeInTheDocument()
		expect(screen.getByText('bad link').closest('a')).toBeNull()
		expect(screen.getByText('data').closest('a')).toBeNull()
		expect(screen.getByRole('link', { name: 'mail' })).toHaveAttribute('href', 'mailto:team@example.com')
		expect(screen.getAllByRole('link')).toHaveLength(1)
		expect(screen.queryByRole('img')).toBeNull()
	})

	it('skips types it does not draw, children included', () => {
		render(
			<Blocks
				blocks={[
					{ type: 'unsupported', text: text('Secret sync'), children: [{ type: 'paragraph', text: text('Inner') }] },
					{ type: 'some_future_type', text: text('Future') },
					// A file without a link: its name, never a broken link.
					{ type: 'file', url: null, fileRef: { blockId: 'b1' }, name: 'contract.pdf' },
					// A file Notion hosts, behind the portal's signed link.
					{
						type: 'pdf',
						url: '/api/portal/acme/pages/p/rows/r/content/b2?sig=x',
						fileRef: { blockId: 'b2' },
						name: 'plan.pdf',
					},
					{ type: 'paragraph', text: text('Shown') },
				]}
			/>,
		)
		expect(screen.getByText('Shown')).toBeInTheDocument()
		expect(screen.queryByText('Secret sync')).toBeNull()
		expect(screen.queryByText('Inner')).toBeNull()
		expect(screen.queryByText('Future')).toBeNull()
		expect(screen.getByText('contract.pdf').closest('a')).toBeNull()
		expect(screen.getByRole('link', { name: 'plan.pdf' })).toHaveAttribute(
			'href',
			'/api/portal/acme/pages/p/rows/r/content/b2?sig=x',
		)
	})
})
