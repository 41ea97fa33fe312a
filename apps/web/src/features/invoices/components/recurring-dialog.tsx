import type { Invoice } from '@blocksmith/contracts/invoice-documents.ts'
import { type Recurrence, recurrenceFrequencies } from '@blocksmith/contracts/invoice-recurring.ts'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, type ReactElement, useState } from 'react'
import { toast } from 'sonner'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { ApiError } from '#src/lib/api-client.ts'
import { createRecurrence, updateRecurrence } from '../api/invoice-recurring.ts'
import { fieldErrorsOf } from './invoice-actions-errors.ts'
import { today } from './payment-dialog.tsx'

// A schedule for repeating an invoice: every N weeks, months or years from a first day, until a
// day or for a number of invoices (or for good), each left a draft or finalized and sent.

type Frequency = (typeof recurrenceFrequencies)[number]
type Draft = {
	frequency: Frequency
	interval: string
	startDate: string
	end: 'never' | 'date' | 'count'
	endDate: string
	count: string
	action: 'draft' | 'send'
}

const frequencyWords: Record<Frequency, [string, string]> = {
	week: ['week', 'weeks'],
	month: ['month', 'months'],
	year: ['year', 'years'],
}

/** "Every month", "Every 3 months". */
export function everyText(frequency: Frequency, interval: number): string {
	const [one, many] = frequencyWords[frequency]
	return interval === 1 ? `Every ${one}` : `Every ${interval} ${many}`
}

function draftOf(recurrence: Recurrence | null): Draft {
	if (!recurrence) {
		return {
			frequency: 'month',
			interval: '1',
			startDate: today(),
			end: 'never',
			endDate: '',
			count: '',
			action: 'draft',
		}
	}
	return {
		frequency: recurrence.frequency,
		interval: String(recurrence.interval),
		startDate: recurrence.nextDate ?? today(),
		end: recurrence.endDate ? 'date' : recurrence.remaining !== null ? 'count' : 'never',
		endDate: recurrence.endDate ?? '',
		count: recurrence.remaining === null ? '' : String(recurrence.remaining),
		action: recurrence.action,
	}
}

const fields = ['frequency', 'interval', 'startDate', 'endDate', 'count', 'action', 'sourceId'] as const

type RecurringDialogProps = {
	/** Make this invoice recurring… */
	invoice?: Invoice
	/** …or change this series. */
	recurrence?: Recurrence
	trigger: ReactElement
}

export function RecurringDialog({ invoice, recurrence, trigger }: RecurringDialogProps) {
	const [isOpen, setIsOpen] = useState(false)
	const name = recurrence?.source.number ?? invoice?.number ?? 'the invoice'
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>{trigger}</DialogTrigger>
			<DialogContent
				title={recurrence ? `Schedule of ${name}` : `Repeat ${name}`}
				description="Each run copies the invoice with new dates; its lines, client and profile stay as they are."
			>
				{isOpen ? (
					<RecurringForm
						sourceId={invoice?.id ?? recurrence?.sourceId ?? ''}
						recurrence={recurrence ?? null}
						hasNoEmail={Boolean(invoice && !invoice.client?.email)}
						onDone={() => setIsOpen(false)}
					/>
				) : null}
			</DialogContent>
		</Dialog>
	)
}

function RecurringForm({
	sourceId,
	recurrence,
	hasNoEmail,
	onDone,
}: {
	sourceId: string
	recurrence: Recurrence | null
	/** The source invoice is known to have no client e-mail: sending runs would fail. */
	hasNoEmail: boolean
	onDone: () => void
}) {
	const queryClient = useQueryClient()
	const [draft, setDraft] = useState(() => draftOf(recurrence))
	const [errors, setErrors] = useState<Record<string, string>>({})
	const change = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }))
	const save = useMutation({
		mutationFn: () => {
			const schedule = {
				frequency: draft.frequency,
				interval: Number(draft.interval),
				startDate: draft.startDate,
				endDate: draft.end === 'date' ? draft.endDate : null,
				count: draft.end === 'count' ? Number(draft.count) : null,
				action: draft.action,
			}
			return recurrence ? updateRecurrence(recurrence.id, schedule) : createRecurrence({ sourceId, ...schedule })
		},
		meta: { isFormMutation: true },
		onSuccess: async (saved) => {
			await queryClient.invalidateQueries({ queryKey: ['invoices'] })
			toast.success(
				saved.nextDate
					? `${everyText(saved.frequency, saved.interval)}; the next invoice on ${saved.nextDate}.`
					: 'The schedule is saved.',
			)
			onDone()
		},
		onError: (error) => {
			if (error instanceof ApiError && error.fieldErrors.length > 0) {
				setErrors(fieldErrorsOf(error, fields))
			}
		},
	})

	function submit(event: FormEvent): void {
		event.preventDefault()
		const local: Record<string, string> = {}
		if (!/^\d+$/.test(draft.interval) || Number(draft.interval) < 1) {
			local.interval = 'Use a whole number of at least 1.'
		}
		if (!draft.startDate) {
			local.startDate = 'Choose the first day.'
		}
		if (draft.end === 'date' && !draft.endDate) {
			local.endDate = 'Choose the last day.'
		}
		if (draft.end === 'count' && (!/^\d+$/.test(draft.count) || Number(draft.count) < 1)) {
			local.count = 'Use a whole number of at least 1.'
		}
		setErrors(local)
		if (Object.keys(local).length === 0) {
			save.mutate()
		}
	}

	return (
		<form className="grid gap-4" onSubmit={submit} noValidate>
			<div className="grid grid-cols-[6rem_1fr] items-start gap-3">
				<Field label="Every" error={errors.interval} isRequired>
					<Input
						inputMode="numeric"
						value={draft.interval}
						onChange={(event) => change({ interval: event.target.value })}
					/>
				</Field>
				<Field label="Period" error={errors.frequency}>
					<NativeSelect
						value={draft.frequency}
						onChange={(event) => change({ frequency: event.target.value as Frequency })}
					>
						{recurrenceFrequencies.map((frequency) => (
							<option key={frequency} value={frequency}>
								{frequencyWords[frequency][1]}
							</option>
						))}
					</NativeSelect>
				</Field>
			</div>
			<Field
				label={recurrence ? 'Next invoice on' : 'First invoice on'}
				description={
					draft.frequency === 'month' ? 'Later months keep its day (the 31st becomes the month’s last).' : null
				}
				error={errors.startDate}
				isRequired
			>
				<Input type="date" value={draft.startDate} onChange={(event) => change({ startDate: event.target.value })} />
			</Field>
			<Field label="Ends" error={errors.end}>
				<NativeSelect value={draft.end} onChange={(event) => change({ end: event.target.value as Draft['end'] })}>
					<option value="never">Never</option>
					<option value="date">On a day</option>
					<option value="count">After a number of invoices</option>
				</NativeSelect>
			</Field>
			{draft.end === 'date' ? (
				<Field label="Last day" error={errors.endDate} isRequired>
					<Input type="date" value={draft.endDate} onChange={(event) => change({ endDate: event.target.value })} />
				</Field>
			) : null}
			{draft.end === 'count' ? (
				<Field label="Number of invoices" error={errors.count} isRequired>
					<Input inputMode="numeric" value={draft.count} onChange={(event) => change({ count: event.target.value })} />
				</Field>
			) : null}
			<Field
				label="Each invoice"
				description={
					draft.action === 'draft'
						? 'Left a draft for you to review, finalize and send.'
						: hasNoEmail
							? 'The client has no e-mail address on this invoice: each run would stop the series until one is added. Choose drafts, or add the address to a new invoice.'
							: 'Numbered and e-mailed to the client on its day, with the profile’s message.'
				}
				error={errors.action ?? errors.sourceId}
			>
				<NativeSelect
					value={draft.action}
					onChange={(event) => change({ action: event.target.value as Draft['action'] })}
				>
					<option value="draft">Draft to review</option>
					<option value="send">Finalize and send</option>
				</NativeSelect>
			</Field>
			<DialogFooter>
				<DialogClose asChild>
					<Button variant="outline">Cancel</Button>
				</DialogClose>
				<Button type="submit" isLoading={save.isPending}>
					{recurrence ? 'Save schedule' : 'Make recurring'}
				</Button>
			</DialogFooter>
		</form>
	)
}
