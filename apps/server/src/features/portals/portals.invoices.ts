import { formatMoney } from '@blocksmith/contracts/invoice-currencies.ts'
import type { PortalInvoices } from '@blocksmith/contracts/portals.ts'
import { documentsOfClientRow } from '#src/features/invoices/invoices.public.ts'
import { AppError } from '#src/lib/errors.ts'
import type { PortalMemberContext, PortalRecord, PortalsDeps } from './portals.deps.ts'

// The invoices of the member's company inside the portal (issue 18 item 5): read from the
// invoices module by the company's row, each linking to its public page, where the client views,
// downloads and pays it (decision 036). A member without a company sees none.

export async function portalInvoices(
	deps: Pick<PortalsDeps, 'db' | 'publicUrl' | 'now'>,
	portal: PortalRecord,
	member: PortalMemberContext,
): Promise<PortalInvoices> {
	const companies = portal.access.companiesDatabaseId
	if (!portal.showInvoices || !companies) {
		throw new AppError('NOT_FOUND', { detail: 'This portal shows no invoices.' })
	}
	if (!member.companyRowId) {
		return { invoices: [] }
	}
	const today = deps.now().toISOString().slice(0, 10)
	const documents = await documentsOfClientRow(
		deps.db,
		portal.organizationId,
		{ databaseId: companies, externalRowId: member.companyRowId },
		today,
	)
	return {
		invoices: documents.map((document) => ({
			id: document.id,
			kind: document.kind,
			number: document.number,
			status: document.status,
			isOverdue: document.isOverdue,
			issueDate: document.issueDate,
			dueDate: document.dueDate,
			currency: document.currency,
			total: formatMoney(document.totalMinor, document.currency),
			due: formatMoney(document.dueMinor, document.currency),
			dueMinor: document.dueMinor,
			url: new URL(`/i/${document.publicToken}`, deps.publicUrl).toString(),
		})),
	}
}
