import type { Portal, PortalSetupInput } from '@blocksmith/contracts/portals.ts'
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useForm, useWatch } from 'react-hook-form'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { LeaveWithoutSavingDialog, SaveBar } from '#src/components/save-bar.tsx'
import { changePlanPath } from '#src/core/billing/lib/billing-paths.ts'
import { ApiError } from '#src/lib/api-client.ts'
import { useSaveShortcut, useUnsavedChangesGuard } from '#src/lib/use-unsaved-changes.ts'
import { portalDatabasesQuery, portalKeys, saveSetup } from '../api/portals.ts'
import {
	checkPayload,
	type FieldProblem,
	formFieldOf,
	type PortalFormValues,
	portalPayload,
	portalValues,
} from '../lib/portal-form.ts'
import { AccessSection } from './access-section.tsx'
import { BrandingSection } from './branding-section.tsx'
import { DangerZone } from './danger-zone.tsx'
import { ExtrasSection } from './extras-section.tsx'
import { FreshnessSection } from './freshness-section.tsx'
import { PagesSection } from './pages-section.tsx'

/** Fields the form shows an error at; anything else is said in a toast. */
const shownField =
	/^(name|slug|customDomain|branding\.(logoBlobId|accentColor|backgroundColor|theme|welcome)|access\.(companiesDatabaseId|membersDatabaseId|membersEmailProperty)|pages\.\d+\.(title|rule(\.property|\.kind)?|properties|view|groupBy|coverProperty|sort(\.\d+\.property)?|filterable)|rest\.(forms\.\d+\.(formId|linkProperty)|showInvoices|charts\.\d+\.(chartId|pageId)))$/

/** Where a 409 that names no field belongs: a taken address or domain. */
function conflictField(detail: string): string {
	return /domain/i.test(detail) ? 'customDomain' : 'slug'
}

/**
 * One portal's setup (branding, pages, access) as one form with a save bar, checked in the
 * browser with the server's schema; the server's 400s land at the same fields, its 409 (address
 * or domain taken) at the field it concerns, its 402 (plan limit, custom domain not in the plan)
 * as the app's upgrade toast. Then freshness and the danger zone, which act at once.
 */
export function PortalEditor({ portal, onDeleted }: { portal: Portal; onDeleted: () => void }) {
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const form = useForm<PortalFormValues>({ defaultValues: portalValues(portal) })
	const isDirty = form.formState.isDirty
	const { blocker, leaveOnPurpose } = useUnsavedChangesGuard(isDirty)
	const [companiesDatabaseId, membersDatabaseId] = useWatch({
		control: form.control,
		name: ['access.companiesDatabaseId', 'access.membersDatabaseId'],
	})
	// The rules each database offers follow the access settings as they are chosen, before saving.
	const databases = useQuery({
		...portalDatabasesQuery(portal.tool, { portalId: portal.id, companiesDatabaseId, membersDatabaseId }),
		placeholderData: keepPreviousData,
	})

	function showProblems(problems: readonly FieldProblem[], detail: string): void {
		const unshown: string[] = []
		let isFirst = true
		for (const problem of problems) {
			const field = formFieldOf(problem.field)
			if (shownField.test(field)) {
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
		mutationFn: (payload: PortalSetupInput) => saveSetup(portal.tool, payload),
		meta: { isFormMutation: true },
		onSuccess: (saved) => {
			form.reset(portalValues(saved))
			void queryClient.invalidateQueries({ queryKey: portalKeys.setup })
			toast.success('Portal saved')
		},
		onError: (error) => {
			if (!(error instanceof ApiError)) {
				return
			}
			if (error.fieldErrors.length > 0) {
				showProblems(error.fieldErrors, error.detail)
				if (error.code === 'PLAN_LIMIT_REACHED') {
					// A 402 naming its field (a custom domain the plan lacks): the field says why, the toast
					// the way forward, as the app's own 402 toast does. (Not that toast's module: imported
					// here it becomes a chunk of its own that every page of the app then loads.)
					toast.error(error.detail, {
						id: 'plan-limit-reached',
						description: 'A larger plan includes it.',
						action: { label: 'Upgrade', onClick: () => navigate(changePlanPath()) },
					})
				}
			} else if (error.status === 409 && error.code === 'CONFLICT') {
				form.setError(
					conflictField(error.detail) as never,
					{ type: 'server', message: error.detail },
					{ shouldFocus: true },
				)
			}
		},
	})

	function submit(): void {
		form.clearErrors()
		const payload = portalPayload(form.getValues(), portal.id)
		const problems = checkPayload(payload)
		if (problems.length > 0) {
			showProblems(problems, 'Some settings need a look.')
			return
		}
		save.mutate(payload)
	}
	useSaveShortcut(() => {
		if (isDirty) {
			submit()
		}
	})

	return (
		<div className="grid gap-6">
			<SaveBar
				label="Save portal"
				noun="portal"
				isDirty={isDirty}
				save={save}
				isSaving={save.isPending}
				onSave={submit}
				onDiscard={() => form.reset()}
			/>
			<LeaveWithoutSavingDialog blocker={blocker} noun="portal" />
			<form
				aria-label={`Portal ${portal.name}`}
				noValidate
				className="grid min-w-0 gap-6"
				onSubmit={(event) => {
					event.preventDefault()
					submit()
				}}
			>
				<BrandingSection form={form} portal={portal} />
				<PagesSection form={form} tool={portal.tool} databases={databases.data} isLoading={databases.isPending} />
				<AccessSection form={form} databases={databases.data} />
				<ExtrasSection form={form} tool={portal.tool} databases={databases.data} />
			</form>
			<FreshnessSection portal={portal} />
			<DangerZone
				portal={portal}
				onReset={(saved) => form.reset(portalValues(saved))}
				onDeleted={() => {
					leaveOnPurpose()
					onDeleted()
				}}
			/>
		</div>
	)
}
