import { and, eq } from 'drizzle-orm'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import type { Db } from '#src/db/client.ts'
import type { SecretBox } from '#src/lib/secrets.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { BlobReader, WorkspaceConnector } from './connector.ts'
import { createLocalConnector } from './local/local.connector.ts'
import { createNotionClient, createNotionConnector } from './notion/notion.connector.ts'
import { createNotionQueue } from './notion/notion.queue.ts'
import type { workspaces } from './workspaces.schema.ts'

type WorkspaceRecord = typeof workspaces.$inferSelect

type NotionCredentials = { accessToken: string; refreshToken: string | null }

export type ConnectorFactory = {
	for: (workspace: WorkspaceRecord) => WorkspaceConnector
	credentialsOf: (workspace: WorkspaceRecord) => NotionCredentials
}

/**
 * Builds the connector of a workspace. One Notion rate queue serves the whole process, keyed
 * by Notion workspace, so every caller (syncs, deliveries, the dashboard) shares the budget.
 */
export function createConnectorFactory(options: {
	db: Db
	secrets: SecretBox
	storage: Storage
	notion: { apiBaseUrl: string; requestsPerSecond: number; timeoutMs: number }
}): ConnectorFactory {
	const { db, secrets, storage, notion } = options
	const queue = createNotionQueue({ requestsPerSecond: notion.requestsPerSecond })

	const credentialsOf = (workspace: WorkspaceRecord): NotionCredentials => {
		if (!workspace.credentials) {
			throw new Error(`workspace ${workspace.id} has no credentials`)
		}
		return JSON.parse(secrets.open(workspace.credentials)) as NotionCredentials
	}

	const readBlobOf =
		(orgId: string): BlobReader =>
		async (blobId) => {
			const [blob] = await db
				.select()
				.from(blobs)
				.where(and(eq(blobs.id, blobId), eq(blobs.organizationId, orgId), eq(blobs.status, 'uploaded')))
			if (!blob) {
				return null
			}
			const file = await storage.get(blob.key)
			if (!file) {
				return null
			}
			const bytes = new Uint8Array(await new Response(file.body).arrayBuffer())
			return { name: blob.filename, contentType: blob.contentType, bytes }
		}

	return {
		credentialsOf,
		for: (workspace) => {
			if (workspace.tool === 'local') {
				return createLocalConnector({ db, orgId: workspace.organizationId, workspaceId: workspace.id })
			}
			const client = createNotionClient({
				token: credentialsOf(workspace).accessToken,
				baseUrl: notion.apiBaseUrl,
				timeoutMs: notion.timeoutMs,
			})
			return createNotionConnector({
				client,
				queue,
				workspaceKey: workspace.externalId ?? workspace.id,
				readBlob: readBlobOf(workspace.organizationId),
			})
		},
	}
}
