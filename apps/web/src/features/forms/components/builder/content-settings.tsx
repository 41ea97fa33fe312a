import type { FormField, PageImage } from '@blocksmith/contracts/forms.ts'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { inlineMarkdown } from '../../lib/inline-markdown.ts'
import { ImagePicker, type LocalUploads } from '../page-settings.tsx'

type ContentSettingsProps = {
	field: FormField
	error: (key: string) => string | undefined
	uploads: LocalUploads
	onUploaded: (blobId: string, file: { name: string; url: string }) => void
	onChange: (changes: Partial<FormField>, path: string) => void
}

/** The settings of content: a heading's text, a paragraph, an image, a page's title; a divider has none. */
export function ContentSettings({ field, error, uploads, onUploaded, onChange }: ContentSettingsProps) {
	const label = (name: string, description?: string) => (
		<Field id={`${field.id}-label`} label={name} description={description} error={error('label')} isRequired>
			<Input
				value={field.label}
				maxLength={200}
				onChange={(event) => onChange({ label: event.target.value }, 'label')}
			/>
		</Field>
	)
	switch (field.kind) {
		case 'heading':
			return label('Heading text', 'A title over the questions that follow.')
		case 'page_break':
			return label('Title of the next page', 'The questions after this break are on a page of their own.')
		case 'divider':
			return <div className="grid gap-4">{label('Name', 'For you, in this list; visitors see only a line.')}</div>
		case 'paragraph':
			return (
				<div className="grid gap-4">
					{label('Name', 'For you, in this list; visitors read the text.')}
					<Field
						label="Text"
						description="**bold** and [links](https://…) work; a blank line starts a new paragraph."
						error={error('body')}
					>
						<Textarea
							rows={4}
							maxLength={5000}
							value={field.body ?? ''}
							onChange={(event) => onChange({ body: event.target.value }, 'body')}
						/>
					</Field>
					{field.body?.trim() ? (
						<figure className="grid gap-1">
							<figcaption className="font-medium text-muted-foreground text-xs">Preview</figcaption>
							<p className="whitespace-pre-line break-words rounded-md border bg-background p-3 text-sm leading-relaxed [&_a]:text-primary [&_a]:underline">
								{inlineMarkdown(field.body)}
							</p>
						</figure>
					) : null}
				</div>
			)
		case 'image':
			return (
				<div className="grid gap-4">
					<ImagePicker
						name="Image"
						description="Shown at the width of the form."
						image={field.image}
						error={error('image')}
						uploads={uploads}
						onUploaded={onUploaded}
						onChange={(image: PageImage | null) => onChange({ image }, 'image')}
					/>
					{label('Alternative text', 'Read to people who cannot see the picture: say what it shows.')}
				</div>
			)
		default:
			return null
	}
}
