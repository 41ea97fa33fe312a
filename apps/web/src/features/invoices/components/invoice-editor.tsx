import { currencyCodes, minorUnitsOf } from '@blocksmith/contracts/invoice-currencies.ts'
import type { Invoice, LinesFromRows, LinesFromTime } from '@blocksmith/contracts/invoice-documents.ts'
import type { InvoiceProfile } from '@blocksmith/contracts/invoices.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Check, CircleAlert, Lock, Trash2 } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import { toast } from 'sonner'
import { paths } from '#src/app/paths.ts'
import { LeaveWithoutSavingDialog } from '#src/components/save-bar.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { ConfirmDialog } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Spinner } from '#src/components/ui/spinner.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { useUnsavedChangesGuard } from '#src/lib/use-unsaved-changes.ts'
import {
	addLinesFromRows,
	addLinesFromTime,
	deleteInvoice,
	finalizeInvoice,
	invoiceKeys,
	updateInvoice,
} from '../api/invoices.ts'
import { changesOf, draftOf, type FieldErrors, type InvoiceDraft, liveTotals } from '../lib/invoice-draft.ts'
import { ClientPicker } from './client-picker.tsx'
import { InvoiceDiscounts } from './invoice-editor-discounts.tsx'
import { InvoicePreviewDialog } from './invoice-editor-preview.tsx'
import { AddTimeDialog } from './invoice-editor-time.tsx'
import { InvoiceLines } from './invoice-lines.tsx'
import { InvoiceTotals } from './invoice-totals.tsx'
import { RowsPicker } from './rows-picker.tsx'

/** How long typing must rest before the draft is saved: one save per pause, not per key. */
const autosaveDelayMs = 600

type SaveState = 'idle' | 'saving' | 'saved' | 'failed'

const fieldErrorsOf = (error: unknown): FieldErrors =>
	error instanceof ApiError ? Object.fromEntries(error.fieldErrors.map((item) => [item.field, item.message])) : {}

/** A draft, saved as it is typed; lines from rows or time, a preview, and the finalization. */
export function InvoiceEditor({ invoice, profiles }: { invoice: Invoice; profiles: InvoiceProfile[] }) {
	const queryClient = useQueryClient()
	const navigate = useNavigate()
	const [draft, setDraft] = useState(() => draftOf(invoice))
	const [errors, setErrors] = useState<FieldErrors>({})
	const [saveState, setSaveState] = useState<SaveState>('idle')
	// What the server holds, as the PATCH body that produced it: a change is saved only when it differs.
	const saved = useRef(JSON.stringify(changesOf(draftOf(invoice))))
	const body = JSON.stringify(changesOf(draft))
	const isDirty = body !== saved.current
	const { blocker, leaveOnPurpose } = useUnsavedChangesGuard(isDirty)
	const profile = profiles.find((candidate) => candidate.id === draft.profileId)
	const taxRates = profile?.taxRates ?? []

	const accept = (updated: Invoice) => {
		queryClient.setQueryData(invoiceKeys.invoice(updated.id), updated)
		void queryClient.invalidateQueries({ queryKey: invoiceKeys.lists })
	}

	const save = useMutation({
		mutationFn: (changes: string) => updateInvoice(invoice.id, JSON.parse(changes)),
		meta: { isErrorShownInPage: true },
		onMutate: () => setSaveState('saving'),
		onSuccess: (updated, changes) => {
			saved.current = changes
			accept(updated)
			setErrors({})
			setSaveState('saved')
		},
		onError: (error) => {
			setErrors(fieldErrorsOf(error))
			setSaveState('failed')
			if (!(error instanceof ApiError && error.fieldErrors.length > 0)) {
				toast.error(errorMessage(error))
			}
		},
	})
	const { mutate, mutateAsync } = save

	useEffect(() => {
		if (body === saved.current) {
			return
		}
		const timer = setTimeout(() => mutate(body), autosaveDelayMs)
		return () => clearTimeout(timer)
	}, [body, mutate])

	// Leaving within the pause saves first and then leaves; only what the server refuses is asked about.
	const latestBody = useRef(body)
	latestBody.current = body
	const [isLeaveAsked, setIsLeaveAsked] = useState(false)
	useEffect(() => {
		if (blocker.state !== 'blocked') {
			setIsLeaveAsked(false)
			return
		}
		let isCurrent = true
		mutateAsync(latestBody.current).then(
			() => isCurrent && blocker.proceed(),
			() => isCurrent && setIsLeaveAsked(true),
		)
		return () => {
			isCurrent = false
		}
	}, [blocker, mutateAsync])

	/** Saves what is typed now (before an action that works on the saved draft). */
	const flush = async () => {
		if (body !== saved.current) {
			await mutateAsync(body)
		}
	}

	/** An action that changes the draft on the server: saved first, then the editor takes the server's draft. */
	const runOnServer = async (action: () => Promise<Invoice>) => {
		await flush()
		const updated = await action()
		const next = draftOf(updated)
		saved.current = JSON.stringify(changesOf(next))
		setDraft(next)
		accept(updated)
	}

	const change = (changes: Partial<InvoiceDraft>) => setDraft((current) => ({ ...current, ...changes }))
	// Another profile has other tax rates: a line whose rate it lacks takes its default one.
	const changeProfile = (profileId: string) => {
		const rates = profiles.find((candidate) => candidate.id === profileId)?.taxRates ?? []
		const fallback = (rates.find((rate) => rate.isDefault) ?? rates[0])?.id
		setDraft((current) => ({
			...current,
			profileId,
			lines: current.lines.map((line) =>
				rates.some((rate) => rate.id === line.taxRateId) || !fallback ? line : { ...line, taxRateId: fallback },
			),
		}))
	}
	const live = liveTotals(draft, profile)
	const nextNumber = profile?.nextNumbers.invoice

	return (
		<div className="grid gap-6">
			<div className="flex flex-wrap items-center justify-between gap-3">
				<SaveIndicator state={isDirty && saveState !== 'failed' ? 'saving' : saveState} />
				<div className="flex flex-wrap gap-2">
					{profile ? (
						<InvoicePreviewDialog
							invoiceId={invoice.id}
							version={invoice.updatedAt}
							profileId={profile.id}
							profileVersion={profile.updatedAt}
							chosenDesign={profile.template.design}
							onOpen={() => flush().catch(() => undefined)}
						/>
					) : null}
					<ConfirmDialog
						title="Delete this draft?"
						description="The draft goes away; it has no number yet, so nothing is skipped."
						confirmLabel="Delete"
						isDestructive
						onConfirm={async () => {
							await deleteInvoice(invoice.id)
							leaveOnPurpose()
							void queryClient.invalidateQueries({ queryKey: invoiceKeys.lists })
							await navigate(paths.invoices)
						}}
						trigger={
							<Button variant="ghost">
								<Trash2 aria-hidden /> Delete
							</Button>
						}
					/>
					<ConfirmDialog
						title="Finalize this invoice?"
						description={`It gets its number now${nextNumber ? ` (${nextNumber})` : ''}, and can no longer change: corrections are made with a credit note.`}
						confirmLabel="Finalize"
						onConfirm={async () => {
							try {
								await flush()
								accept(await finalizeInvoice(invoice.id))
								toast.success('Invoice finalized')
							} catch (error) {
								setErrors(fieldErrorsOf(error))
								toast.error(errorMessage(error))
								throw error
							}
						}}
						trigger={
							<Button>
								<Lock aria-hidden /> Finalize
							</Button>
						}
					/>
				</div>
			</div>

			<section aria-labelledby="invoice-details" className="grid gap-4">
				<h2 id="invoice-details" className="font-semibold text-base">
					Details
				</h2>
				<div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
					<Field label="Bill from" error={errors.profileId}>
						<NativeSelect value={draft.profileId} onChange={(event) => changeProfile(event.target.value)}>
							{profiles.map((candidate) => (
								<option key={candidate.id} value={candidate.id}>
									{candidate.name}
								</option>
							))}
						</NativeSelect>
					</Field>
					<Field label="Currency" error={errors.currency}>
						<NativeSelect value={draft.currency} onChange={(event) => change({ currency: event.target.value })}>
							{currencyCodes.map((code) => (
								<option key={code} value={code}>
									{code} ({minorUnitsOf(code)} decimals)
								</option>
							))}
						</NativeSelect>
					</Field>
					<Field label="Issue date" error={errors.issueDate}>
						<Input
							type="date"
							value={draft.issueDate}
							onChange={(event) => change({ issueDate: event.target.value })}
						/>
					</Field>
					<Field label="Due date" error={errors.dueDate}>
						<Input type="date" value={draft.dueDate} onChange={(event) => change({ dueDate: event.target.value })} />
					</Field>
				</div>
			</section>

			<ClientPicker draft={draft} errors={errors} onChange={change} />

			<section aria-labelledby="invoice-lines" className="grid gap-3">
				<div className="flex flex-wrap items-center justify-between gap-2">
					<h2 id="invoice-lines" className="font-semibold text-base">
						Lines
					</h2>
					<div className="flex flex-wrap gap-2">
						<RowsPicker
							taxRates={taxRates}
							onAdd={(input: LinesFromRows) => runOnServer(() => addLinesFromRows(invoice.id, input))}
						/>
						<AddTimeDialog
							taxRates={taxRates}
							onAdd={(tool: WorkspaceTool, input: LinesFromTime) =>
								runOnServer(() => addLinesFromTime(invoice.id, tool, input))
							}
						/>
					</div>
				</div>
				{errors.lines ? <p className="text-error text-sm">{errors.lines}</p> : null}
				<InvoiceLines
					lines={draft.lines}
					taxRates={taxRates}
					errors={errors}
					currency={draft.currency}
					onChange={(lines) => change({ lines })}
				/>
			</section>

			<InvoiceDiscounts
				discounts={draft.discounts}
				currency={draft.currency}
				errors={errors}
				onChange={(discounts) => change({ discounts })}
			/>

			<Field label="Notes" error={errors.notes}>
				<Textarea value={draft.notes} onChange={(event) => change({ notes: event.target.value })} />
			</Field>

			<div className="sm:ml-auto sm:w-96">
				<InvoiceTotals
					totals={live.ok ? live.totals : null}
					taxRates={taxRates}
					{...(profile ? { locale: profile.locale } : {})}
					note={live.ok ? undefined : (live.errors[0]?.message ?? 'The totals appear once every line is valid.')}
				/>
			</div>
			{isLeaveAsked ? <LeaveWithoutSavingDialog blocker={blocker} noun="invoice" /> : null}
		</div>
	)
}

function SaveIndicator({ state }: { state: SaveState }) {
	return (
		<p role="status" className="flex items-center gap-1.5 text-muted-foreground text-sm">
			{state === 'saving' ? (
				<>
					<Spinner /> Saving…
				</>
			) : state === 'saved' ? (
				<>
					<Check aria-hidden className="size-4" /> Saved
				</>
			) : state === 'failed' ? (
				<span className="flex items-center gap-1.5 text-error">
					<CircleAlert aria-hidden className="size-4" /> Not saved: fix the marked fields
				</span>
			) : (
				'Draft: saved as you type'
			)}
		</p>
	)
}
