import { formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import type { Invoice } from '@blocksmith/contracts/invoice-documents.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { FileMinus } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Checkbox } from '#src/components/ui/checkbox.tsx'
import { Dialog, DialogClose, DialogContent, DialogFooter, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { createCreditNote, creditNotesQuery } from '../api/invoice-actions.ts'
import {
	type CreditChoice,
	creditTotal,
	isMoreThan,
	type OpenLine,
	openLines,
	quantityText,
} from './credit-note-lines.ts'
import { fieldErrorsOf } from './invoice-actions-errors.ts'

// A credit note is the only correction of a finalized invoice: all that is still open, or some
// lines with quantities up to what earlier credit notes left of them.

export function CreditNoteDialog({ invoice }: { invoice: Invoice }) {
	const [isOpen, setIsOpen] = useState(false)
	const canCredit = invoice.kind === 'invoice' && invoice.status !== 'void' && invoice.status !== 'draft'
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button variant="outline" disabled={!canCredit}>
					<FileMinus aria-hidden /> Credit note
				</Button>
			</DialogTrigger>
			<DialogContent
				size="lg"
				title={`Credit note for ${invoice.number ?? 'the invoice'}`}
				description="A numbered document that takes lines off the invoice; what it credits is no longer due."
			>
				{isOpen ? <CreditNoteBody invoice={invoice} onDone={() => setIsOpen(false)} /> : null}
			</DialogContent>
		</Dialog>
	)
}

function CreditNoteBody({ invoice, onDone }: { invoice: Invoice; onDone: () => void }) {
	const notes = useQuery(creditNotesQuery(invoice))
	if (notes.isPending) {
		return <Skeleton className="h-40 w-full" />
	}
	if (!notes.data) {
		return (
			<Alert variant="error" title="The earlier credit notes could not be read">
				{errorMessage(notes.error)}
			</Alert>
		)
	}
	const open = openLines(invoice, notes.data)
	if (open.length === 0) {
		return <Alert variant="info">Every line of this invoice was credited already.</Alert>
	}
	return <CreditNoteForm invoice={invoice} creditNotes={notes.data} open={open} onDone={onDone} />
}

type Choice = { isChosen: boolean; quantity: string }

function CreditNoteForm({
	invoice,
	creditNotes,
	open,
	onDone,
}: {
	invoice: Invoice
	/** The invoice's earlier credit notes: what they left of each line and of each discount. */
	creditNotes: readonly Invoice[]
	open: OpenLine[]
	onDone: () => void
}) {
	const queryClient = useQueryClient()
	const [isAll, setIsAll] = useState(true)
	const [choices, setChoices] = useState<Record<number, Choice>>(() =>
		Object.fromEntries(open.map((line) => [line.index, { isChosen: false, quantity: line.left }])),
	)
	const [note, setNote] = useState('')
	const [errors, setErrors] = useState<Record<string, string>>({})
	const chosen: CreditChoice[] = isAll
		? open.map((line) => ({ line: line.index, quantity: line.left }))
		: open.flatMap((line) => {
				const choice = choices[line.index]
				return choice?.isChosen ? [{ line: line.index, quantity: choice.quantity }] : []
			})
	const totals = creditTotal(invoice, chosen, creditNotes)
	const create = useMutation({
		mutationFn: () =>
			createCreditNote(invoice.id, {
				...(isAll ? {} : { lines: chosen.map((choice) => ({ line: choice.line, quantity: choice.quantity.trim() })) }),
				notes: note.trim() || null,
			}),
		meta: { isFormMutation: true },
		onSuccess: async (creditNote) => {
			await queryClient.invalidateQueries({ queryKey: ['invoices'] })
			toast.success(`Credit note ${creditNote.number ?? ''} issued.`)
			onDone()
		},
		onError: (error) => {
			if (error instanceof ApiError && error.fieldErrors.length > 0) {
				// The server names the position in the list sent; the form shows it on the invoice's line.
				const byField = fieldErrorsOf(error, ['lines', 'notes'])
				setErrors(
					Object.fromEntries(
						Object.entries(byField).map(([field, message]) => {
							const match = /^lines\.(\d+)\./.exec(field)
							const choice = match ? chosen[Number(match[1])] : undefined
							return [choice ? `line.${choice.line}` : field, message]
						}),
					),
				)
			}
		},
	})

	function submit(event: FormEvent): void {
		event.preventDefault()
		const local: Record<string, string> = {}
		for (const choice of chosen) {
			const left = open.find((line) => line.index === choice.line)?.left ?? '0'
			if (!creditTotal(invoice, [choice])) {
				local[`line.${choice.line}`] = 'Enter a quantity above 0.'
			} else if (isMoreThan(choice.quantity, left)) {
				local[`line.${choice.line}`] = `Credit at most what is left of the line (${left}).`
			}
		}
		if (chosen.length === 0) {
			local.lines = 'Choose at least one line.'
		}
		setErrors(local)
		if (Object.keys(local).length === 0) {
			create.mutate()
		}
	}

	const setChoice = (index: number, changes: Partial<Choice>) =>
		setChoices((current) => ({ ...current, [index]: { ...(current[index] as Choice), ...changes } }))

	return (
		<form className="grid gap-4" onSubmit={submit} noValidate>
			<fieldset className="grid gap-2">
				<legend className="mb-1 font-medium text-sm">What to credit</legend>
				<label className="flex items-center gap-2 text-sm">
					<input type="radio" name="scope" checked={isAll} onChange={() => setIsAll(true)} className="accent-primary" />
					Everything still open
				</label>
				<label className="flex items-center gap-2 text-sm">
					<input
						type="radio"
						name="scope"
						checked={!isAll}
						onChange={() => setIsAll(false)}
						className="accent-primary"
					/>
					Some lines
				</label>
			</fieldset>
			<ul aria-label="Lines still open" className="divide-y rounded-lg border">
				{open.map((line) => {
					const choice = choices[line.index] as Choice
					return (
						<li key={line.index} className="grid gap-2 px-3 py-2 sm:grid-cols-[1fr_9rem] sm:items-start">
							<div className="flex items-start gap-2">
								{isAll ? null : (
									<Checkbox
										className="mt-0.5"
										aria-label={`Credit ${line.description}`}
										checked={choice.isChosen}
										onCheckedChange={(checked) => setChoice(line.index, { isChosen: checked === true })}
									/>
								)}
								<div className="min-w-0 text-sm">
									<p className="font-medium">{line.description}</p>
									<p className="text-muted-foreground text-xs">Left to credit: {quantityText(line.left, line.unit)}</p>
								</div>
							</div>
							{isAll ? null : (
								<Field
									label={`Quantity to credit of ${line.description}`}
									isLabelHidden
									error={errors[`line.${line.index}`]}
								>
									<Input
										inputMode="decimal"
										disabled={!choice.isChosen}
										value={choice.quantity}
										onChange={(event) => setChoice(line.index, { quantity: event.target.value })}
									/>
								</Field>
							)}
						</li>
					)
				})}
			</ul>
			{errors.lines ? (
				<p role="alert" className="text-[13px] text-error">
					{errors.lines}
				</p>
			) : null}
			<Field label="Reason" description="Printed on the credit note." error={errors.notes}>
				<Textarea rows={2} value={note} onChange={(event) => setNote(event.target.value)} />
			</Field>
			<p className="text-sm" aria-live="polite">
				{totals ? (
					<>
						Credit total:{' '}
						<strong className="tabular-nums">{formatMoney(-totals.taxInclusiveAmount.minor, invoice.currency)}</strong>{' '}
						<span className="text-muted-foreground">({formatMoney(-totals.vatTotal.minor, invoice.currency)} VAT)</span>
					</>
				) : (
					<span className="text-muted-foreground">Choose what to credit to see its total.</span>
				)}
			</p>
			<DialogFooter>
				<DialogClose asChild>
					<Button variant="outline">Cancel</Button>
				</DialogClose>
				<Button type="submit" isLoading={create.isPending}>
					Issue credit note
				</Button>
			</DialogFooter>
		</form>
	)
}
