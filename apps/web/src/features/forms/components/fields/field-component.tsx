import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { lazy, type ReactNode, Suspense } from 'react'
import { CalculatedField } from './calculated-field.tsx'
import { CheckboxField, MultiChoiceField, SingleChoiceField } from './choice-field.tsx'
import type { FieldProps } from './field-frame.tsx'
import { MatrixField } from './matrix-field.tsx'
import { RankingField } from './ranking-field.tsx'
import { RatingField } from './rating-field.tsx'
import { type LoadChoices, ReferenceField } from './reference-field.tsx'
import { ScaleField } from './scale-field.tsx'
import { TextField } from './text-field.tsx'

// Which component asks each question kind, in one place for the public page and the builder's
// preview. The small kinds are imported here; the heavy ones (an uploader, a drawing pad) are
// lazy, so only forms that use them download them (the public page's budget is 100 KB).
// Content kinds are not questions: ContentBlock shows them.

// File fields bring their uploader (and an MD5 library): only forms that have one load them.
const FilesField = lazy(() => import('./files-field.tsx').then((m) => ({ default: m.FilesField })))
// The signature pad library and the canvas code: only forms that ask for a signature load them.
const SignatureField = lazy(() => import('./signature-field.tsx').then((m) => ({ default: m.SignatureField })))

/** The question's component; null for content (see ContentBlock). */
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
		case 'signature':
			return (
				<Suspense fallback={<div className="h-40 rounded-md border border-input bg-white" />}>
					<SignatureField {...props} />
				</Suspense>
			)
		case 'rating':
			return <RatingField {...props} />
		case 'scale':
		case 'nps':
			return <ScaleField {...props} />
		case 'ranking':
			return <RankingField {...props} />
		case 'matrix':
			return <MatrixField {...props} />
		case 'calculated':
			return <CalculatedField {...props} />
		case 'short_text':
		case 'long_text':
		case 'number':
		case 'date':
		case 'url':
		case 'email':
		case 'phone':
			return <TextField {...props} />
		default:
			return null
	}
}

// The content blocks are placed with the questions, so the page imports both from here.
export { ContentBlock } from './content-block.tsx'
