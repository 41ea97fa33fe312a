import { and, eq } from 'drizzle-orm'
import { blobs } from '#src/core/uploads/uploads.schema.ts'
import type { Db } from '#src/db/client.ts'
import type { SecretBox } from '#src/lib/secrets.ts'
import type { Storage } from '#src/lib/storage.ts'
import { type BlobReader, ConnectorError, type WorkspaceConnector } from './connector.ts'
import { createLocalConnector } from './local/local.connector.ts'
import { createNotionClient, createNotionConnector, refreshOAuthToken } from './notion/notion.connector.ts'
import { createDbRateLimiter } from './notion/notion.limiter.ts'
import { createNotionQueue } from './notion/notion.queue.ts'
import { workspaces } from './workspaces.schema.ts'

type WorkspaceRecord = typeof workspaces.$inferSelect

type NotionCredentials = { accessToken: string; refreshToken: string | null }

export type ConnectorFactory = {
	for: (workspace: WorkspaceRecord) => WorkspaceConnector
	credentialsOf: (workspace: WorkspaceRecord) => NotionCredentials
}

/**
 * Builds the connector of a workspace. One Notion rate queue serves the whole process, keyed
 * by Notion workspace, so every caller (syncs, deliveries, the dashboard) shares the budget;
 * its pace and Retry-After pauses live in the database, shared by every instance (decision 025).
 */
export function createConnectorFactory(options: {
	db: Db
	secrets: SecretBox
	storage: Storage
	notion: {
		apiBaseUrl: string
		requestsPerSecond: number
		timeoutMs: number
		clientId: string | undefined
		clientSecret: string | undefined
	}
}): ConnectorFactory {
	const { db, secrets, storage, notion } = options
	const queue = createNotionQueue({
		limiter: createDbRateLimiter({ db, requestsPerSecond: notion.requestsPerSecond }),
	})

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

	/** One refresh at a time per workspace: Notion rotates the refresh token, so a second would fail. */
	const refreshing = new Map<string, Promise<string>>()

	/**
	 * A new access token after Notion refused `usedToken`: from the database when another
	 * worker already refreshed it, else by the refresh token, stored sealed before use.
	 */
	async function refreshedToken(workspaceId: string, usedToken: string): Promise<string> {
		const pending = refreshing.get(workspaceId)
		if (pending) {
			return pending
		}
		const work = (async () => {
			const [current] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId))
			if (!current) {
				throw new ConnectorError('unauthorized', 'The workspace was disconnected.')
			}
			const credentials = credentialsOf(current)
			if (credentials.accessToken !== usedToken) {
				return credentials.accessToken
			}
			if (!credentials.refreshToken || !notion.clientId || !notion.clientSecret) {
				throw new ConnectorError('unauthorized', 'Notion no longer accepts the token; reconnect the workspace.')
			}
			const token = await refreshOAuthToken({
				baseUrl: notion.apiBaseUrl,
				clientId: notion.clientId,
				clientSecret: notion.clientSecret,
				refreshToken: credentials.refreshToken,
			})
			const sealed = secrets.seal(JSON.stringify({ accessToken: token.accessToken, refreshToken: token.refreshToken }))
			await db
				.update(workspaces)
				.set({ credentials: sealed, updatedAt: new Date() })
				.where(eq(workspaces.id, workspaceId))
			return token.accessToken
		})()
		refreshing.set(workspaceId, work)
		try {
			return await work
		} finally {
			refreshing.delete(workspaceId)
		}
	}

	function notionConnector(workspace: WorkspaceRecord): WorkspaceConnector {
		let token = credentialsOf(workspace).accessToken
		const build = () =>
			createNotionConnector({
				client: createNotionClient({ token, baseUrl: notion.apiBaseUrl, timeoutMs: notion.timeoutMs }),
				queue,
				workspaceKey: workspace.externalId ?? workspace.id,
				readBlob: readBlobOf(workspace.organizationId),
			})
		let inner = build()
		const isUnauthorized = (error: unknown) => error instanceof ConnectorError && error.kind === 'unauthorized'
		const renew = async () => {
			token = await refreshedToken(workspace.id, token)
			inner = build()
		}
		// Each call is tried once more with a refreshed token when Notion answers 401; a walk
		// (queryRows, listRowIds) starts over, which syncs tolerate (upserts, sets of ids).
		const once =
			<A extends unknown[], R>(call: (connector: WorkspaceConnector, ...args: A) => Promise<R>) =>
			async (...args: A): Promise<R> => {
				try {
					return await call(inner, ...args)
				} catch (error) {
					if (!isUnauthorized(error)) {
						throw error
					}
					await renew()
					return call(inner, ...args)
				}
			}
		const walk = <A extends unknown[], T>(call: (connector: WorkspaceConnector, ...args: A) => AsyncIterable<T>) =>
			async function* (...args: A): AsyncIterable<T> {
				try {
					yield* call(inner, ...args)
				} catch (error) {
					if (!isUnauthorized(error)) {
						throw error
					}
					await renew()
					yield* call(inner, ...args)
				}
			}
		return {
			listDatabases: once((c) => c.listDatabases()),
			getDatabase: once((c, id: string) => c.getDatabase(id)),
			queryRows: walk((c, ...args: Parameters<WorkspaceConnector['queryRows']>) => c.queryRows(...args)),
			listRowIds: walk((c, ...args: Parameters<WorkspaceConnector['listRowIds']>) => c.listRowIds(...args)),
			getRow: once((c, database: Parameters<WorkspaceConnector['getRow']>[0], id: string) => c.getRow(database, id)),
			createRow: once(
				(
					c,
					database: Parameters<WorkspaceConnector['createRow']>[0],
					values: Parameters<WorkspaceConnector['createRow']>[1],
					options?: Parameters<WorkspaceConnector['createRow']>[2],
				) => c.createRow(database, values, options),
			),
			updateRow: once(
				(
					c,
					database: Parameters<WorkspaceConnector['updateRow']>[0],
					id: string,
					values: Parameters<WorkspaceConnector['updateRow']>[2],
				) => c.updateRow(database, id, values),
			),
			deleteRow: once((c, ...args: Parameters<WorkspaceConnector['deleteRow']>) => c.deleteRow(...args)),
			restoreRow: once((c, ...args: Parameters<WorkspaceConnector['restoreRow']>) => c.restoreRow(...args)),
			findCreatedRow: once((c, ...args: Parameters<WorkspaceConnector['findCreatedRow']>) => c.findCreatedRow(...args)),
			listUsers: once((c) => c.listUsers()),
			readPageContent: once((c, id: string) => c.readPageContent(id)),
			readContentFile: once((c, id: string) => c.readContentFile(id)),
		}
	}

	return {
		credentialsOf,
		for: (workspace) =>
			workspace.tool === 'local'
				? createLocalConnector({ db, orgId: workspace.organizationId, workspaceId: workspace.id })
				: notionConnector(workspace),
	}
}
