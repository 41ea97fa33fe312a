import { blobWithUrlSchema, directUploadResponseSchema } from '@blocksmith/contracts/uploads.ts'
import {
	type ConnectWorkspace,
	type ConnectWorkspaceResult,
	type CreateDatabase,
	connectWorkspaceResultSchema,
	type Database,
	databaseSchema,
	type FileValue,
	type Row,
	type RowFilter,
	type RowPage,
	type RowSort,
	type RowValues,
	rowFileLinkSchema,
	rowPageSchema,
	rowSchema,
	type UpdateDatabase,
	type Workspace,
	type WorkspaceTool,
	type WorkspaceUser,
	type WorkspaceWrite,
	type WriteState,
	workspaceSchema,
	workspaceUserSchema,
	workspaceWriteSchema,
} from '@blocksmith/contracts/workspaces.ts'
import { keepPreviousData, queryOptions } from '@tanstack/react-query'
import SparkMD5 from 'spark-md5'
import { z } from 'zod'
import { ApiError, api } from '#src/lib/api-client.ts'
import { readToken } from '#src/lib/token-store.ts'

// The contracts keep `values` loose (z.unknown) for the wire; the screens read them by property type.
const databaseListSchema = z.array(databaseSchema) as unknown as z.ZodType<Database[]>
const databaseOneSchema = databaseSchema as unknown as z.ZodType<Database>
const rowOneSchema = rowSchema as unknown as z.ZodType<Row>
const rowPageOneSchema = rowPageSchema as unknown as z.ZodType<RowPage>
const writeListSchema = z.array(workspaceWriteSchema) as unknown as z.ZodType<WorkspaceWrite[]>
const writeOneSchema = workspaceWriteSchema as unknown as z.ZodType<WorkspaceWrite>

export type RowsParams = {
	offset: number
	limit: number
	search?: string
	filters?: RowFilter[]
	sorts?: RowSort[]
}

export const workspaceKeys = {
	all: ['workspaces'] as const,
	list: ['workspaces', 'list'] as const,
	databases: (tool: WorkspaceTool, workspaceId: string) => ['workspaces', 'databases', tool, workspaceId] as const,
	database: (tool: WorkspaceTool, id: string) => ['workspaces', 'database', tool, id] as const,
	rows: (tool: WorkspaceTool, id: string) => ['workspaces', 'rows', tool, id] as const,
	rowPage: (tool: WorkspaceTool, id: string, params: RowsParams) => ['workspaces', 'rows', tool, id, params] as const,
	users: (tool: WorkspaceTool, workspaceId: string) => ['workspaces', 'users', tool, workspaceId] as const,
	writes: (workspaceId: string, state: WriteState | undefined) => ['workspaces', 'writes', workspaceId, state] as const,
}

const encode = encodeURIComponent

/** A Notion workspace just connected has no databases until its discovery job ran: its count is polled until then. */
export const workspacesQuery = queryOptions({
	queryKey: workspaceKeys.list,
	queryFn: ({ signal }): Promise<Workspace[]> =>
		api('/dashboard/workspaces', { schema: z.array(workspaceSchema), signal }),
	refetchInterval: (query) =>
		query.state.data?.some((w) => w.tool === 'notion' && w.status === 'connected' && w.databasesCount === 0)
			? 5000
			: false,
})

/**
 * While a sync is queued or running, the list is polled every 2 s so the state moves by itself.
 * A Notion workspace's databases are found by a job after it connects, so its list can be empty when
 * first read (back from the OAuth page): while it is empty it is polled too, more gently.
 */
export function databasesQuery(tool: WorkspaceTool, workspaceId: string) {
	return queryOptions({
		queryKey: workspaceKeys.databases(tool, workspaceId),
		queryFn: ({ signal }): Promise<Database[]> =>
			api(`/dashboard/${tool}/databases`, { query: { workspaceId }, schema: databaseListSchema, signal }),
		refetchInterval: (query) => databasesRefetchInterval(tool, query.state.data),
	})
}

function databasesRefetchInterval(tool: WorkspaceTool, databases: Database[] | undefined): number | false {
	if (databases?.some((database) => isSyncing(database))) {
		return 2000
	}
	return tool === 'notion' && databases?.length === 0 ? 5000 : false
}

export function databaseQuery(tool: WorkspaceTool, id: string) {
	return queryOptions({
		queryKey: workspaceKeys.database(tool, id),
		queryFn: ({ signal }): Promise<Database> =>
			api(`/dashboard/${tool}/databases/${encode(id)}`, { schema: databaseOneSchema, signal }),
		refetchInterval: (query) => (query.state.data && isSyncing(query.state.data) ? 2000 : false),
	})
}

export function rowsQuery(tool: WorkspaceTool, id: string, params: RowsParams) {
	return queryOptions({
		queryKey: workspaceKeys.rowPage(tool, id, params),
		queryFn: ({ signal }): Promise<RowPage> =>
			api(`/dashboard/${tool}/databases/${encode(id)}/rows`, {
				query: rowsSearchParams(params),
				schema: rowPageOneSchema,
				signal,
			}),
		placeholderData: keepPreviousData,
	})
}

function rowsSearchParams(params: RowsParams): Record<string, string | number | undefined> {
	return {
		offset: params.offset,
		limit: params.limit,
		search: params.search?.trim() ? params.search.trim() : undefined,
		filter: params.filters?.length ? JSON.stringify(params.filters) : undefined,
		sort: params.sorts?.length ? JSON.stringify(params.sorts) : undefined,
	}
}

export function usersQuery(tool: WorkspaceTool, workspaceId: string) {
	return queryOptions({
		queryKey: workspaceKeys.users(tool, workspaceId),
		queryFn: ({ signal }): Promise<WorkspaceUser[]> =>
			api(`/dashboard/${tool}/users`, { query: { workspaceId }, schema: z.array(workspaceUserSchema), signal }),
		staleTime: 5 * 60_000,
	})
}

export function writesQuery(workspaceId: string, state?: WriteState) {
	return queryOptions({
		queryKey: workspaceKeys.writes(workspaceId, state),
		queryFn: ({ signal }): Promise<WorkspaceWrite[]> =>
			api(`/dashboard/workspaces/${encode(workspaceId)}/writes`, {
				query: { state },
				schema: writeListSchema,
				signal,
			}),
		refetchInterval: (query) => (query.state.data?.some((write) => write.state === 'pending') ? 5000 : false),
	})
}

export function isSyncing(database: Database): boolean {
	return database.sync.state === 'queued' || database.sync.state === 'running'
}

// ---- workspaces ---------------------------------------------------------------------------

export async function connectWorkspace(input: ConnectWorkspace): Promise<ConnectWorkspaceResult> {
	return api('/dashboard/workspaces', { json: input, schema: connectWorkspaceResultSchema })
}

export async function createSampleWorkspace(): Promise<Workspace> {
	const result = await api('/dashboard/workspaces/sample', {
		json: {},
		schema: z.object({ workspace: workspaceSchema }),
	})
	return result.workspace
}

export async function disconnectWorkspace(id: string): Promise<void> {
	await api(`/dashboard/workspaces/${encode(id)}`, { method: 'DELETE' })
}

export async function retryWrite(input: { workspaceId: string; writeId: string }): Promise<WorkspaceWrite> {
	return api(`/dashboard/workspaces/${encode(input.workspaceId)}/writes/${encode(input.writeId)}/retry`, {
		json: {},
		schema: writeOneSchema,
	})
}

// ---- databases ----------------------------------------------------------------------------

export async function syncDatabase(input: { tool: WorkspaceTool; id: string }): Promise<Database> {
	return api(`/dashboard/${input.tool}/databases/${encode(input.id)}/sync`, { json: {}, schema: databaseOneSchema })
}

export async function createDatabase(input: CreateDatabase): Promise<Database> {
	return api('/dashboard/local/databases', { json: input, schema: databaseOneSchema })
}

export async function updateDatabase(input: { id: string; changes: UpdateDatabase }): Promise<Database> {
	return api(`/dashboard/local/databases/${encode(input.id)}`, {
		method: 'PATCH',
		json: input.changes,
		schema: databaseOneSchema,
	})
}

export async function deleteDatabase(id: string): Promise<void> {
	await api(`/dashboard/local/databases/${encode(id)}`, { method: 'DELETE' })
}

// ---- rows (local) -------------------------------------------------------------------------

export async function createRow(input: { databaseId: string; values: RowValues }): Promise<Row> {
	return api(`/dashboard/local/databases/${encode(input.databaseId)}/rows`, {
		json: { values: input.values },
		schema: rowOneSchema,
	})
}

export async function createRows(input: { databaseId: string; rows: { values: RowValues }[] }): Promise<number> {
	const result = await api(`/dashboard/local/databases/${encode(input.databaseId)}/rows/batch`, {
		json: { rows: input.rows },
		schema: z.object({ created: z.number() }),
	})
	return result.created
}

export async function updateRow(input: { databaseId: string; rowId: string; values: RowValues }): Promise<Row> {
	return api(`/dashboard/local/databases/${encode(input.databaseId)}/rows/${encode(input.rowId)}`, {
		method: 'PATCH',
		json: { values: input.values },
		schema: rowOneSchema,
	})
}

export async function deleteRow(input: { databaseId: string; rowId: string }): Promise<void> {
	await api(`/dashboard/local/databases/${encode(input.databaseId)}/rows/${encode(input.rowId)}`, {
		method: 'DELETE',
	})
}

/** Rows of a database for a relation picker: the first page matching a title search. */
export async function searchRows(input: { tool: WorkspaceTool; databaseId: string; search: string }): Promise<Row[]> {
	const page = await api(`/dashboard/${input.tool}/databases/${encode(input.databaseId)}/rows`, {
		query: rowsSearchParams({ offset: 0, limit: 20, search: input.search }),
		schema: rowPageOneSchema,
	})
	return page.rows
}

/**
 * The CSV export, fetched with the bearer header (a token never goes into a URL) and saved
 * through a blob link.
 */
export async function downloadCsv(input: { tool: WorkspaceTool; databaseId: string; name: string }): Promise<void> {
	const headers = new Headers({ accept: 'text/csv' })
	const token = readToken()
	if (token) {
		headers.set('authorization', `Bearer ${token}`)
	}
	const response = await fetch(`/dashboard/${input.tool}/databases/${encode(input.databaseId)}/export.csv`, {
		headers,
	})
	if (!response.ok) {
		throw new ApiError({ status: response.status, code: 'EXPORT_FAILED', detail: 'The export failed. Try again.' })
	}
	const blob = await response.blob()
	const url = URL.createObjectURL(blob)
	const link = document.createElement('a')
	link.href = url
	link.download = `${input.name.replace(/[\\/:*?"<>|]+/g, '-') || 'export'}.csv`
	document.body.append(link)
	link.click()
	link.remove()
	setTimeout(() => URL.revokeObjectURL(url), 1000)
}

// ---- files --------------------------------------------------------------------------------

/** Uploads a file the direct way (announce with its MD5, PUT to the signed URL) and returns the value to store. */
export async function uploadFile(file: File): Promise<FileValue> {
	const buffer = await file.arrayBuffer()
	// Web Crypto has no MD5; the server checks the bytes arrived as announced, nothing more.
	const checksum = btoa(SparkMD5.ArrayBuffer.hash(buffer, true))
	const contentType = file.type || 'application/octet-stream'
	const announced = await api('/dashboard/active_storage/direct_uploads', {
		json: { filename: file.name, byteSize: file.size, checksum, contentType },
		schema: directUploadResponseSchema,
	})
	const response = await fetch(announced.directUpload.url, {
		method: 'PUT',
		headers: announced.directUpload.headers,
		body: buffer,
	})
	if (!response.ok) {
		const problem = (await response.json().catch(() => null)) as { detail?: unknown } | null
		throw new ApiError({
			status: response.status,
			code: 'UPLOAD_FAILED',
			detail: typeof problem?.detail === 'string' ? problem.detail : `${file.name} could not be uploaded.`,
		})
	}
	return { name: file.name.slice(0, 255), url: null, blobId: announced.id }
}

/** A short-lived download URL for an uploaded file. */
/** A current URL of a row's file: a Notion-hosted one is renewed by the server once it has expired. */
export async function rowFileUrl(
	tool: WorkspaceTool,
	databaseId: string,
	rowId: string,
	propertyId: string,
	index: number,
): Promise<string> {
	const path = `/dashboard/${tool}/databases/${encode(databaseId)}/rows/${encode(rowId)}/files/${encode(propertyId)}/${index}`
	return (await api(path, { schema: rowFileLinkSchema })).url
}

export async function blobUrl(blobId: string): Promise<string | null> {
	const blob = await api(`/dashboard/active_storage/blobs/${encode(blobId)}`, { schema: blobWithUrlSchema })
	return blob.url
}
