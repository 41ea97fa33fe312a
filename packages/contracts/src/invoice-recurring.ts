import { z } from 'zod'
import { idSchema } from './common.ts'
import { invoiceDaySchema, invoiceStatusSchema } from './invoice-documents.ts'

// Recurring invoices under /dashboard/{tool}_invoice/recurring (issue 17 item 5): an invoice of
// the organization copied as a new invoice on each date of a schedule, left a draft or finalized
// and sent. Decision 037.

export const recurrenceFrequencies = ['week', 'month', 'year'] as const

const schedule = {
	frequency: z.enum(recurrenceFrequencies),
	/** Every `interval` weeks, months or years. */
	interval: z.number().int().min(1, 'Use an interval of at least 1.').max(100, 'Use an interval of at most 100.'),
	/** The last day a run may fall on (inclusive); none: no end. */
	endDate: invoiceDaySchema.nullable(),
	/** How many invoices the series produces (from now on); none: no limit. */
	count: z.number().int().min(1, 'Produce at least one invoice.').max(1000, 'Use at most 1000.').nullable(),
	/** `draft`: each run is a draft to review; `send`: finalized and sent by e-mail. */
	action: z.enum(['draft', 'send']),
}

export const createRecurrenceSchema = z.object({
	/** An invoice of the organization (a draft or finalized; not a credit note). */
	sourceId: idSchema,
	/** The first run's day; months keep its day (31 Jan → 28/29 Feb → 31 Mar). */
	startDate: invoiceDaySchema,
	...schedule,
	endDate: schedule.endDate.optional(),
	count: schedule.count.optional(),
})
export type CreateRecurrence = z.input<typeof createRecurrenceSchema>

/** A change: pause or resume (`isActive`), or a new schedule from `startDate` on. */
export const updateRecurrenceSchema = z
	.object({ ...schedule, startDate: invoiceDaySchema, isActive: z.boolean() })
	.partial()
export type UpdateRecurrence = z.input<typeof updateRecurrenceSchema>

const moneySchema = z.object({ minor: z.number().int(), decimal: z.string() })

export const recurrenceSchema = z.object({
	id: z.string(),
	sourceId: z.string(),
	source: z.object({
		number: z.string().nullable(),
		status: invoiceStatusSchema,
		clientName: z.string().nullable(),
		currency: z.string(),
		total: moneySchema,
	}),
	frequency: z.enum(recurrenceFrequencies),
	interval: z.number().int(),
	anchorDate: z.string(),
	/** The next run's day; null once the series ended. */
	nextDate: z.string().nullable(),
	endDate: z.string().nullable(),
	/** Runs left; null: no limit. */
	remaining: z.number().int().nullable(),
	action: z.enum(['draft', 'send']),
	isActive: z.boolean(),
	runs: z.number().int(),
	lastRunAt: z.string().nullable(),
	lastDocumentId: z.string().nullable(),
	/** Why the last run failed (the series was paused then); null after a run that worked. */
	lastError: z.object({ message: z.string(), at: z.string() }).nullable(),
	createdAt: z.string(),
	updatedAt: z.string(),
})
export type Recurrence = z.infer<typeof recurrenceSchema>
