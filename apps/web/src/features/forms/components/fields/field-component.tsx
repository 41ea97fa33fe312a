import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { lazy, type ReactNode, Suspense } from 'react'
import { CheckboxField, MultiChoiceField, SingleChoiceField } from './choice-field.tsx'
import type { FieldProps } from './field-frame.tsx'
import { type LoadChoices, ReferenceField } from './reference-field.tsx'
import { TextField } from './text-field.tsx'

// Which component asks each question kind, in one place for the public page and the builder's
// preview. Small kinds are imported here; heavy ones (an uploader, a drawing pad) are lazy so
// only forms that use them download them (the public page's budget is 100 KB).

// File fields bring their uploader (and an MD5 library): only forms that have one load them.
const FilesField = lazy(() => import('./files-field.tsx').then((m) => ({ default: m.FilesField })))

export function fieldComponent(field: PublicField, props: FieldProps, loadChoices: LoadChoices | undefined): ReactNode {
	switch (field.kind) {
		case 'select':
		case 'status':
			return <SingleChoiceField {...props} />
		case 'multi_select':
			return <MultiChoiceField {...props} />
		case 'checkbox':
			return <CheckboxField {...props} />
		case 'people':
		case 'relation':
			return <ReferenceField {...props} loadChoices={loadChoices} />
		case 'files':
			return (
				<Suspense fallback={<div className="h-24 rounded-md border border-input border-dashed" />}>
					<FilesField {...props} />
				</Suspense>
			)
		default:
			return <TextField {...props} />
	}
}

// The content blocks are asked for with the questions, so the page imports both from here.
export { ContentBlock } from './content-block.tsx'
