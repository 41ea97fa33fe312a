import { decimalToMinor, formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import { type Invoice, type Payment, paymentMethods } from '@blocksmith/contracts/invoice-documents.ts'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Banknote, Trash2 } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { toast } from 'sonner'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import {
	ConfirmDialog,
	Dialog,
	DialogClose,
	DialogContent,
	DialogFooter,
	DialogTrigger,
} from '#src/components/ui/dialog.tsx'
import { Field } from '#src/components/ui/field.tsx'
import { Input } from '#src/components/ui/input.tsx'
import { NativeSelect } from '#src/components/ui/native-select.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { Textarea } from '#src/components/ui/textarea.tsx'
import { ApiError, errorMessage } from '#src/lib/api-client.ts'
import { deletePayment, paymentsQuery, recordPayment } from '../api/invoice-actions.ts'
import { fieldErrorsOf } from './invoice-actions-errors.ts'

// A payment recorded by hand (a bank transfer seen on the statement, cash). The amount is typed
// in the currency's decimals and sent as that decimal string: the server refuses more decimals
// than the currency has instead of rounding, and says so on `amount`.

export const methodLabels: Record<(typeof paymentMethods)[number], string> = {
	bank_transfer: 'Bank transfer',
	card: 'Card',
	cash: 'Cash',
	paypal: 'PayPal',
	stripe: 'Stripe',
	other: 'Other',
}

/** Today in the user's time zone, as a calendar day. */
export function today(now = new Date()): string {
	const pad = (value: number) => String(value).padStart(2, '0')
	return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

type Draft = { date: string; amount: string; method: (typeof paymentMethods)[number]; note: string }
const fields = ['date', 'amount', 'method', 'note'] as const

export function PaymentDialog({ invoice }: { invoice: Invoice }) {
	const [isOpen, setIsOpen] = useState(false)
	const canPay = invoice.kind === 'invoice' && invoice.status !== 'void' && invoice.status !== 'draft'
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button variant="outline" disabled={!canPay}>
					<Banknote aria-hidden /> Record payment
				</Button>
			</DialogTrigger>
			<DialogContent
				title={`Payments of ${invoice.number ?? 'the invoice'}`}
				description={`Due: ${formatMoney(invoice.due.minor, invoice.currency)} of ${formatMoney(invoice.total.minor, invoice.currency)}.`}
			>
				{isOpen ? <PaymentBody invoice={invoice} onDone={() => setIsOpen(false)} /> : null}
			</DialogContent>
		</Dialog>
	)
}

function PaymentBody({ invoice, onDone }: { invoice: Invoice; onDone: () => void }) {
	const queryClient = useQueryClient()
	const payments = useQuery(paymentsQuery(invoice.id))
	const [draft, setDraft] = useState<Draft>({
		date: today(),
		amount: invoice.due.minor > 0 ? invoice.due.decimal : '',
		method: 'bank_transfer',
		note: '',
	})
	const [errors, setErrors] = useState<Partial<Record<(typeof fields)[number], string>>>({})
	const record = useMutation({
		mutationFn: () =>
			recordPayment(invoice.id, { ...draft, amount: draft.amount.trim(), note: draft.note.trim() || null }),
		meta: { isFormMutation: true },
		onSuccess: async (payment) => {
			await queryClient.invalidateQueries({ queryKey: ['invoices'] })
			toast.success(`Recorded ${formatMoney(payment.amount.minor, invoice.currency)}.`)
			onDone()
		},
		onError: (error) => {
			// Problems without field errors are the query client's toast; field errors go on their fields.
			if (error instanceof ApiError && error.fieldErrors.length > 0) {
				setErrors(fieldErrorsOf(error, fields))
			}
		},
	})
	const change = (changes: Partial<Draft>) => setDraft((current) => ({ ...current, ...changes }))

	function submit(event: FormEvent): void {
		event.preventDefault()
		// The currency's own rule at once (JPY has no decimals, BHD three); what is due, the server checks.
		const amount = draft.amount.trim() ? decimalToMinor(draft.amount, invoice.currency) : null
		if (!amount?.ok || amount.minor <= 0n) {
			setErrors({
				amount: amount && !amount.ok ? amount.message : 'Enter the amount received, above 0.',
			})
			return
		}
		setErrors({})
		record.mutate()
	}

	return (
		<div className="grid gap-5">
			<PaymentList invoice={invoice} payments={payments.data} isPending={payments.isPending} error={payments.error} />
			{invoice.due.minor > 0 ? (
				<form className="grid gap-4" onSubmit={submit} noValidate>
					<div className="grid items-start gap-4 sm:grid-cols-2">
						<Field label="Date" error={errors.date} isRequired>
							<Input type="date" value={draft.date} onChange={(event) => change({ date: event.target.value })} />
						</Field>
						<Field label={`Amount (${invoice.currency})`} error={errors.amount} isRequired>
							<Input
								inputMode="decimal"
								value={draft.amount}
								onChange={(event) => change({ amount: event.target.value })}
							/>
						</Field>
					</div>
					<Field label="Method" error={errors.method}>
						<NativeSelect
							value={draft.method}
							onChange={(event) => change({ method: event.target.value as Draft['method'] })}
						>
							{paymentMethods.map((method) => (
								<option key={method} value={method}>
									{methodLabels[method]}
								</option>
							))}
						</NativeSelect>
					</Field>
					<Field label="Note" error={errors.note}>
						<Textarea rows={2} value={draft.note} onChange={(event) => change({ note: event.target.value })} />
					</Field>
					<DialogFooter>
						<DialogClose asChild>
							<Button variant="outline">Cancel</Button>
						</DialogClose>
						<Button type="submit" isLoading={record.isPending}>
							Record payment
						</Button>
					</DialogFooter>
				</form>
			) : (
				<Alert variant="success">Nothing is left to pay on this invoice.</Alert>
			)}
		</div>
	)
}

function PaymentList({
	invoice,
	payments,
	isPending,
	error,
}: {
	invoice: Invoice
	payments: Payment[] | undefined
	isPending: boolean
	error: unknown
}) {
	const queryClient = useQueryClient()
	const remove = useMutation({
		mutationFn: (payment: Payment) => deletePayment(invoice.id, payment.id),
		onSuccess: async () => {
			await queryClient.invalidateQueries({ queryKey: ['invoices'] })
			toast.success('The payment is deleted; the amount is due again.')
		},
	})
	if (isPending) {
		return <Skeleton className="h-12 w-full" />
	}
	if (!payments) {
		return (
			<Alert variant="error" title="The payments could not be loaded">
				{errorMessage(error)}
			</Alert>
		)
	}
	if (payments.length === 0) {
		return <p className="text-muted-foreground text-sm">No payment recorded yet.</p>
	}
	return (
		<ul aria-label="Payments" className="divide-y rounded-lg border">
			{payments.map((payment) => {
				const amount = formatMoney(payment.amount.minor, invoice.currency)
				return (
					<li key={payment.id} className="flex items-center gap-3 px-3 py-2 text-sm">
						<div className="min-w-0 flex-1">
							<p className="font-medium tabular-nums">
								{amount} <span className="font-normal text-muted-foreground">· {methodLabels[payment.method]}</span>
							</p>
							<p className="truncate text-muted-foreground text-xs">
								{payment.date}
								{payment.note ? ` · ${payment.note}` : ''}
							</p>
						</div>
						<ConfirmDialog
							title={`Delete the payment of ${amount}?`}
							description="Only for a payment recorded by mistake: the amount is due again and the status follows."
							confirmLabel="Delete payment"
							isDestructive
							onConfirm={() => remove.mutateAsync(payment)}
							trigger={
								<Button
									variant="ghost"
									size="icon-sm"
									aria-label={`Delete the payment of ${amount} on ${payment.date}`}
								>
									<Trash2 aria-hidden />
								</Button>
							}
						/>
					</li>
				)
			})}
		</ul>
	)
}
