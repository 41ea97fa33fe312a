import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { inlineMarkdown } from '../../lib/inline-markdown.ts'

// The parts of a form that ask nothing: a heading, a paragraph (with **bold** and links), an
// image and a divider. A page break shows nothing where it stands: the page flow (form-view)
// splits the form into pages there.

export function ContentBlock({ field, headingLevel = 2 }: { field: PublicField; headingLevel?: 2 | 3 }) {
	switch (field.kind) {
		case 'heading': {
			const Heading = headingLevel === 2 ? 'h2' : 'h3'
			return (
				<Heading className="break-words pt-2 font-semibold text-foreground text-lg tracking-tight">
					{field.label}
				</Heading>
			)
		}
		case 'paragraph':
			return field.body ? (
				<p className="whitespace-pre-line break-words text-foreground text-sm leading-relaxed">
					{inlineMarkdown(field.body)}
				</p>
			) : null
		case 'image':
			return field.imageUrl ? (
				<img
					src={field.imageUrl}
					alt={field.label}
					loading="lazy"
					decoding="async"
					className="mx-auto h-auto max-h-[32rem] max-w-full rounded-lg object-contain"
				/>
			) : null
		case 'divider':
			return <hr className="border-border" />
		default:
			return null
	}
}
