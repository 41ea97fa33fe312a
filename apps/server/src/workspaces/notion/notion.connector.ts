import type { Property, RowValues, WorkspaceUser } from '@blocksmith/contracts/workspaces.ts'
import type {
	DataSourceObjectResponse,
	FullDataSourceQueryFilter,
	GetSelfResponse,
	OauthTokenResponse,
	PageObjectResponse,
	PartialDataSourceObjectResponse,
	PropertyItemObjectResponse,
	UserObjectResponse,
} from '@notionhq/client'
import { Client, isFullBlock, isFullDataSource, isFullPage, LogLevel } from '@notionhq/client'
import type {
	BlobReader,
	ExternalDatabase,
	ExternalRow,
	ReadGap,
	WorkspaceConnector,
} from '#src/workspaces/connector.ts'
import { ConnectorError } from '#src/workspaces/connector.ts'
import { hostedFileOf, readBlockTree, toContentBlocks } from './notion.content.ts'
import { filesToRenew, withCurrentUrls } from './notion.files.ts'
import {
	blobIdsOf,
	formatMegabytes,
	fromPage,
	fromPropertyItems,
	maxUploadBytes,
	type PropertyItemSummary,
	plainText,
	toPageProperties,
	toProperties,
	truncatedPropertyIds,
	valuesMatch,
} from './notion.properties.ts'
import type { NotionQueue } from './notion.queue.ts'
import { toConnectorError } from './notion.queue.ts'
import {
	type Condition,
	chooseSplit,
	commonTitle,
	dimensionPropertyIds,
	dimensionsOf,
	type Sample,
	sampleOf,
	type Timestamp,
} from './notion.split.ts'

// The Notion side of `WorkspaceConnector`, on API version 2025-09-03 (databases hold data
// sources; a data source is what we call a database). Every request goes through the rate
// queue, one request per `queue.run`, so the workspace's budget is shared and a 429 on any
// request pauses them all.

const pageSize = 100

/** Cuts of one over-full minute before a walk gives up on it; each adds a filter or two. */
const maxSplitDepth = 16

type TimestampFilter = Extract<FullDataSourceQueryFilter, { timestamp: string }>
type DateCondition = Extract<TimestampFilter, { timestamp: 'created_time' }>['created_time']
/** One query read to its end: whether Notion capped it, and what a cut needs of its rows. */
type QueryPass = { incomplete: boolean; samples: Sample[] }

export type NotionConnectorOptions = {
	/** An SDK client built with `retry: false`: the queue does the retrying. */
	client: Client
	queue: NotionQueue
	/** The Notion workspace the token belongs to: the rate-limit key. */
	workspaceKey: string
	readBlob: BlobReader
}

/** A Notion SDK client for one token; retries are left to our queue. */
export function createNotionClient(options: { token: string; baseUrl?: string; timeoutMs?: number }): Client {
	return new Client({
		auth: options.token,
		baseUrl: options.baseUrl,
		timeoutMs: options.timeoutMs,
		notionVersion: Client.defaultNotionVersion,
		retry: false,
		// Refused requests are expected (429s, 404s); the queue turns them into ConnectorErrors.
		logLevel: LogLevel.ERROR,
	})
}

export type NotionOAuthToken = {
	accessToken: string
	refreshToken: string | null
	botId: string
	workspaceId: string
	workspaceName: string | null
	workspaceIcon: string | null
	/** The person who gave the grant, as Notion shares them (the e-mail needs the user-information capability). */
	owner: NotionOAuthOwner | null
}

type NotionOAuthOwner = { id: string; name: string | null; email: string | null; avatarUrl: string | null }

type OAuthClient = { baseUrl?: string; clientId: string; clientSecret: string }

/** Exchanges the code of Notion's OAuth redirect for the workspace bot's token. */
export function exchangeOAuthCode(
	options: OAuthClient & { code: string; redirectUri: string },
): Promise<NotionOAuthToken> {
	return requestOAuthToken(options, {
		grant_type: 'authorization_code',
		code: options.code,
		redirect_uri: options.redirectUri,
	})
}

/**
 * A new access token from the refresh token of a public connection. Notion rotates both, so
 * the caller must store the pair it gets back.
 */
export function refreshOAuthToken(options: OAuthClient & { refreshToken: string }): Promise<NotionOAuthToken> {
	return requestOAuthToken(options, { grant_type: 'refresh_token', refresh_token: options.refreshToken })
}

async function requestOAuthToken(
	options: OAuthClient,
	grant:
		| { grant_type: 'authorization_code'; code: string; redirect_uri: string }
		| { grant_type: 'refresh_token'; refresh_token: string },
): Promise<NotionOAuthToken> {
	const client = new Client({ baseUrl: options.baseUrl, retry: false, logLevel: LogLevel.ERROR })
	try {
		const token = await client.oauth.token({
			client_id: options.clientId,
			client_secret: options.clientSecret,
			...grant,
		})
		return {
			accessToken: token.access_token,
			refreshToken: token.refresh_token ?? null,
			botId: token.bot_id,
			workspaceId: token.workspace_id,
			workspaceName: token.workspace_name ?? null,
			workspaceIcon: token.workspace_icon ?? null,
			owner: ownerOf(token.owner),
		}
	} catch (error) {
		throw toConnectorError(error)
	}
}

/** A grant installed by a person names them; one installed for a whole workspace does not. */
function ownerOf(owner: OauthTokenResponse['owner']): NotionOAuthOwner | null {
	if (owner.type !== 'user') {
		return null
	}
	const user = owner.user
	if (!('type' in user)) {
		return { id: user.id, name: null, email: null, avatarUrl: null }
	}
	return { id: user.id, name: user.name, email: user.person.email || null, avatarUrl: user.avatar_url }
}

function iconOf(icon: DataSourceObjectResponse['icon']): string | null {
	switch (icon?.type) {
		case 'emoji':
			return icon.emoji
		case 'external':
			return icon.external.url
		case 'file':
			return icon.file.url
		case 'custom_emoji':
			return icon.custom_emoji.url
		default:
			return null
	}
}

function toExternalDatabase(dataSource: DataSourceObjectResponse | PartialDataSourceObjectResponse): ExternalDatabase {
	if (!isFullDataSource(dataSource)) {
		// Partial objects come back when the connection cannot see the parent: no title or icon.
		return {
			externalId: dataSource.id,
			name: 'Untitled',
			icon: null,
			url: null,
			properties: toProperties(dataSource.properties),
		}
	}
	return {
		externalId: dataSource.id,
		name: plainText(dataSource.title).trim() || 'Untitled',
		icon: iconOf(dataSource.icon),
		url: dataSource.url ?? null,
		properties: toProperties(dataSource.properties),
	}
}

function toUser(user: UserObjectResponse): WorkspaceUser {
	if (user.type === 'person') {
		const email = user.person.email ?? null
		return {
			id: user.id,
			name: user.name ?? email ?? 'Unknown',
			email,
			avatarUrl: user.avatar_url ?? null,
			type: 'person',
		}
	}
	return { id: user.id, name: user.name ?? 'Bot', email: null, avatarUrl: user.avatar_url ?? null, type: 'bot' }
}

/**
 * Notion stores created/edited times to the minute, so a filter from a precise instant would
 * miss rows of that same minute: bounds are rounded down (a few extra rows, never one fewer).
 */
function floorToMinute(instant: string): string {
	const time = Date.parse(instant)
	if (Number.isNaN(time)) {
		return instant
	}
	return new Date(time - (time % 60_000)).toISOString()
}

function timestampCondition(timestamp: Timestamp, condition: DateCondition): TimestampFilter {
	return timestamp === 'created_time'
		? { timestamp: 'created_time', created_time: condition }
		: { timestamp: 'last_edited_time', last_edited_time: condition }
}

function sameId(a: string, b: string): boolean {
	return a.replaceAll('-', '').toLowerCase() === b.replaceAll('-', '').toLowerCase()
}

export function createNotionConnector(options: NotionConnectorOptions): WorkspaceConnector {
	const { client, queue, workspaceKey, readBlob } = options

	/** Reads are idempotent (retried on 5xx); writes are not unless stated. */
	const call = <T>(request: () => Promise<T>, idempotent = true) => queue.run(workspaceKey, request, { idempotent })

	// The integration's own user: `created_by` of every row it creates, and the workspace's
	// limits (the largest upload). Asked once per connector, and only when needed.
	let self: Promise<GetSelfResponse> | null = null
	const me = () => {
		if (!self) {
			self = call(() => client.users.me({}))
			self.catch(() => {
				self = null
			})
		}
		return self
	}
	const botId = () => me().then((user) => user.id)

	/**
	 * Pages of a data source sorted by `timestamp` ascending, surviving Notion's per-query result
	 * cap: when a query ends `incomplete`, a fresh query starts at the last row's timestamp (a new
	 * filter has a new budget) and rows seen at the boundary are skipped. When more rows share one
	 * timestamp than a query returns (a bulk import: Notion keeps times to the minute), that
	 * minute is cut into parts by other values (`narrow`) and the walk goes on after it. Trashed
	 * pages are left out.
	 */
	async function* walk(
		dataSourceId: string,
		timestamp: Timestamp,
		options: {
			from?: string
			filterProperties?: string[]
			properties?: Property[]
			onGap?: (gap: ReadGap) => void
		} = {},
	): AsyncGenerator<PageObjectResponse[]> {
		const seen = new Set<string>()
		const dimensions = dimensionsOf(options.properties)
		// A query that asks for only some properties must still bring the values a cut reads.
		const filterProperties = options.filterProperties && [
			...new Set([...options.filterProperties, ...dimensionPropertyIds(dimensions)]),
		]

		async function* read(filters: Condition[]): AsyncGenerator<PageObjectResponse[], QueryPass> {
			let cursor: string | undefined
			let incomplete = false
			const samples: Sample[] = []
			const filter = filters.length > 1 ? { and: filters } : filters[0]
			do {
				const startCursor = cursor
				const response = await call(() =>
					client.dataSources.query({
						data_source_id: dataSourceId,
						filter_properties: filterProperties,
						sorts: [{ timestamp, direction: 'ascending' }],
						filter,
						start_cursor: startCursor,
						page_size: pageSize,
					}),
				)
				const pages: PageObjectResponse[] = []
				for (const result of response.results) {
					if (!isFullPage(result)) {
						continue
					}
					samples.push(sampleOf(result, dimensions))
					if (result.in_trash || result.archived || seen.has(result.id)) {
						continue
					}
					seen.add(result.id)
					pages.push(result)
				}
				if (pages.length > 0) {
					yield pages
				}
				if (response.request_status?.type === 'incomplete') {
					incomplete = true
				}
				cursor = response.next_cursor ?? undefined
			} while (cursor)
			return { incomplete, samples }
		}

		/**
		 * Every row of an over-full slice (`filters`, of which `samples` are the rows one query
		 * returned): cut into parts, each read again and cut further while it is still over-full.
		 * Parts are disjoint and each holds fewer rows than the slice, and the depth is bounded, so
		 * this ends. Rows that nothing a query filters on tells apart are looked up through search.
		 */
		async function* narrow(
			filters: Condition[],
			samples: Sample[],
			pins: ReadonlySet<string>,
			depth: number,
			at: string,
		): AsyncGenerator<PageObjectResponse[]> {
			const parts = depth < maxSplitDepth ? chooseSplit(samples, dimensions, pins) : null
			if (!parts) {
				const title = commonTitle(samples, dimensions)
				yield* searchRows(dataSourceId, title, seen)
				options.onGap?.({
					createdTime: timestamp === 'created_time' ? at : null,
					message: `More than ${samples.length} rows of this Notion database share the ${timestamp === 'created_time' ? 'creation' : 'edit'} time ${at} and every value a query can tell apart (title "${title}"); they were looked up through Notion's search, which may not find them all`,
				})
				return
			}
			for (const part of parts) {
				const within = [...filters, ...part.filters]
				const pass = yield* read(within)
				if (pass.incomplete) {
					yield* narrow(within, pass.samples, new Set([...pins, ...part.pins]), depth + 1, at)
				}
			}
		}

		let bound = options.from ? timestampCondition(timestamp, { on_or_after: options.from }) : undefined
		for (;;) {
			const pass = yield* read(bound ? [bound] : [])
			if (!pass.incomplete) {
				return
			}
			const first = pass.samples[0]?.get(timestamp)
			const last = pass.samples[pass.samples.length - 1]?.get(timestamp)
			if (typeof first !== 'string' || typeof last !== 'string') {
				throw new ConnectorError('unavailable', 'Notion said a query was incomplete but returned no rows')
			}
			if (first !== last) {
				bound = timestampCondition(timestamp, { on_or_after: last })
				continue
			}
			// Every row returned shares one timestamp, and there are more: cut that instant apart.
			const instant = [
				timestampCondition(timestamp, { on_or_after: last }),
				timestampCondition(timestamp, { on_or_before: last }),
			]
			yield* narrow(instant, pass.samples, new Set(), 0, last)
			bound = timestampCondition(timestamp, { after: last })
		}
	}

	/** Pages of the data source whose title contains `title`, through search: the last resort of a walk. */
	async function* searchRows(dataSourceId: string, title: string, seen: Set<string>) {
		let cursor: string | undefined
		do {
			const startCursor = cursor
			const response = await call(() =>
				client.search({
					query: title,
					filter: { property: 'object', value: 'page' },
					start_cursor: startCursor,
					page_size: pageSize,
				}),
			)
			const pages: PageObjectResponse[] = []
			for (const result of response.results) {
				if (!isFullPage(result) || result.in_trash || result.archived || seen.has(result.id)) {
					continue
				}
				const parent = result.parent
				if (parent.type !== 'data_source_id' || !sameId(parent.data_source_id, dataSourceId)) {
					continue
				}
				seen.add(result.id)
				pages.push(result)
			}
			if (pages.length > 0) {
				yield pages
			}
			cursor = response.next_cursor ?? undefined
		} while (cursor)
	}

	/** Every item of a page property, across the property item list's pages. */
	async function readPropertyItems(
		pageId: string,
		propertyId: string,
	): Promise<{ items: PropertyItemObjectResponse[]; summary?: PropertyItemSummary }> {
		const items: PropertyItemObjectResponse[] = []
		// The last page's `property_item`: a calculated rollup's value is final only there.
		let summary: PropertyItemSummary | undefined
		let cursor: string | undefined
		do {
			const startCursor = cursor
			const response = await call(() =>
				client.pages.properties.retrieve({
					page_id: pageId,
					property_id: propertyId,
					start_cursor: startCursor,
					page_size: pageSize,
				}),
			)
			if (response.object === 'list') {
				items.push(...response.results)
				summary = response.property_item
				cursor = response.next_cursor ?? undefined
			} else {
				items.push(response)
				cursor = undefined
			}
		} while (cursor)
		return { items, summary }
	}

	/** The row, with relation/people/text values Notion cut at 25 references, and rollups over them, read in full. */
	async function toRow(page: PageObjectResponse, properties: Property[]): Promise<ExternalRow> {
		const row = fromPage(page, properties)
		const known = new Set(properties.map((property) => property.id))
		for (const propertyId of truncatedPropertyIds(page)) {
			if (!known.has(propertyId)) {
				continue
			}
			const value = Object.values(page.properties).find((candidate) => candidate.id === propertyId)
			if (!value) {
				continue
			}
			const { items, summary } = await readPropertyItems(page.id, propertyId)
			const full = fromPropertyItems(value.type, items, summary)
			row.values[propertyId] = full
			if (value.type === 'title' && typeof full === 'string') {
				row.title = full
			}
		}
		return row
	}

	async function retrievePage(pageId: string): Promise<PageObjectResponse | null> {
		try {
			const page = await call(() => client.pages.retrieve({ page_id: pageId }))
			return isFullPage(page) ? page : null
		} catch (error) {
			if (error instanceof ConnectorError && error.kind === 'not_found') {
				return null
			}
			throw error
		}
	}

	/** Uploads the blobs a write attaches, mapping our blob ids to Notion file upload ids. */
	async function uploadBlobs(values: RowValues, properties: Property[]): Promise<Map<string, string>> {
		const uploads = new Map<string, string>()
		for (const blobId of blobIdsOf(values, properties)) {
			if (uploads.has(blobId)) {
				continue
			}
			const blob = await readBlob(blobId)
			const property = properties.find((candidate) =>
				blobIdsOf({ [candidate.id]: values[candidate.id] ?? null }, [candidate]).includes(blobId),
			)
			if (!blob) {
				throw new ConnectorError('invalid', `The file ${blobId} is no longer stored`, { property: property?.name })
			}
			const limit = maxUploadBytes(await me())
			if (blob.bytes.byteLength > limit) {
				throw new ConnectorError(
					'invalid',
					`${blob.name} is larger than ${formatMegabytes(limit)}, the most this Notion workspace takes in one file`,
					{ property: property?.name },
				)
			}
			// A retried create only leaves an unused upload behind, which Notion expires.
			const upload = await call(() =>
				client.fileUploads.create({ mode: 'single_part', filename: blob.name, content_type: blob.contentType }),
			)
			const data = new Blob([new Uint8Array(blob.bytes)], { type: blob.contentType })
			await call(
				() => client.fileUploads.send({ file_upload_id: upload.id, file: { filename: blob.name, data } }),
				false,
			)
			uploads.set(blobId, upload.id)
		}
		return uploads
	}

	async function pageToRow(
		page: Awaited<ReturnType<Client['pages']['create']>>,
		properties: Property[],
	): Promise<ExternalRow> {
		const full = isFullPage(page) ? page : await retrievePage(page.id)
		if (!full) {
			throw new ConnectorError('not_found', `Notion page ${page.id} disappeared after the write`)
		}
		return toRow(full, properties)
	}

	return {
		async listDatabases() {
			const databases: ExternalDatabase[] = []
			let cursor: string | undefined
			do {
				const startCursor = cursor
				const response = await call(() =>
					client.search({
						filter: { property: 'object', value: 'data_source' },
						start_cursor: startCursor,
						page_size: pageSize,
					}),
				)
				for (const result of response.results) {
					if (result.object !== 'data_source') {
						continue
					}
					if (isFullDataSource(result) && (result.in_trash || result.archived)) {
						continue
					}
					databases.push(toExternalDatabase(result))
				}
				cursor = response.next_cursor ?? undefined
			} while (cursor)
			return databases
		},

		async getDatabase(externalId) {
			const dataSource = await call(() => client.dataSources.retrieve({ data_source_id: externalId }))
			if (isFullDataSource(dataSource) && (dataSource.in_trash || dataSource.archived)) {
				throw new ConnectorError('not_found', `The Notion database ${externalId} is in the trash`)
			}
			return toExternalDatabase(dataSource)
		},

		async *queryRows(database, queryOptions) {
			const { editedSince, onGap } = queryOptions
			const pages = editedSince
				? walk(database.externalId, 'last_edited_time', {
						from: floorToMinute(editedSince),
						properties: database.properties,
						onGap,
					})
				: walk(database.externalId, 'created_time', { properties: database.properties, onGap })
			for await (const batch of pages) {
				const rows: ExternalRow[] = []
				for (const page of batch) {
					rows.push(await toRow(page, database.properties))
				}
				yield rows
			}
		},

		async *listRowIds(database, listOptions) {
			// Only the title comes back (and what cutting an over-full minute reads): the ids are all a reconcile needs.
			const pages = walk(database.externalId, 'created_time', {
				filterProperties: ['title'],
				properties: database.properties,
				onGap: listOptions?.onGap,
			})
			for await (const batch of pages) {
				yield batch.map((page) => page.id)
			}
		},

		async getRow(database, externalId) {
			const page = await retrievePage(externalId)
			if (!page || page.in_trash || page.archived) {
				return null
			}
			const parent = page.parent
			if (parent.type === 'data_source_id' && !sameId(parent.data_source_id, database.externalId)) {
				return null
			}
			return toRow(page, database.properties)
		},

		async createRow(database, values, createOptions) {
			const uploads = await uploadBlobs(values, database.properties)
			const properties = toPageProperties(values, database.properties, uploads)
			// Not idempotent: a lost response is recovered with findCreatedRow, never by a blind retry.
			const page = await call(() => {
				createOptions?.beforeSend?.()
				return client.pages.create({ parent: { data_source_id: database.externalId }, properties })
			}, false)
			return pageToRow(page, database.properties)
		},

		async updateRow(database, externalId, values) {
			const now = Date.now()
			const stale = filesToRenew(values, database.properties, now)
			const before = stale.length > 0 ? await retrievePage(externalId) : null
			const written = before ? withCurrentUrls(values, stale, fromPage(before, stale).values, now) : values
			const uploads = await uploadBlobs(written, database.properties)
			const properties = toPageProperties(written, database.properties, uploads)
			// Setting the same values twice is harmless, so updates are retried like reads.
			const page = await call(() => client.pages.update({ page_id: externalId, properties }))
			return pageToRow(page, database.properties)
		},

		async deleteRow(database, externalId) {
			try {
				// Into the trash, where Notion keeps the page and its values for a restore; trashing twice is harmless.
				const page = await call(() => client.pages.update({ page_id: externalId, in_trash: true }))
				return await pageToRow(page, database.properties)
			} catch (error) {
				if (error instanceof ConnectorError && error.kind === 'not_found') {
					return null
				}
				throw error
			}
		},

		async restoreRow(database, externalId) {
			const page = await call(() => client.pages.update({ page_id: externalId, in_trash: false }))
			return pageToRow(page, database.properties)
		},

		async findCreatedRow(database, since, values, exclude) {
			const claimed = [...(exclude ?? [])]
			// Only rows this connection created: a person may have typed the same values by hand.
			const ours = await botId()
			const pages = walk(database.externalId, 'created_time', {
				from: floorToMinute(since),
				properties: database.properties,
			})
			for await (const batch of pages) {
				for (const page of batch) {
					if (!sameId(page.created_by.id, ours) || claimed.some((id) => sameId(id, page.id))) {
						continue
					}
					const row = await toRow(page, database.properties)
					if (valuesMatch(row, values, database.properties)) {
						return row
					}
				}
			}
			return null
		},

		async listUsers() {
			const users: WorkspaceUser[] = []
			let cursor: string | undefined
			do {
				const startCursor = cursor
				const response = await call(() => client.users.list({ start_cursor: startCursor, page_size: pageSize }))
				users.push(...response.results.map(toUser))
				cursor = response.next_cursor ?? undefined
			} while (cursor)
			return users
		},

		async readPageContent(externalRowId) {
			try {
				// One request per page of children, each through the queue: the walk keeps the workspace's pace.
				const tree = await readBlockTree(externalRowId, (blockId, cursor) =>
					call(() => client.blocks.children.list({ block_id: blockId, start_cursor: cursor, page_size: pageSize })),
				)
				return toContentBlocks(tree.blocks, { truncated: tree.truncated })
			} catch (error) {
				if (error instanceof ConnectorError && error.kind === 'not_found') {
					return null
				}
				throw error
			}
		},

		async readContentFile(blockId) {
			try {
				const block = await call(() => client.blocks.retrieve({ block_id: blockId }))
				return isFullBlock(block) ? hostedFileOf(block) : null
			} catch (error) {
				if (error instanceof ConnectorError && error.kind === 'not_found') {
					return null
				}
				throw error
			}
		},
	}
}
