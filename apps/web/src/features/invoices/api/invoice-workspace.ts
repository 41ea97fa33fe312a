import { type Invoice, invoiceSchema } from '@blocksmith/contracts/invoice-documents.ts'
import {
	type DraftFromRow,
	type InvoiceDatabaseState,
	type InvoiceSync,
	invoiceDatabaseStateSchema,
	invoiceRowPageSchema,
	invoiceSyncSchema,
	type SaveInvoiceDatabase,
} from '@blocksmith/contracts/invoice-workspace.ts'
import type { WorkspaceTool } from '@blocksmith/contracts/workspaces.ts'
import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query'
import { api } from '#src/lib/api-client.ts'

// The invoices database. Its mapping belongs to the organization, but the databases to choose
// from are each tool's (a Notion database is reached through /dashboard/notion/…): the page reads
// both tools' candidates and then talks to the mapped database's own tool.

const encode = encodeURIComponent
const tools: WorkspaceTool[] = ['local', 'notion']

const workspaceKeys = {
	state: ['invoices', 'workspace', 'state'] as const,
	rows: (tool: WorkspaceTool, databaseId: string) => ['invoices', 'workspace', 'rows', tool, databaseId] as const,
	lastSync: (tool: WorkspaceTool) => ['invoices', 'workspace', 'sync', tool] as const,
}

/**
 * The mapped database (the same through either tool) and every tool's candidates. A tool that
 * cannot answer (Notion not connected) adds none; the built-in tool's failure is the page's error.
 */
export const invoiceDatabaseQuery = queryOptions({
	queryKey: workspaceKeys.state,
	queryFn: async ({ signal }): Promise<InvoiceDatabaseState> => {
		const states = await Promise.all(
			tools.map((tool) =>
				api(`/dashboard/${tool}/invoices/database`, { schema: invoiceDatabaseStateSchema, signal }).catch(
					(error: unknown) => {
						if (tool === 'local') {
							throw error
						}
						return null
					},
				),
			),
		)
		const found = states.filter((state): state is InvoiceDatabaseState => state !== null)
		return {
			mapped: found.find((state) => state.mapped)?.mapped ?? null,
			candidates: found.flatMap((state) => state.candidates),
		}
	},
})

export async function saveInvoiceDatabase(
	tool: WorkspaceTool,
	input: SaveInvoiceDatabase,
): Promise<InvoiceDatabaseState> {
	return api(`/dashboard/${tool}/invoices/database`, { method: 'PUT', json: input, schema: invoiceDatabaseStateSchema })
}

export async function unlinkInvoiceDatabase(tool: WorkspaceTool): Promise<void> {
	await api(`/dashboard/${tool}/invoices/database`, { method: 'DELETE' })
}

/** The rows of the mapped database with the invoice kept in each, a page at a time. */
export function invoiceRowsQuery(tool: WorkspaceTool, databaseId: string) {
	return infiniteQueryOptions({
		queryKey: workspaceKeys.rows(tool, databaseId),
		queryFn: ({ signal, pageParam }) =>
			api(`/dashboard/${tool}/invoices`, {
				query: { limit: 50, cursor: pageParam || undefined },
				schema: invoiceRowPageSchema,
				signal,
			}),
		initialPageParam: '',
		getNextPageParam: (page) => page.nextCursor ?? undefined,
	})
}

export async function draftFromRow(tool: WorkspaceTool, rowId: string, input: DraftFromRow = {}): Promise<Invoice> {
	return api(`/dashboard/${tool}/invoices/${encode(rowId)}/draft`, { json: input, schema: invoiceSchema })
}

export const lastSyncQuery = (tool: WorkspaceTool) =>
	queryOptions({
		queryKey: workspaceKeys.lastSync(tool),
		queryFn: ({ signal }) => api(`/dashboard/${tool}/sync_invoices`, { schema: invoiceSyncSchema.nullable(), signal }),
	})

export async function syncInvoices(tool: WorkspaceTool): Promise<InvoiceSync> {
	return api(`/dashboard/${tool}/sync_invoices`, { method: 'POST', schema: invoiceSyncSchema })
}
