import type { PortalBlock } from '@blocksmith/contracts/portals.ts'
import type { Property, RowValues, WorkspaceUser } from '@blocksmith/contracts/workspaces.ts'

/** A database as its workspace describes it. */
export type ExternalDatabase = {
	/** Notion: the data source id. local: our database id. */
	externalId: string
	name: string
	icon: string | null
	url: string | null
	properties: Property[]
}

/** A row as its workspace holds it, values already in our typed form (keyed by property id). */
export type ExternalRow = {
	externalId: string
	values: RowValues
	title: string
	url: string | null
	createdTime: string
	lastEditedTime: string
}

type CreateOptions = { beforeSend?: () => void }

/**
 * Rows a walk may have missed: Notion returns at most 10,000 rows per query, and rows that
 * share a minute and every value a query can filter on cannot be told apart. `createdTime` is
 * that minute when it is a creation time, so a reconcile keeps the mirror's rows of it.
 */
export type ReadGap = { createdTime: string | null; message: string }

type ReadOptions = { onGap?: (gap: ReadGap) => void }

/** A Notion-hosted file's signed URL, good until `expiresAt` (about an hour after the read). */
export type HostedFile = { url: string; expiresAt: string }

/**
 * A row's page content as the mirror keeps it (`workspace_row_content.blocks`): the portal's
 * blocks, and beside a hosted file its current signed URL, which never leaves the server.
 */
export type ContentBlock = Omit<PortalBlock, 'children'> & { hosted?: HostedFile; children?: ContentBlock[] }

/** A stored upload to attach to a `files` property. */
export type BlobReader = (blobId: string) => Promise<{ name: string; contentType: string; bytes: Uint8Array } | null>

/**
 * What every workspace can do, whatever holds the data. One contract test suite
 * (`connector.contract.ts`) runs against each implementation.
 *
 * Values passed to `createRow`/`updateRow` have already been validated against the
 * database's properties (`values.ts`); a connector may still refuse them (Notion's own
 * validation), and throws `ConnectorError` with `kind: 'invalid'` then.
 */
export type WorkspaceConnector = {
	listDatabases: () => Promise<ExternalDatabase[]>
	getDatabase: (externalId: string) => Promise<ExternalDatabase>
	/**
	 * Rows of one database, in pages, oldest edit first. With `editedSince`, only rows edited at
	 * or after that instant (ISO); without, every row. Trashed rows are never returned.
	 */
	queryRows: (
		database: ExternalDatabase,
		options: { editedSince?: string | null } & ReadOptions,
	) => AsyncIterable<ExternalRow[]>
	/** Every live row id of the database, in pages: the reconcile compares them with the mirror. */
	listRowIds: (database: ExternalDatabase, options?: ReadOptions) => AsyncIterable<string[]>
	/** One row, or null when it was deleted or trashed. */
	getRow: (database: ExternalDatabase, externalId: string) => Promise<ExternalRow | null>
	/**
	 * `beforeSend` runs right before the request that creates the row leaves (again before each
	 * retry after a rate limit) and throws to stop it: a delivery that no longer holds its write
	 * must not create anything.
	 */
	createRow: (database: ExternalDatabase, values: RowValues, options?: CreateOptions) => Promise<ExternalRow>
	updateRow: (database: ExternalDatabase, externalId: string, values: RowValues) => Promise<ExternalRow>
	/**
	 * Removes a row: Notion moves the page to the trash, a local database drops it. Returns the
	 * row's values as they were (local: what a restore needs), or null when a local row was
	 * already gone or a Notion page no longer exists; deleting twice is harmless.
	 */
	deleteRow: (database: ExternalDatabase, externalId: string) => Promise<ExternalRow | null>
	/**
	 * Brings a deleted row back under the same id: Notion takes the page out of the trash (its
	 * values kept there); a local database inserts it again with `values`, the ones `deleteRow`
	 * returned. A row that is there already is left as it is.
	 */
	restoreRow: (database: ExternalDatabase, externalId: string, values: RowValues) => Promise<ExternalRow>
	/**
	 * A row created at or after `since`, by this connection itself (never a row a person made),
	 * whose values equal `values` on every property given: how a retried create finds the row a
	 * lost response had already made. Rows in `exclude` (already claimed by other deliveries
	 * with the same values) are passed over.
	 */
	findCreatedRow: (
		database: ExternalDatabase,
		since: string,
		values: RowValues,
		exclude?: ReadonlySet<string>,
	) => Promise<ExternalRow | null>
	listUsers: () => Promise<WorkspaceUser[]>
	/**
	 * A row's page content (Notion's blocks, reduced, within the read limits of `notion.content.ts`),
	 * or null when the page is gone. A local row has no content: an empty list.
	 */
	readPageContent: (externalRowId: string) => Promise<ContentBlock[] | null>
	/** The current URL of a hosted file in page content, by its block; null when the block or file is gone. */
	readContentFile: (blockId: string) => Promise<HostedFile | null>
}

/**
 * Why a workspace call failed, so the caller can decide: `invalid` (the values were refused:
 * do not retry), `not_found`, `unauthorized` (token revoked: the workspace needs reconnecting),
 * `forbidden` (the token works, but lacks a capability or the page is not shared with it: that
 * database needs attention, not the whole workspace), `unavailable` (rate limit, outage,
 * timeout: retry later).
 */
export class ConnectorError extends Error {
	readonly kind: 'invalid' | 'not_found' | 'unauthorized' | 'forbidden' | 'unavailable'
	/** For `invalid`: the property the workspace named, when it did. */
	readonly property: string | undefined

	constructor(kind: ConnectorError['kind'], message: string, options: { property?: string; cause?: unknown } = {}) {
		super(message, { cause: options.cause })
		this.name = 'ConnectorError'
		this.kind = kind
		this.property = options.property
	}
}
