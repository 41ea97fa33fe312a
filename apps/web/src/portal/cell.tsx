import type { PortalCell } from '@blocksmith/contracts/portals.ts'
import { Link, portalHref } from './router.tsx'
import { safeHref, safeSrc } from './safe-url.ts'
import { linkClasses } from './ui.tsx'

// One value of a row, as the server sent it: relations only to rows the member may open (links
// inside the portal), files as the portal's own links.

// Notion's option colours, as a tint that reads in both themes.
const optionTints: Record<string, string> = {
	gray: 'bg-zinc-500/15',
	brown: 'bg-amber-900/20',
	orange: 'bg-orange-500/20',
	yellow: 'bg-yellow-500/25',
	green: 'bg-green-500/20',
	blue: 'bg-blue-500/20',
	purple: 'bg-purple-500/20',
	pink: 'bg-pink-500/20',
	red: 'bg-red-500/20',
}

const chipClasses = 'inline-flex max-w-full items-center truncate rounded px-1.5 py-0.5 text-xs font-medium'

export function OptionChip({ name, color }: { name: string; color: string | null }) {
	return <span className={`${chipClasses} ${optionTints[color ?? ''] ?? 'bg-muted'}`}>{name}</span>
}

/** Whether a cell holds nothing to show (an empty state on cards and the row page). */
export function isEmptyCell(cell: PortalCell | undefined): boolean {
	if (!cell) {
		return true
	}
	switch (cell.kind) {
		case 'empty':
			return true
		case 'text':
			return cell.text === ''
		case 'number':
		case 'date':
			return cell.text === ''
		case 'url':
			return cell.url === ''
		case 'options':
			return cell.options.length === 0
		case 'relation':
			return cell.rows.length === 0
		case 'files':
			return cell.files.length === 0
		case 'people':
			return cell.names.length === 0
		default:
			return false
	}
}

export function Cell({ cell, basePath }: { cell: PortalCell | undefined; basePath: string }) {
	if (!cell) {
		return null
	}
	switch (cell.kind) {
		case 'text':
			return <span className="whitespace-pre-line">{cell.text}</span>
		case 'number':
			return <span className="tabular-nums">{cell.text}</span>
		case 'date':
			return <span>{cell.text}</span>
		case 'checkbox':
			return (
				<span role="img" aria-label={cell.value ? 'Yes' : 'No'}>
					{cell.value ? '✓' : '—'}
				</span>
			)
		case 'url': {
			const href = safeHref(cell.url)
			return href ? (
				<a href={href} target="_blank" rel="noopener noreferrer" className={`${linkClasses} break-all`}>
					{cell.text || cell.url}
				</a>
			) : (
				<span className="break-all">{cell.text || cell.url}</span>
			)
		}
		case 'options':
			return (
				<span className="flex flex-wrap gap-1">
					{cell.options.map((option) => (
						<OptionChip key={option.name} name={option.name} color={option.color} />
					))}
				</span>
			)
		case 'relation':
			return (
				<span className="flex flex-wrap gap-1">
					{cell.rows.map((row) => (
						<Link
							key={`${row.pageId}/${row.rowId}`}
							href={portalHref(basePath, row.pageId, row.rowId)}
							className={`${chipClasses} bg-muted text-link underline decoration-link/40 underline-offset-2 hover:decoration-link focus-visible:outline-2 focus-visible:outline-ring`}
						>
							{row.title || 'Untitled'}
						</Link>
					))}
				</span>
			)
		case 'files':
			return (
				<span className="flex flex-wrap gap-x-3 gap-y-1">
					{cell.files.map((file, index) => {
						const src = safeSrc(file.url)
						return src ? (
							<a
								// biome-ignore lint/suspicious/noArrayIndexKey: two files may share a name; the list never reorders.
								key={index}
								href={src}
								target="_blank"
								rel="noopener noreferrer"
								className={`${linkClasses} break-all`}
							>
								{file.name}
							</a>
						) : (
							// biome-ignore lint/suspicious/noArrayIndexKey: as above.
							<span key={index}>{file.name}</span>
						)
					})}
				</span>
			)
		case 'people':
			return <span>{cell.names.join(', ')}</span>
		default:
			return null
	}
}
