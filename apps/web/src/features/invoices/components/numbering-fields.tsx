import { checkSequence, formatNumber, numberingResets, shapeOf } from '@blocksmith/contracts/invoice-numbering.ts'
import { useWatch } from 'react-hook-form'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { today } from '../lib/profile-form.ts'
import { errorAt, type ProfileForm } from './form-parts.ts'

const resetNames = { never: 'Never', yearly: 'Every year', monthly: 'Every month' } as const

type Kind = 'invoice' | 'creditNote'

/**
 * The invoice and credit-note patterns, checked as they are typed with the module the server
 * numbers with, and a preview: the server's next number for the saved pattern, else the first
 * number the typed one gives today.
 */
export function NumberingFields({
	form,
	saved,
}: {
	form: ProfileForm
	/** The saved profile's patterns and the server's next numbers; none for a new profile. */
	saved: {
		numbering: { invoice: { pattern: string }; creditNote: { pattern: string } }
		next: Record<Kind, string>
	} | null
}) {
	const numbering = useWatch({ control: form.control, name: 'numbering' })
	const day = today()
	const sameShape =
		checkSequence(numbering.creditNote.pattern, 'never') === null &&
		shapeOf(numbering.invoice.pattern) === shapeOf(numbering.creditNote.pattern)

	function preview(kind: Kind): { text: string; isProblem: boolean } {
		const { pattern, reset } = numbering[kind]
		const problem = checkSequence(pattern, reset)
		if (problem) {
			return { text: problem, isProblem: true }
		}
		if (kind === 'creditNote' && sameShape) {
			return {
				text: 'Make it differ from the invoices’ pattern in its letters (e.g. CN- and INV-), so no number is used twice.',
				isProblem: true,
			}
		}
		if (saved && saved.numbering[kind].pattern === pattern.trim()) {
			return { text: `Next: ${saved.next[kind]}`, isProblem: false }
		}
		return { text: `Next: ${formatNumber(pattern, day, 1)} (the exact number is shown once saved)`, isProblem: false }
	}

	return (
		<fieldset className="grid gap-3">
			<legend className="sr-only">Numbering</legend>
			<p className="-mt-1 text-[13px] text-muted-foreground">
				Use <code>{'{YYYY}'}</code>, <code>{'{YY}'}</code>, <code>{'{MM}'}</code> and <code>{'{counter:4}'}</code>{' '}
				(0001) or <code>{'{counter}'}</code>. Drafts have no number; finalizing gives the next one, with no gaps.
			</p>
			{(['invoice', 'creditNote'] as const).map((kind) => {
				const label = kind === 'invoice' ? 'Invoice numbers' : 'Credit-note numbers'
				const shown = preview(kind)
				const serverError = errorAt(form, `numbering.${kind}.pattern`)
				return (
					<div key={kind} className="grid items-start gap-3 sm:grid-cols-[1fr_10rem]">
						<Field label={label} error={serverError ?? (shown.isProblem ? shown.text : undefined)}>
							<Input className="font-mono" {...form.register(`numbering.${kind}.pattern`)} />
						</Field>
						<Field
							label={
								<>
									<span className="sr-only">{label}: </span>Counter restarts
								</>
							}
							error={errorAt(form, `numbering.${kind}.reset`)}
						>
							<NativeSelect {...form.register(`numbering.${kind}.reset`)}>
								{numberingResets.map((reset) => (
									<option key={reset} value={reset}>
										{resetNames[reset]}
									</option>
								))}
							</NativeSelect>
						</Field>
						{shown.isProblem || serverError ? null : (
							<p aria-live="polite" className="-mt-1 text-[13px] text-muted-foreground sm:col-span-2">
								{shown.text}
							</p>
						)}
					</div>
				)
			})}
		</fieldset>
	)
}
