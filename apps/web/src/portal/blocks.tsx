import type { PortalBlock, PortalRun } from '@blocksmith/contracts/portals.ts'
import type { ReactNode } from 'react'
import { safeHref, safeSrc } from './safe-url.ts'
import { linkClasses } from './ui.tsx'

// A Notion page's content, read-only, as the server mirrored it. Types the portal does not draw
// are skipped (with their children), never shown as raw data. Rich text links open in a new tab
// and only when http(s) or mailto.

function RichText({ runs }: { runs: PortalBlock['text'] }) {
	if (!runs) {
		return null
	}
	return (
		<>
			{runs.map((run: PortalRun, index) => {
				let node: ReactNode = run.text
				if (run.strikethrough) {
					node = <s>{node}</s>
				}
				if (run.underline) {
					node = <u>{node}</u>
				}
				if (run.code) {
					node = <code className="rounded bg-muted px-1 py-0.5 font-mono text-[0.9em]">{node}</code>
				}
				if (run.italic) {
					node = <em>{node}</em>
				}
				if (run.bold) {
					node = <strong className="font-semibold">{node}</strong>
				}
				const href = safeHref(run.href)
				if (href) {
					node = (
						<a href={href} target="_blank" rel="noopener noreferrer" className={`${linkClasses} underline`}>
							{node}
						</a>
					)
				}
				// biome-ignore lint/suspicious/noArrayIndexKey: runs are a fixed sequence, never reordered.
				return <span key={index}>{node}</span>
			})}
		</>
	)
}

const plain = (block: PortalBlock) => (block.text ?? []).map((run) => run.text).join('')

function Children({ blocks }: { blocks: PortalBlock[] | undefined }) {
	return blocks?.length ? (
		<div className="ml-6">
			<Blocks blocks={blocks} />
		</div>
	) : null
}

function ListItem({ block }: { block: PortalBlock }) {
	return (
		<li>
			<RichText runs={block.text} />
			<Children blocks={block.children} />
		</li>
	)
}

function Block({ block }: { block: PortalBlock }): ReactNode {
	switch (block.type) {
		case 'heading_1':
			return (
				<h2 className="mt-6 text-2xl font-semibold">
					<RichText runs={block.text} />
				</h2>
			)
		case 'heading_2':
			return (
				<h3 className="mt-5 text-xl font-semibold">
					<RichText runs={block.text} />
				</h3>
			)
		case 'heading_3':
			return (
				<h4 className="mt-4 text-lg font-semibold">
					<RichText runs={block.text} />
				</h4>
			)
		case 'heading_4':
			return (
				<h5 className="mt-3 font-semibold">
					<RichText runs={block.text} />
				</h5>
			)
		case 'paragraph':
			return (
				<>
					<p className="min-h-[1.5em] whitespace-pre-wrap">
						<RichText runs={block.text} />
					</p>
					<Children blocks={block.children} />
				</>
			)
		case 'to_do':
			return (
				<div className="flex items-start gap-2">
					<input
						type="checkbox"
						checked={block.checked ?? false}
						readOnly
						disabled
						aria-label={plain(block) || 'To-do'}
						className="mt-1"
					/>
					<div className={block.checked ? 'text-muted-foreground line-through' : ''}>
						<RichText runs={block.text} />
						<Children blocks={block.children} />
					</div>
				</div>
			)
		case 'quote':
			return (
				<blockquote className="border-l-4 border-border pl-4">
					<RichText runs={block.text} />
					<Children blocks={block.children} />
				</blockquote>
			)
		case 'callout':
			return (
				<aside className="flex gap-3 rounded-md bg-muted p-4">
					{block.icon ? <span aria-hidden="true">{block.icon}</span> : null}
					<div className="min-w-0">
						<RichText runs={block.text} />
						<Children blocks={block.children} />
					</div>
				</aside>
			)
		case 'code':
			return (
				<pre className="overflow-x-auto rounded-md bg-muted p-4 font-mono text-sm">
					<code data-language={block.language}>{plain(block)}</code>
				</pre>
			)
		case 'equation':
			return (
				<pre className="overflow-x-auto font-mono text-sm">
					<code>{plain(block)}</code>
				</pre>
			)
		case 'divider':
			return <hr className="border-border" />
		case 'image': {
			const src = safeSrc(block.url)
			return src ? (
				<figure>
					<img src={src} alt={block.caption ?? ''} loading="lazy" className="max-w-full rounded-md" />
					{block.caption ? (
						<figcaption className="mt-1 text-sm text-muted-foreground">{block.caption}</figcaption>
					) : null}
				</figure>
			) : null
		}
		case 'file':
		case 'pdf':
		case 'video':
		case 'audio': {
			// A file Notion hosts comes as the portal's own signed link (a path here); others as http(s).
			const href = safeSrc(block.url)
			const name = block.name || block.caption || href || 'File'
			return href ? (
				<a href={href} target="_blank" rel="noopener noreferrer" className={`${linkClasses} underline`}>
					{name}
				</a>
			) : (
				<p className="text-muted-foreground">{name}</p>
			)
		}
		case 'child_page':
		case 'child_database':
			return (
				<p className="font-medium">
					<RichText runs={block.text} />
				</p>
			)
		case 'table':
			return <Table block={block} />
		case 'truncated':
			return <p className="text-sm text-muted-foreground">This page has more content than the portal shows.</p>
		case 'toggle':
			return (
				<details>
					<summary className="cursor-pointer rounded-sm focus-visible:outline-2 focus-visible:outline-ring">
						<RichText runs={block.text} />
					</summary>
					<Children blocks={block.children} />
				</details>
			)
		case 'bookmark':
		case 'embed':
		case 'link_preview': {
			const href = safeHref(block.url)
			return href ? (
				<a
					href={href}
					target="_blank"
					rel="noopener noreferrer"
					className="block rounded-md border border-border px-4 py-3 text-sm hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring"
				>
					<span className="block font-medium">{block.caption || plain(block) || href}</span>
					<span className="block truncate text-muted-foreground">{href}</span>
				</a>
			) : null
		}
		default:
			return null
	}
}

function Table({ block }: { block: PortalBlock }) {
	const rows = (block.children ?? []).filter((child) => child.type === 'table_row')
	return (
		<div className="overflow-x-auto">
			<table className="border-collapse text-sm">
				<tbody>
					{rows.map((tableRow, rowIndex) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: read-only rows, never reordered.
						<tr key={rowIndex}>
							{(tableRow.cells ?? []).map((cell, cellIndex) => {
								const isHeader = (block.hasColumnHeader && rowIndex === 0) || (block.hasRowHeader && cellIndex === 0)
								const Tag = isHeader ? 'th' : 'td'
								return (
									<Tag
										// biome-ignore lint/suspicious/noArrayIndexKey: as above.
										key={cellIndex}
										className={`border border-border px-2 py-1 text-left align-top ${isHeader ? 'font-medium' : ''}`}
									>
										<RichText runs={cell} />
									</Tag>
								)
							})}
						</tr>
					))}
				</tbody>
			</table>
		</div>
	)
}

const listTypes: Record<string, 'ul' | 'ol'> = { bulleted_list_item: 'ul', numbered_list_item: 'ol' }

/** Blocks in order, with runs of list items gathered into one list each. */
export function Blocks({ blocks }: { blocks: PortalBlock[] }) {
	const out: ReactNode[] = []
	for (let index = 0; index < blocks.length; index++) {
		const block = blocks[index] as PortalBlock
		const list = listTypes[block.type]
		if (list) {
			const items: PortalBlock[] = []
			while (index < blocks.length && blocks[index]?.type === block.type) {
				items.push(blocks[index] as PortalBlock)
				index++
			}
			index--
			const List = list
			out.push(
				<List key={index} className={list === 'ul' ? 'list-disc pl-6' : 'list-decimal pl-6'}>
					{items.map((item, at) => (
						// biome-ignore lint/suspicious/noArrayIndexKey: blocks are read-only, never reordered.
						<ListItem key={at} block={item} />
					))}
				</List>,
			)
			continue
		}
		out.push(<Block key={index} block={block} />)
	}
	return <div className="space-y-2 leading-relaxed">{out}</div>
}
