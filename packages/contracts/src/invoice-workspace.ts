import { z } from 'zod'
import { idSchema } from './common.ts'
import { clientRowSchema, invoiceStatuses, rowLineMappingSchema } from './invoice-documents.ts'
import { workspaceToolSchema } from './workspaces.ts'

// The organization's invoices database (issue 17, items 3 and 6): a workspace database whose
// rows are invoices, mapped property by property. Finalized invoices get a row there; their
// status, paid date and amounts are written back to it through the write queue, and
// `sync_invoices` puts our figures back where someone changed them in the workspace. Why:
// docs/decisions/035-invoices-workspace-rows.md.

/** A property of the invoices database (or of the database a relation points at), by id. */
const propertyRefSchema = z.string().min(1).max(200)
const optionalRef = propertyRefSchema.nullable().default(null)

/** Our statuses, and `overdue` (derived, written only by `sync_invoices`). */
export const rowStatusKeys = [...invoiceStatuses, 'overdue'] as const
type RowStatusKey = (typeof rowStatusKeys)[number]

const optionNameSchema = z.string().trim().min(1).max(100).nullable().default(null)

/**
 * Which option of the status property each of our statuses is written as; a status left null
 * is not written (the row keeps what it has).
 */
export const statusOptionsSchema = z.object(
	Object.fromEntries(rowStatusKeys.map((key) => [key, optionNameSchema])) as Record<
		RowStatusKey,
		typeof optionNameSchema
	>,
)
export type StatusOptions = z.infer<typeof statusOptionsSchema>

/**
 * The mapping of an invoices database. `number` (the title or a text) is required; every other
 * field is written only where it is mapped. `amount` is the total including tax, written as the
 * exact decimal of the stored total. `clientMapping` says how the client's details are read from
 * the row the `client` relation points at (as `clientRow.mapping` of a draft); `lineItems` is an
 * optional relation to a database whose rows become the invoice's lines.
 */
export const invoiceDatabaseMappingSchema = z.object({
	number: propertyRefSchema,
	client: optionalRef,
	amount: optionalRef,
	netAmount: optionalRef,
	taxAmount: optionalRef,
	amountDue: optionalRef,
	currency: optionalRef,
	issueDate: optionalRef,
	dueDate: optionalRef,
	paidDate: optionalRef,
	paid: optionalRef,
	status: optionalRef,
	statusOptions: statusOptionsSchema.default(() => statusOptionsSchema.parse({})),
	/** A url property: the invoice's public page. */
	link: optionalRef,
	clientMapping: clientRowSchema.shape.mapping.nullable().default(null),
	lineItems: z.object({ propertyId: propertyRefSchema, mapping: rowLineMappingSchema }).nullable().default(null),
})
export type InvoiceDatabaseMapping = z.infer<typeof invoiceDatabaseMappingSchema>

/** The fields of a mapping a review speaks of, in the order a page shows them. */
export const invoiceMappingFields = [
	'number',
	'client',
	'amount',
	'netAmount',
	'taxAmount',
	'amountDue',
	'currency',
	'issueDate',
	'dueDate',
	'paidDate',
	'paid',
	'status',
	'link',
	'clientMapping',
	'lineItems',
] as const
export type InvoiceMappingField = (typeof invoiceMappingFields)[number]

export const invoiceMappingReviewSchema = z.object({
	mapping: invoiceDatabaseMappingSchema,
	fields: z.array(
		z.object({
			field: z.enum(invoiceMappingFields),
			propertyId: z.string().nullable(),
			propertyName: z.string().nullable(),
			isMapped: z.boolean(),
			isRequired: z.boolean(),
			/** What is missing and what that means, in words; null when mapped. */
			message: z.string().nullable(),
		}),
	),
	/** Our statuses no option is chosen for (they are not written). */
	unmappedStatuses: z.array(z.enum(rowStatusKeys)),
	/** Invoices can be written to the database. */
	isComplete: z.boolean(),
})
export type InvoiceMappingReview = z.infer<typeof invoiceMappingReviewSchema>

const databaseRefSchema = z.object({
	id: z.string(),
	workspaceId: z.string(),
	tool: workspaceToolSchema,
	name: z.string(),
})

export const invoiceDatabaseStateSchema = z.object({
	/** The mapped database, its mapping checked against it as it is now; null when none is mapped. */
	mapped: databaseRefSchema
		.extend({ review: invoiceMappingReviewSchema, lastSyncAt: z.string().nullable() })
		.nullable(),
	/** The databases of this tool's workspaces, each with a mapping guessed from its properties. */
	candidates: z.array(databaseRefSchema.extend({ suggested: invoiceMappingReviewSchema })),
})
export type InvoiceDatabaseState = z.infer<typeof invoiceDatabaseStateSchema>

export const saveInvoiceDatabaseSchema = z.object({
	databaseId: idSchema,
	mapping: invoiceDatabaseMappingSchema,
})
export type SaveInvoiceDatabase = z.input<typeof saveInvoiceDatabaseSchema>

export const invoiceRowsQuerySchema = z.object({
	limit: z.coerce.number().int().min(1).max(200).default(50),
	cursor: z.string().max(200).optional(),
	/** In the row's title (the number). */
	search: z.string().trim().max(200).optional(),
})

export const invoiceRowSchema = z.object({
	/** The row's id (as the rows API names it). */
	id: z.string(),
	number: z.string().nullable(),
	clientNames: z.array(z.string()),
	/** The amount as the row holds it, an exact decimal string. */
	amount: z.string().nullable(),
	issueDate: z.string().nullable(),
	dueDate: z.string().nullable(),
	/** The status option the row holds. */
	status: z.string().nullable(),
	paid: z.boolean().nullable(),
	/** Our document kept in this row. */
	document: z
		.object({
			id: z.string(),
			number: z.string().nullable(),
			status: z.enum(invoiceStatuses),
			dueDate: z.string().nullable(),
			isOverdue: z.boolean(),
		})
		.nullable(),
})
export type InvoiceRow = z.infer<typeof invoiceRowSchema>

export const invoiceRowPageSchema = z.object({
	rows: z.array(invoiceRowSchema),
	nextCursor: z.string().nullable(),
})

export const draftFromRowSchema = z.object({
	/** The default profile when left out. */
	profileId: idSchema.optional(),
	/** The rate of the lines; the profile's default rate when left out. */
	taxRateId: idSchema.optional(),
})
export type DraftFromRow = z.input<typeof draftFromRowSchema>

export const invoiceSyncSchema = z.object({
	/** Linked rows read (changed in the workspace since the last sync, or overdue). */
	checked: z.number().int(),
	/** Rows a write was queued for. */
	pushed: z.number().int(),
	unchanged: z.number().int(),
	/** Changed rows no document of ours is kept in. */
	notLinked: z.number().int(),
	/** Rows whose write was refused (a property or option gone), named in `pushes`. */
	failed: z.number().int(),
	at: z.string(),
	/** What was written (at most 50): the number and each status changed, from → to. */
	pushes: z.array(
		z.object({
			number: z.string().nullable(),
			from: z.string().nullable(),
			to: z.string().nullable(),
			error: z.string().nullable().default(null),
		}),
	),
})
export type InvoiceSync = z.infer<typeof invoiceSyncSchema>
