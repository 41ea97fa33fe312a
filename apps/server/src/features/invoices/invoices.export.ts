import { Readable } from 'node:stream'
import { and, asc, eq, ne } from 'drizzle-orm'
import type { ExportContext, ExportContributor } from '#src/core/exports/exports.contributor.ts'
import { archiveName, uniqueName } from '#src/core/exports/exports.names.ts'
import type { InvoicesCtx, InvoicesDeps } from './invoices.deps.ts'
import { invoiceDocumentOf } from './invoices.documents.pdf.ts'
import { invoiceDocuments, invoiceEvents, invoicePayments, invoiceRecurrences } from './invoices.documents.schema.ts'
import { eInvoiceXml } from './invoices.einvoice.ts'
import { renderInvoicePdf } from './invoices.pdf.ts'
import {
	invoiceCounters,
	invoiceNumbers,
	invoiceProfiles,
	invoiceStripeAccounts,
	invoiceTaxRates,
} from './invoices.schema.ts'
import { invoiceDatabases, invoiceFilters } from './invoices.workspace.schema.ts'

// The invoices part of an organization's export (decision 040). Under invoices/:
// - settings.json: profiles (sender details, numbering, design) with their tax rates (retired
//   ones too), numbering counters and every number issued, the connected Stripe account by
//   name and id only (never its secret key or webhook secret), the invoices database's mapping,
//   saved filters;
// - documents.json: every invoice and credit note as stored, drafts included, each with its
//   payments and history;
// - recurrences.json: the recurring schedules;
// - for each finalized document its PDF (<number>.pdf) and its e-invoice as the download's first
//   choice, UBL (<number>-ubl.xml); a document that cannot be an e-invoice (no client address,
//   three-decimal currency…) has none, documents.json says why. PDFs are drawn one at a time.

const page = 100

export function createInvoicesExport(deps: InvoicesDeps): ExportContributor {
	return { label: 'Invoices', run: (context) => exportInvoices(deps, context) }
}

async function exportInvoices(deps: InvoicesDeps, context: ExportContext): Promise<void> {
	const { archive, organizationId } = context
	const profileIds = await addSettings(context)
	archive.record('invoiceProfiles', profileIds)
	const ctx: InvoicesCtx = { ...deps, db: context.db, orgId: organizationId, userId: '', role: 'owner' }
	const documentIds: string[] = []
	const paymentIds: string[] = []
	const problems = new Map<string, string[]>()
	// The files first, a document at a time; documents.json then says which have no e-invoice.
	const names = new Set<string>()
	for (let offset = 0; ; offset += page) {
		const rows = await context.db
			.select({ id: invoiceDocuments.id, number: invoiceDocuments.number })
			.from(invoiceDocuments)
			.where(and(eq(invoiceDocuments.organizationId, organizationId), ne(invoiceDocuments.status, 'draft')))
			.orderBy(asc(invoiceDocuments.createdAt), asc(invoiceDocuments.id))
			.limit(page)
			.offset(offset)
		for (const row of rows) {
			const document = await invoiceDocumentOf(ctx, row.id)
			const name = uniqueName(archiveName(row.number ?? row.id), names)
			await archive.addFile(`invoices/${name}.pdf`, await renderInvoicePdf(document))
			const xml = eInvoiceXml(document, 'ubl')
			if (xml.ok) {
				await archive.addFile(`invoices/${name}-ubl.xml`, xml.xml)
			} else {
				problems.set(
					row.id,
					xml.errors.map((error) => `${error.field}: ${error.message}`),
				)
			}
		}
		if (rows.length < page) {
			break
		}
	}
	await archive.addFile(
		'invoices/documents.json',
		Readable.from(documentsJson(context, problems, documentIds, paymentIds)),
	)
	archive.record('invoices', documentIds)
	archive.record('invoicePayments', paymentIds)
	const recurrences = await context.db
		.select()
		.from(invoiceRecurrences)
		.where(eq(invoiceRecurrences.organizationId, organizationId))
		.orderBy(asc(invoiceRecurrences.createdAt), asc(invoiceRecurrences.id))
	await archive.addJson('invoices/recurrences.json', recurrences)
}

/** settings.json; answers the profiles' ids. A few rows per profile, read at once. */
async function addSettings(context: ExportContext): Promise<string[]> {
	const { db, organizationId: orgId } = context
	const profiles = await db
		.select()
		.from(invoiceProfiles)
		.where(eq(invoiceProfiles.organizationId, orgId))
		.orderBy(asc(invoiceProfiles.createdAt), asc(invoiceProfiles.id))
	const taxRates = await db
		.select()
		.from(invoiceTaxRates)
		.where(eq(invoiceTaxRates.organizationId, orgId))
		.orderBy(asc(invoiceTaxRates.profileId), asc(invoiceTaxRates.position))
	const counters = await db.select().from(invoiceCounters).where(eq(invoiceCounters.organizationId, orgId))
	const numbers = await db
		.select()
		.from(invoiceNumbers)
		.where(eq(invoiceNumbers.organizationId, orgId))
		.orderBy(asc(invoiceNumbers.issuedAt))
	// What identifies the account; its secret key and webhook secret stay out.
	const stripeAccounts = await db
		.select({
			profileId: invoiceStripeAccounts.profileId,
			accountName: invoiceStripeAccounts.accountName,
			accountId: invoiceStripeAccounts.accountId,
			isLive: invoiceStripeAccounts.isLive,
			createdAt: invoiceStripeAccounts.createdAt,
		})
		.from(invoiceStripeAccounts)
		.where(eq(invoiceStripeAccounts.organizationId, orgId))
	const database = await db.select().from(invoiceDatabases).where(eq(invoiceDatabases.organizationId, orgId))
	const filters = await db.select().from(invoiceFilters).where(eq(invoiceFilters.organizationId, orgId))
	await context.archive.addJson('invoices/settings.json', {
		profiles: profiles.map((profile) => ({
			...profile,
			taxRates: taxRates.filter((rate) => rate.profileId === profile.id),
			counters: counters.filter((counter) => counter.profileId === profile.id),
			numbers: numbers.filter((number) => number.profileId === profile.id),
			stripeAccount: stripeAccounts.find((account) => account.profileId === profile.id) ?? null,
		})),
		invoicesDatabase: database[0] ?? null,
		filters,
	})
	return profiles.map((profile) => profile.id)
}

/** Every document with its payments and events, as one JSON array written a page at a time. */
async function* documentsJson(
	context: ExportContext,
	problems: Map<string, string[]>,
	ids: string[],
	paymentIds: string[],
) {
	const { db, organizationId } = context
	yield '[\n'
	for (let offset = 0; ; offset += page) {
		const rows = await db
			.select()
			.from(invoiceDocuments)
			.where(eq(invoiceDocuments.organizationId, organizationId))
			.orderBy(asc(invoiceDocuments.createdAt), asc(invoiceDocuments.id))
			.limit(page)
			.offset(offset)
		for (const [index, document] of rows.entries()) {
			const where = (table: typeof invoicePayments | typeof invoiceEvents) =>
				and(eq(table.documentId, document.id), eq(table.organizationId, organizationId))
			const payments = await db
				.select()
				.from(invoicePayments)
				.where(where(invoicePayments))
				.orderBy(asc(invoicePayments.date), asc(invoicePayments.createdAt))
			const events = await db.select().from(invoiceEvents).where(where(invoiceEvents)).orderBy(asc(invoiceEvents.at))
			ids.push(document.id)
			paymentIds.push(...payments.map((payment) => payment.id))
			const entry = { ...document, payments, events, eInvoiceProblems: problems.get(document.id) ?? [] }
			yield `${offset + index === 0 ? '' : ',\n'}${JSON.stringify(entry)}`
		}
		if (rows.length < page) {
			break
		}
	}
	yield '\n]\n'
}
