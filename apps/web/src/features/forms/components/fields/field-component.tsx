import type { PublicField } from '@blocksmith/contracts/forms.ts'
import { lazy, type ReactNode, Suspense } from 'react'
import { CalculatedField } from './calculated-field.tsx'
import { CheckboxField, MultiChoiceField, SingleChoiceField } from './choice-field.tsx'
import type { FieldProps } from './field-frame.tsx'
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
// The two largest of the new kinds (a table that stacks, a list ordered by buttons, keys and drag):
// about 3 KB the public page's first load (budget 100 KB, nearly used) need not carry for forms
// without them. Rating, scale and NPS are smaller than a chunk's own cost and stay in.
const MatrixField = lazy(() => import('./matrix-field.tsx').then((m) => ({ default: m.MatrixField })))
const RankingField = lazy(() => import('./ranking-field.tsx').then((m) => ({ default: m.RankingField })))

/** Room held while a lazy field loads, so the page does not jump when it comes. */
function Placeholder({ height }: { height: string }) {
	return <div aria-hidden="true" className={`${height} rounded-md border border-input border-dashed`} />
}

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
				<Suspense fallback={<Placeholder height="h-24" />}>
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
			return (
				<Suspense fallback={<Placeholder height="h-32" />}>
					<RankingField {...props} />
				</Suspense>
			)
		case 'matrix':
			return (
				<Suspense fallback={<Placeholder height="h-40" />}>
					<MatrixField {...props} />
				</Suspense>
			)
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
