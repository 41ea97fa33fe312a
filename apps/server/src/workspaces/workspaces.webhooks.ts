import { verifyWebhookSignature } from '@notionhq/client'
import { and, eq, inArray } from 'drizzle-orm'
import { AppError } from '#src/lib/errors.ts'
import type { WorkspaceDeps } from './workspaces.deps.ts'
import { workspaceDatabases, workspaceRows, workspaceSettings, workspaces } from './workspaces.schema.ts'
import { queueDiscovery, queueSync } from './workspaces.sync.ts'

// Notion webhooks are signals, not data: each event makes the affected databases sync
// (incrementally), and a deleted page leaves the mirror at once. Events can arrive late, out
// of order or aggregated, which an incremental sync by last_edited_time absorbs.

const tokenKey = 'notion_webhook_verification_token'
const maxBodyChars = 256 * 1024

type WebhookEvent = {
	type?: string
	workspace_id?: string
	entity?: { id?: string; type?: string }
	data?: { parent?: { id?: string; type?: string } }
	verification_token?: string
}

async function storedToken(deps: WorkspaceDeps): Promise<string | undefined> {
	if (deps.webhookVerificationToken) {
		return deps.webhookVerificationToken
	}
	const [row] = await deps.db.select().from(workspaceSettings).where(eq(workspaceSettings.key, tokenKey))
	return row?.value
}

export async function handleNotionWebhook(
	deps: WorkspaceDeps,
	body: string,
	signature: string | undefined,
): Promise<{ received: true }> {
	if (body.length > maxBodyChars) {
		throw new AppError('PAYLOAD_TOO_LARGE')
	}
	let event: WebhookEvent
	try {
		event = JSON.parse(body) as WebhookEvent
	} catch {
		throw new AppError('MALFORMED_JSON')
	}
	const token = await storedToken(deps)
	// The one-time handshake: Notion sends the token to paste back into its settings. The first
	// one is kept (and logged for the operator); later deliveries must be signed with it.
	if (typeof event.verification_token === 'string' && !signature) {
		if (!token) {
			await deps.db.insert(workspaceSettings).values({ key: tokenKey, value: event.verification_token })
			deps.log.warn(
				{ verificationToken: event.verification_token },
				'Notion webhook verification token received: paste it into the webhook settings of the Notion connection',
			)
		}
		return { received: true }
	}
	if (!token || !(await verifyWebhookSignature({ body, signature, verificationToken: token }))) {
		throw new AppError('UNAUTHENTICATED', { detail: 'The webhook signature does not verify.' })
	}
	if (!event.workspace_id) {
		return { received: true }
	}
	const connected = await deps.db
		.select({ id: workspaces.id })
		.from(workspaces)
		.where(and(eq(workspaces.tool, 'notion'), eq(workspaces.externalId, event.workspace_id)))
	if (connected.length === 0) {
		return { received: true }
	}
	const workspaceIds = connected.map((w) => w.id)
	const databases = await deps.db
		.select()
		.from(workspaceDatabases)
		.where(inArray(workspaceDatabases.workspaceId, workspaceIds))
	const parentId = event.data?.parent?.id
	const entityId = event.entity?.id
	const affected = databases.filter(
		(database) => !parentId || database.externalId === parentId || database.externalId === entityId,
	)
	// A data source shared, created, moved or deleted changes the list of databases itself.
	if (/^(data_source|database)\.(created|deleted|undeleted|moved)$/.test(event.type ?? '')) {
		for (const workspaceId of workspaceIds) {
			await queueDiscovery(deps, workspaceId)
		}
	}
	if (event.type === 'page.deleted' && entityId) {
		await deps.db.delete(workspaceRows).where(
			and(
				inArray(
					workspaceRows.databaseId,
					databases.map((d) => d.id),
				),
				eq(workspaceRows.externalId, entityId),
			),
		)
	}
	if (
		event.type?.startsWith('page.') ||
		event.type?.startsWith('data_source.') ||
		event.type?.startsWith('database.')
	) {
		for (const database of affected.length > 0 ? affected : databases) {
			await queueSync(deps, database.id, event.type.startsWith('page.') ? 'incremental' : 'reconcile')
		}
	}
	return { received: true }
}
