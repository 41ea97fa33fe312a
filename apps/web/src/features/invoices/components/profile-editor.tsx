import type { CreateInvoiceProfile, InvoiceProfile, UpdateInvoiceProfile } from '@blocksmith/contracts/invoices.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Lock } from 'lucide-react'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { toast } from 'sonner'
import { SaveBar } from '#src/components/save-bar.tsx'
import { Alert } from '#src/components/ui/alert.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { createProfile, invoiceKeys, updateProfile } from '../api/invoices.ts'
import {
	checkPayload,
	type FieldProblem,
	formFieldOf,
	newProfileValues,
	type ProfileFormValues,
	profilePayload,
	profileValues,
} from '../lib/profile-form.ts'
import { ProfileFields } from './profile-form.tsx'
import { TemplatePreview } from './template-preview.tsx'

/** Paths the form shows an error at; anything else (a rule across fields) is said in a toast. */
const rowField =
	/^(taxRates\.\d+\.(name|rate|categoryCode|exemptionReason|exemptionReasonCode)|taxIds\.other\.\d+\.(label|value))$/
const shownFields = new Set([
	'name',
	'legalName',
	'address.lines',
	'address.postcode',
	'address.city',
	'address.country',
	'taxIds.vatId',
	'taxIds.other',
	'email',
	'logoBlobId',
	'currency',
	'locale',
	'taxRates',
	'numbering.invoice.pattern',
	'numbering.invoice.reset',
	'numbering.creditNote.pattern',
	'numbering.creditNote.reset',
	'paymentTermsDays',
	'notes',
	'footer',
	'bank',
	'bank.kind',
	'bank.iban',
	'bank.bic',
	'bank.accountHolder',
	'bank.text',
	'emailMessage.subject',
	'emailMessage.body',
	'template.design',
	'template.accentColor',
	'template.textColor',
	'template.font',
])

/**
 * One profile's form (or a new one's) with its save bar and, once saved, the preview of the
 * designs. Checked in the browser with the server's schema; the server's 400 lands at the same
 * fields. Members see it read-only.
 */
export function ProfileEditor({
	profile,
	isReadOnly,
	onCreated,
}: {
	profile: InvoiceProfile | null
	isReadOnly: boolean
	onCreated: (profile: InvoiceProfile) => void
}) {
	const queryClient = useQueryClient()
	// The save's answer until the list is read again: its next numbers and the preview's version.
	const [latest, setLatest] = useState<InvoiceProfile | null>(null)
	const current = latest && profile && latest.updatedAt >= profile.updatedAt ? latest : profile
	const form = useForm<ProfileFormValues>({
		defaultValues: profile ? profileValues(profile) : newProfileValues(),
	})

	function showProblems(problems: readonly FieldProblem[], detail: string): void {
		const unshown: string[] = []
		let isFirst = true
		for (const problem of problems) {
			const field = formFieldOf(problem.field)
			if (shownFields.has(field) || rowField.test(field)) {
				form.setError(field as never, { type: 'server', message: problem.message }, { shouldFocus: isFirst })
				isFirst = false
			} else {
				unshown.push(problem.field ? `${problem.field}: ${problem.message}` : problem.message)
			}
		}
		if (unshown.length > 0) {
			toast.error(detail, { description: unshown.join('\n') })
		}
	}

	const save = useMutation({
		mutationFn: (payload: UpdateInvoiceProfile) =>
			profile ? updateProfile(profile.id, payload) : createProfile(payload as CreateInvoiceProfile),
		meta: { isFormMutation: true },
		onSuccess: (saved) => {
			setLatest(saved)
			form.reset(profileValues(saved))
			void queryClient.invalidateQueries({ queryKey: invoiceKeys.profiles })
			toast.success(profile ? 'Profile saved' : 'Profile created')
			if (!profile) {
				onCreated(saved)
			}
		},
		onError: (error) => {
			if (error instanceof ApiError && error.fieldErrors.length > 0) {
				showProblems(error.fieldErrors, error.detail)
			}
		},
	})

	function submit(): void {
		form.clearErrors()
		const payload = profilePayload(form.getValues())
		const problems = checkPayload(payload, !profile)
		if (problems.length > 0) {
			showProblems(problems, 'Some settings need a look.')
			return
		}
		save.mutate(payload)
	}

	return (
		<div className="grid gap-6">
			{isReadOnly ? (
				<Alert title="Read only">
					<span className="inline-flex items-center gap-1.5">
						<Lock aria-hidden className="size-3.5" /> Only owners and admins change invoice settings.
					</span>
				</Alert>
			) : (
				<SaveBar
					label="Save profile"
					noun="profile"
					isDirty={form.formState.isDirty || !profile}
					save={save}
					isSaving={save.isPending}
					onSave={submit}
					onDiscard={() => form.reset()}
				/>
			)}
			<form
				aria-label={profile ? `Profile ${profile.name}` : 'New profile'}
				noValidate
				onSubmit={(event) => {
					event.preventDefault()
					submit()
				}}
			>
				<fieldset disabled={isReadOnly} className="min-w-0">
					<ProfileFields form={form} profile={current} isReadOnly={isReadOnly} />
				</fieldset>
			</form>
			{current ? (
				<TemplatePreview profileId={current.id} version={current.updatedAt} chosen={current.template.design} />
			) : null}
		</div>
	)
}
