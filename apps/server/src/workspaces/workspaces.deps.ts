import type { Db } from '#src/db/client.ts'
import type { Jobs } from '#src/lib/jobs.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { SecretBox } from '#src/lib/secrets.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { ConnectorFactory } from './workspaces.connectors.ts'
import type { PublicScopes } from './workspaces.public.ts'
import type { SyncQueues } from './workspaces.sync.ts'
import type { WriteQueues } from './workspaces.writes.ts'

export type NotionSettings = {
	/** Notion's API origin; the fake server's in tests and demos. */
	apiBaseUrl: string
	clientId: string | undefined
	clientSecret: string | undefined
	/** Average requests per second per Notion workspace. */
	requestsPerSecond: number
	timeoutMs: number
}

export type SyncSettings = {
	/** Seconds between incremental syncs of a Notion database. */
	incrementalSeconds: number
	/** Seconds between reconciles (which notice deleted and trashed rows). */
	reconcileSeconds: number
}

export type WriteSettings = {
	/** Attempts before a write is dead. */
	maxAttempts: number
	/** Seconds before the first retry; doubles each time. */
	retryDelaySeconds: number
}

/** What the workspace services need, built once in `createWorkspaces`. */
export type WorkspaceDeps = {
	db: Db
	jobs: Jobs
	log: Logger
	secrets: SecretBox
	storage: Storage
	publicUrl: string
	authSecret: string
	notion: NotionSettings
	sync: SyncSettings
	writes: WriteSettings
	connectors: ConnectorFactory
	queues: SyncQueues & WriteQueues
	publicScopes: PublicScopes
	/** From NOTION_WEBHOOK_VERIFICATION_TOKEN; else the one learnt at the handshake is used. */
	webhookVerificationToken: string | undefined
}

/** A caller working in one organization. */
export type WorkspaceCtx = WorkspaceDeps & { orgId: string; userId: string }
