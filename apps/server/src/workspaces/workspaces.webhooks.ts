import { verifyWebhookSignature } from '@notionhq/client'
import { and, eq, inArray } from 'drizzle-orm'
import { z } from 'zod'
import { AppError } from '#src/lib/errors.ts'
import type { WorkspaceDeps } from './workspaces.deps.ts'
import { workspaceDatabases, workspaceRows, workspaceSettings, workspaces } from './workspaces.schema.ts'
import { queueDiscovery, queueSync } from './workspaces.sync.ts'

// Notion webhooks are signals, not data: each event makes the affected databases sync
// (incrementally), and a deleted page leaves the mirror at once. Events can arrive late, out
// of order or aggregated, which an incremental sync by last_edited_time absorbs.

const sameId = (a: string, b: string) => a.replaceAll('-', '').toLowerCase() === b.replaceAll('-', '').toLowerCase()

const tokenKey = 'notion_webhook_verification_token'
/** A later handshake's token (a subscription recreated in Notion): kept aside until the operator accepts it. */
const pendingTokenKey = 'notion_webhook_verification_token_pending'
const maxBodyChars = 256 * 1024

// What the handler reads of an event; anything else in it is ignored. A body that is not an
// object of this shape (null, a list, a string) is a 400.
const webhookEventSchema = z.looseObject({
	type: z.string().optional(),
	workspace_id: z.string().optional(),
	entity: z.looseObject({ id: z.string().optional(), type: z.string().optional() }).nullish(),
	data: z
		.looseObject({
			// Since API 2025-09-03 a page's parent is its database, with the data source beside it.
			parent: z
				.looseObject({ id: z.string().optional(), type: z.string().optional(), data_source_id: z.string().optional() })
				.nullish(),
		})
		.nullish(),
	verification_token: z.string().optional(),
})

async function storedToken(deps: WorkspaceDeps): Promise<string | undefined> {
	if (deps.webhookVerificationToken) {
		return deps.webhookVerificationToken
	}
	const [row] = await deps.db.select().from(workspaceSettings).where(eq(workspaceSettings.key, tokenKey))
	return row?.value
}

/**
 * A handshake: Notion sends the token to paste back into its settings. The first is kept and
 * logged. A later one (the subscription was recreated) never replaces the token in use, or anyone
 * could; it is kept aside and logged, and takes effect when the operator sets
 * NOTION_WEBHOOK_VERIFICATION_TOKEN to it.
 */
async function receiveVerificationToken(deps: WorkspaceDeps, received: string, current: string | undefined) {
	if (!current) {
		await deps.db.insert(workspaceSettings).values({ key: tokenKey, value: received })
		deps.log.warn(
			{ verificationToken: received },
			'Notion webhook verification token received: paste it into the webhook settings of the Notion connection',
		)
		return
	}
	if (received === current) {
		return
	}
	await deps.db
		.insert(workspaceSettings)
		.values({ key: pendingTokenKey, value: received })
		.onConflictDoUpdate({ target: workspaceSettings.key, set: { value: received } })
	deps.log.warn(
		{ verificationToken: received },
		'A new Notion webhook verification token arrived (was the subscription recreated?). Deliveries signed with it are refused until NOTION_WEBHOOK_VERIFICATION_TOKEN is set to it.',
	)
}

export async function handleNotionWebhook(
	deps: WorkspaceDeps,
	body: string,
	signature: string | undefined,
): Promise<{ received: true }> {
	if (body.length > maxBodyChars) {
		throw new AppError('PAYLOAD_TOO_LARGE')
	}
	let parsed: unknown
	try {
		parsed = JSON.parse(body)
	} catch {
		throw new AppError('MALFORMED_JSON')
	}
	const result = webhookEventSchema.safeParse(parsed)
	if (!result.success) {
		const issue = result.error.issues[0]
		throw new AppError('VALIDATION_FAILED', {
			detail: 'The webhook body is not a Notion event.',
			errors: [{ field: issue?.path.join('.') || 'body', message: issue?.message ?? 'Invalid event.' }],
		})
	}
	const event = result.data
	const token = await storedToken(deps)
	if (typeof event.verification_token === 'string' && !signature) {
		await receiveVerificationToken(deps, event.verification_token, token)
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
	const parent = event.data?.parent
	const parentId = parent?.data_source_id ?? parent?.id
	const entityId = event.entity?.id
	// The databases an event is about: a page's data source, or the data source itself. An event
	// that names neither (an older format) syncs every database of the workspace.
	const named = parentId ?? (event.entity?.type === 'data_source' ? entityId : undefined)
	const affected =
		named === undefined
			? databases
			: databases.filter(
					(d) => sameId(d.externalId, named) || (entityId !== undefined && sameId(d.externalId, entityId)),
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
		for (const database of affected) {
			await queueSync(deps, database.id, event.type.startsWith('page.') ? 'incremental' : 'reconcile')
		}
	}
	return { received: true }
}
