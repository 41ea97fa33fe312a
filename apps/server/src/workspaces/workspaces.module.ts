import { count, eq } from 'drizzle-orm'
import type { Subscriptions } from '#src/core/subscriptions/subscriptions.module.ts'
import type { Db } from '#src/db/client.ts'
import type { Jobs } from '#src/lib/jobs.ts'
import type { Logger } from '#src/lib/logger.ts'
import { createSecretBox } from '#src/lib/secrets.ts'
import type { Storage } from '#src/lib/storage.ts'
import { createConnectorFactory } from './workspaces.connectors.ts'
import type {
	NotionSettings,
	PublicScopeResolver,
	SyncSettings,
	WorkspaceDeps,
	WriteSettings,
} from './workspaces.deps.ts'
import { workspaces } from './workspaces.schema.ts'
import { labelUsers, type SourceLabeler } from './workspaces.sources.ts'
import { createSyncQueues } from './workspaces.sync.ts'
import { createWriteQueues } from './workspaces.writes.ts'

/**
 * Builds the workspace layer once: connectors, the Notion rate queue, sync and delivery
 * queues (registered on `jobs` before it starts), and the registry of public scopes that
 * modules fill with `registerPublicScope`.
 */
export function createWorkspaces(options: {
	db: Db
	jobs: Jobs
	log: Logger
	storage: Storage
	publicUrl: string
	authSecret: string
	rateLimits: boolean
	notion: NotionSettings
	sync: SyncSettings
	writes: WriteSettings
	webhookVerificationToken: string | undefined
	subscriptions: Subscriptions
}) {
	const secrets = createSecretBox(options.authSecret)
	const publicScopes = new Map<string, PublicScopeResolver>()
	const sourceLabelers = new Map<string, SourceLabeler>([['user', labelUsers]])
	const connectors = createConnectorFactory({
		db: options.db,
		secrets,
		storage: options.storage,
		notion: options.notion,
	})
	const deps: WorkspaceDeps = {
		...options,
		secrets,
		connectors,
		publicScopes,
		sourceLabelers,
		databasesRemoved: [],
		queues: { ...createSyncQueues(() => deps), ...createWriteQueues(() => deps) },
	}
	for (const queue of Object.values(deps.queues)) {
		options.jobs.register(queue as Parameters<Jobs['register']>[0])
	}
	// Every workspace counts, built-in and Notion alike.
	options.subscriptions.registerMeter('workspaces', async (db, organizationId) => {
		const [row] = await db
			.select({ count: count() })
			.from(workspaces)
			.where(eq(workspaces.organizationId, organizationId))
		return row?.count ?? 0
	})
	return {
		deps,
		registerPublicScope: (kind: string, resolver: PublicScopeResolver) => {
			publicScopes.set(kind, resolver)
		},
		/** How the deliveries list names writes from `kind:<id>` sources. */
		registerSourceLabels: (kind: string, labeler: SourceLabeler) => {
			sourceLabelers.set(kind, labeler)
		},
		/** A module that keeps something per database outside its tables (charts' projections) drops it here. */
		onDatabasesRemoved: (drop: (databaseIds: string[]) => Promise<void>) => {
			deps.databasesRemoved.push(drop)
		},
	}
}

export type Workspaces = ReturnType<typeof createWorkspaces>
