import { formatDecimalMoney, isCurrency } from '@blocksmith/contracts/invoice-currencies.ts'
import type { Invoice, paymentMethods } from '@blocksmith/contracts/invoice-documents.ts'
import type { InvoiceEvent } from '@blocksmith/contracts/invoice-sending.ts'
import { useQuery } from '@tanstack/react-query'
import { History } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '#src/components/ui/alert.tsx'
import { Button } from '#src/components/ui/button.tsx'
import { Dialog, DialogContent, DialogTrigger } from '#src/components/ui/dialog.tsx'
import { Skeleton } from '#src/components/ui/skeleton.tsx'
import { errorMessage } from '#src/lib/api-client.ts'
import { eventsQuery } from '../api/invoice-actions.ts'
import { methodLabels } from './payment-dialog.tsx'

// An invoice's history in words: what happened, when and by whom. The details are whatever the
// server recorded with each event, so every field is read as possibly missing.

const textOf = (value: unknown): string | null => (typeof value === 'string' && value ? value : null)
const listOf = (value: unknown): string[] =>
	Array.isArray(value) ? value.filter((one): one is string => typeof one === 'string') : []

/** One event as a sentence. */
function eventText(event: InvoiceEvent, currency: string): string {
	const detail = event.detail
	switch (event.kind) {
		case 'created':
			return 'Created as a draft'
		case 'finalized': {
			const corrects = textOf(detail.corrects)
			const number = textOf(detail.number)
			return corrects
				? `Issued as ${number ?? 'a credit note'}, correcting ${corrects}`
				: `Finalized as ${number ?? 'an invoice'}`
		}
		case 'sent': {
			if (detail.by === 'hand') {
				return 'Marked as sent'
			}
			const to = listOf(detail.to)
			const cc = listOf(detail.cc)
			return `Sent to ${to.join(', ') || 'the client'}${cc.length > 0 ? ` (cc ${cc.join(', ')})` : ''}`
		}
		case 'viewed':
			return 'Viewed by the client'
		case 'payment': {
			const amount = textOf(detail.amount)
			const method = methodLabels[detail.method as (typeof paymentMethods)[number]]
			const shown = amount && isCurrency(currency) ? formatDecimalMoney(amount, currency) : amount
			const date = textOf(detail.date)
			return `Paid ${shown ?? ''}${method ? ` by ${method.toLowerCase()}` : ''}${date ? ` on ${date}` : ''}`.replace(
				/\s+/g,
				' ',
			)
		}
		case 'payment_deleted':
			return 'A payment was deleted'
		case 'credited':
			return `Credited by ${textOf(detail.creditNote) ?? 'a credit note'}`
		case 'voided':
			return 'Voided'
		case 'recurring': {
			const error = textOf(detail.error)
			const day = textOf(detail.runDate)
			return error
				? `The recurring run of ${day ?? 'its day'} failed and the series was paused: ${error}`
				: `Made by a recurring schedule${day ? ` for ${day}` : ''}`
		}
		default:
			return event.kind.replaceAll('_', ' ')
	}
}

const timeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export function InvoiceHistoryDialog({ invoice }: { invoice: Invoice }) {
	const [isOpen, setIsOpen] = useState(false)
	return (
		<Dialog open={isOpen} onOpenChange={setIsOpen}>
			<DialogTrigger asChild>
				<Button variant="outline">
					<History aria-hidden /> History
				</Button>
			</DialogTrigger>
			<DialogContent title={`History of ${invoice.number ?? 'the invoice'}`}>
				{isOpen ? <InvoiceHistory invoice={invoice} /> : null}
			</DialogContent>
		</Dialog>
	)
}

function InvoiceHistory({ invoice }: { invoice: Invoice }) {
	const events = useQuery({ ...eventsQuery(invoice.id), meta: { isErrorShownInPage: true } })
	if (events.isPending) {
		return <Skeleton className="h-40 w-full" />
	}
	if (!events.data) {
		return (
			<Alert variant="error" title="The history could not be loaded">
				{errorMessage(events.error)}
			</Alert>
		)
	}
	if (events.data.length === 0) {
		return <p className="text-muted-foreground text-sm">Nothing recorded yet.</p>
	}
	return (
		<ol aria-label="History" className="grid gap-3 border-l pl-4">
			{events.data.map((event) => (
				<li key={event.id} className="relative text-sm">
					<span aria-hidden className="-left-[1.3rem] absolute top-1.5 size-2 rounded-full bg-muted-foreground/60" />
					<p className={event.kind === 'recurring' && event.detail.error ? 'text-error' : undefined}>
						{eventText(event, invoice.currency)}
					</p>
					<p className="text-muted-foreground text-xs">
						<time dateTime={event.at}>{timeFormat.format(new Date(event.at))}</time>
						{event.actorName ? ` · ${event.actorName}` : ''}
					</p>
				</li>
			))}
		</ol>
	)
}
