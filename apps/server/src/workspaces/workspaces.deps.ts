import type { RowFilter } from '@blocksmith/contracts/workspaces.ts'
import type { Subscriptions } from '#src/core/subscriptions/subscriptions.module.ts'
import type { Db } from '#src/db/client.ts'
import type { JobQueue, Jobs } from '#src/lib/jobs.ts'
import type { Logger } from '#src/lib/logger.ts'
import type { SecretBox } from '#src/lib/secrets.ts'
import type { Storage } from '#src/lib/storage.ts'
import type { ConnectorFactory } from './workspaces.connectors.ts'
import type { SourceLabeler } from './workspaces.sources.ts'

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
	/**
	 * How long one attempt may hold its write before another worker may take it over: longer
	 * than any attempt takes (Notion's timeout and rate waits), and the time a write held by a
	 * crashed process waits before it is delivered again.
	 */
	leaseSeconds: number
}

export type SyncMode = 'full' | 'incremental' | 'reconcile'

/** The workspace layer's job queues (defined in workspaces.sync.ts and workspaces.writes.ts). */
type WorkspaceQueues = {
	discover: JobQueue<{ workspaceId: string }>
	sync: JobQueue<{ databaseId: string; mode: SyncMode }>
	tick: JobQueue<Record<string, never>>
	/** A flagged database's page content, after its sync (workspaces.content.ts). */
	content: JobQueue<{ databaseId: string }>
	/** One write (a retry, a single write), or a batch of writes stored by public requests. */
	deliver: JobQueue<{ writeId: string } | { writeIds: string[] }>
	sweep: JobQueue<Record<string, never>>
}

/**
 * Which rows of a database a published object lists: all of them (the first 100 by title), those
 * matching every filter (compiled with rows.query.ts), only these external ids, or none until a
 * search of `searchOnlyChoices.minChars` characters, and then at most `searchOnlyChoices.maxResults`.
 */
export type PublicRowScope =
	| { mode: 'all' }
	| { mode: 'filter'; filters: RowFilter[] }
	| { mode: 'ids'; ids: string[] }
	| { mode: 'search' }

/** What a published object (form, chart, portal) lets anonymous visitors read; see workspaces.public.ts. */
export type PublicGrant = {
	orgId: string
	/** Database id → the property ids the object exposes, and which of its rows. */
	databases: Map<string, { propertyIds: string[]; rows: PublicRowScope }>
	/**
	 * The people the object may list (a form's people field), or null: those of `workspaceId`,
	 * only `ids` when set, none until searched when `searchOnly`.
	 */
	people: { workspaceId: string; ids: string[] | null; searchOnly: boolean } | null
}

/** What the visitor's read names besides the object: the question asking, when there is one. */
export type PublicScopeRequest = { field?: string | undefined }

export type PublicScopeResolver = (db: Db, objectId: string, request: PublicScopeRequest) => Promise<PublicGrant | null>

/** What the workspace services need, built once in `createWorkspaces`. */
export type WorkspaceDeps = {
	db: Db
	jobs: Jobs
	log: Logger
	secrets: SecretBox
	storage: Storage
	publicUrl: string
	authSecret: string
	/** RATE_LIMITS: off only for load tests. */
	rateLimits: boolean
	notion: NotionSettings
	sync: SyncSettings
	writes: WriteSettings
	connectors: ConnectorFactory
	queues: WorkspaceQueues
	/** Resolvers by kind of published object (`form`, `chart`, …). */
	publicScopes: Map<string, PublicScopeResolver>
	/** How each kind of write source (`form`, `user`, …) is named in the deliveries list (workspaces.sources.ts). */
	sourceLabelers: Map<string, SourceLabeler>
	/** From NOTION_WEBHOOK_VERIFICATION_TOKEN; else the one learnt at the handshake is used. */
	webhookVerificationToken: string | undefined
	/** Asked before a workspace is added: the plan counts them. */
	subscriptions: Subscriptions
	/** Told the ids of databases whose workspace was disconnected, to drop what they made of them. */
	databasesRemoved: ((databaseIds: string[]) => Promise<void>)[]
}

/** A caller working in one organization. */
export type WorkspaceCtx = WorkspaceDeps & { orgId: string; userId: string }
