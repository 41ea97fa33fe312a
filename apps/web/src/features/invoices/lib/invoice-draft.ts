import type {
	ClientRow,
	Invoice,
	InvoiceClient,
	InvoiceStatus,
	UpdateInvoice,
} from '@blocksmith/contracts/invoice-documents.ts'
import { computeInvoiceTotals, type Discount, type DocumentDiscount } from '@blocksmith/contracts/invoice-money.ts'
import type { InvoiceProfile } from '@blocksmith/contracts/invoices.ts'

// The editor's copy of a draft: what the fields hold while typing (strings, as typed), turned
// into the PATCH body the server takes, and the live totals from the same money core the server
// uses. The server's figures, returned by each save, stay the truth.

export type LineDraft = {
	/** Local only: keeps React's rows (and their focus) attached to the right line when lines move. */
	key: string
	description: string
	quantity: string
	unit: string
	unitPrice: string
	taxRateId: string
	discount: Discount | null
}

export type ClientDraft = {
	name: string
	email: string
	taxId: string
	addressLines: string
	postcode: string
	city: string
	country: string
}

export type InvoiceDraft = {
	profileId: string
	/** 'typed' uses `client`; 'row' uses `clientRow`. */
	clientSource: 'typed' | 'row'
	client: ClientDraft
	clientRow: ClientRow | null
	currency: string
	issueDate: string
	dueDate: string
	lines: LineDraft[]
	discounts: DocumentDiscount[]
	notes: string
}

let lineCounter = 0
export function newLineKey(): string {
	lineCounter += 1
	return `line-${lineCounter}`
}

function clientDraftOf(client: InvoiceClient | null): ClientDraft {
	return {
		name: client?.name ?? '',
		email: client?.email ?? '',
		taxId: client?.taxId ?? '',
		addressLines: client?.address?.lines.join('\n') ?? '',
		postcode: client?.address?.postcode ?? '',
		city: client?.address?.city ?? '',
		country: client?.address?.country ?? '',
	}
}

export function draftOf(invoice: Invoice): InvoiceDraft {
	return {
		profileId: invoice.profileId,
		clientSource: invoice.clientRow ? 'row' : 'typed',
		client: clientDraftOf(invoice.client),
		clientRow: invoice.clientRow,
		currency: invoice.currency,
		issueDate: invoice.issueDate,
		dueDate: invoice.dueDate ?? '',
		lines: invoice.lines.map((line) => ({
			key: newLineKey(),
			description: line.description,
			quantity: line.quantity,
			unit: line.unit ?? '',
			unitPrice: line.unitPrice,
			taxRateId: line.taxRateId,
			discount: line.discount ?? null,
		})),
		discounts: invoice.discounts,
		notes: invoice.notes ?? '',
	}
}

const orNull = (value: string) => (value.trim() === '' ? null : value.trim())

function clientOf(client: ClientDraft): InvoiceClient | null {
	if (!client.name.trim()) {
		// A client without a name is no client yet: saved as none, so the rest of the draft saves.
		return null
	}
	const lines = client.addressLines
		.split('\n')
		.map((line) => line.trim())
		.filter(Boolean)
	const hasAddress = lines.length > 0 || client.postcode.trim() || client.city.trim() || client.country.trim()
	return {
		name: client.name.trim(),
		email: orNull(client.email),
		taxId: orNull(client.taxId),
		address: hasAddress
			? {
					lines,
					postcode: client.postcode.trim(),
					city: client.city.trim(),
					country: client.country.trim().toUpperCase(),
				}
			: null,
	}
}

/** The PATCH body: every field, so the saved draft is exactly what the editor shows. */
export function changesOf(draft: InvoiceDraft): UpdateInvoice {
	const isRow = draft.clientSource === 'row' && draft.clientRow !== null
	return {
		profileId: draft.profileId,
		client: isRow ? null : clientOf(draft.client),
		clientRow: isRow ? draft.clientRow : null,
		currency: draft.currency.trim().toUpperCase(),
		issueDate: draft.issueDate,
		dueDate: draft.dueDate || null,
		lines: draft.lines.map((line) => ({
			description: line.description,
			quantity: line.quantity,
			unit: orNull(line.unit),
			unitPrice: line.unitPrice,
			taxRateId: line.taxRateId,
			discount: line.discount,
		})),
		discounts: draft.discounts,
		notes: orNull(draft.notes),
	}
}

/** The totals as the server will compute them, or the field errors it would answer. */
export function liveTotals(draft: InvoiceDraft, profile: InvoiceProfile | undefined) {
	return computeInvoiceTotals({
		currency: draft.currency.trim().toUpperCase(),
		lines: draft.lines.map((line) => ({
			quantity: line.quantity.trim(),
			unitPrice: line.unitPrice.trim(),
			taxRateId: line.taxRateId,
			discount: line.discount,
		})),
		taxRates: profile?.taxRates ?? [],
		discounts: draft.discounts,
		lineRounding: profile?.isLineLevelVatRounding ?? false,
	})
}

export type StatusLook = { label: string; variant: 'neutral' | 'primary' | 'success' | 'warning' | 'error' }

export const statusLooks: Record<InvoiceStatus | 'overdue', StatusLook> = {
	draft: { label: 'Draft', variant: 'neutral' },
	finalized: { label: 'Finalized', variant: 'primary' },
	sent: { label: 'Sent', variant: 'primary' },
	partially_paid: { label: 'Partially paid', variant: 'warning' },
	paid: { label: 'Paid', variant: 'success' },
	void: { label: 'Void', variant: 'neutral' },
	overdue: { label: 'Overdue', variant: 'error' },
}

/** Whole days from the due date to `today` (both YYYY-MM-DD), as calendar days, never instants. */
export function daysOverdue(dueDate: string, today: string): number {
	const day = (text: string) =>
		Date.UTC(Number(text.slice(0, 4)), Number(text.slice(5, 7)) - 1, Number(text.slice(8, 10)))
	return Math.max(0, Math.round((day(today) - day(dueDate)) / 86_400_000))
}

/** Today as the user's calendar has it. */
export function todayLocal(now = new Date()): string {
	const pad = (value: number) => String(value).padStart(2, '0')
	return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`
}

/** Field errors of a 400 (or of the live totals) by their field path (`lines.2.unitPrice`). */
export type FieldErrors = Record<string, string>

/** A tax rate as a choice: its name, with the percentage when the name does not say it. */
export function rateLabel(rate: { name: string; rate: string }): string {
	return rate.name.includes(rate.rate) ? rate.name : `${rate.name} (${rate.rate} %)`
}
