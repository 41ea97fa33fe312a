import type { LoadChoices } from './fields/reference-field.tsx'
import { needsEngine, useEngine } from './form-engine.ts'
import { FormFill, type FormViewProps } from './form-fill.tsx'
import { FormCard, primaryButtonClasses } from './form-parts.tsx'
import type { FormSubmitOutcome } from './form-submit.ts'

// The public form's one entry for the page and the builder's preview: it waits for the rules
// engine when the form needs one (form-engine.ts), then the form is filled in (form-fill.tsx).

export type { FormSubmitOutcome, FormViewProps, LoadChoices }

/**
 * A published form, filled in and sent: a page at a time (page breaks, back and next, jumps by
 * the rules) or one question at a time, every field kind, browser-side checks with the server's
 * field errors shown beside the fields, and (live) a submit that survives a flaky connection
 * without losing answers or counting twice.
 */
export function FormView(props: FormViewProps) {
	const { form } = props
	const isOpen = form.acceptingResponses && form.fields !== null
	const { engine, failed, retry } = useEngine(isOpen && needsEngine(form.fields ?? [], form.logic ?? []))
	if (engine) {
		return <FormFill {...props} engine={engine} />
	}
	return (
		<FormCard>
			<div role="status" className="grid justify-items-center gap-3 py-8 text-center text-muted-foreground text-sm">
				{failed ? (
					<>
						<p>The form couldn't be loaded. Check your connection and try again.</p>
						<button type="button" className={primaryButtonClasses} onClick={retry}>
							Try again
						</button>
					</>
				) : (
					<p>Loading the form…</p>
				)}
			</div>
		</FormCard>
	)
}
