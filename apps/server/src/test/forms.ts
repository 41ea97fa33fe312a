import { createHash, randomUUID } from 'node:crypto'
import { crc32, deflateSync } from 'node:zlib'
import { type FormField, formFieldSchema } from '@blocksmith/contracts/forms.ts'
import { expect } from 'vitest'
import type { TestApp } from '#src/test/test-app.ts'

// What the forms tests share: a published form on the sample's Enquiries database, answers sent
// the way the public page sends them, and a visitor's file upload.

export type TestField = { id: string; propertyId: string; kind: string; label: string; required: boolean }
export type TestForm = { id: string; fields: TestField[]; databaseId: string; workspaceId: string }
type Database = { id: string; name: string; properties: { id: string; name: string; type: string }[] }

/** The sample workspace's databases by name, for a new account. */
async function sampleDatabases(t: TestApp, token: string): Promise<Record<string, Database>> {
	const created = await t.request('POST', '/dashboard/workspaces/sample', { token })
	expect(created.status).toBe(201)
	const list = await t.request('GET', `/dashboard/local/databases?workspaceId=${created.body.workspace.id}`, { token })
	return Object.fromEntries((list.body as Database[]).map((database) => [database.name, database]))
}

/**
 * The fields a new form leaves out (relation, people, status: forms private by default) added
 * at the end, as the owner adds them in the builder. Returns the whole field list to save.
 */
export function withEveryProperty(form: { fields: TestField[] }, database: Database): TestField[] {
	const kinds: Record<string, string> = { relation: 'relation', people: 'people', status: 'status' }
	const added = database.properties
		.filter((property) => kinds[property.type] && !form.fields.some((f) => f.propertyId === property.id))
		.map((property) => ({
			id: randomUUID(),
			propertyId: property.id,
			kind: kinds[property.type] as string,
			label: property.name,
			helpText: null,
			placeholder: null,
			required: false,
			defaultValue: null,
			includeTime: false,
			hidden: false,
			param: null,
			fileRules: null,
		}))
	return [...form.fields, ...added]
}

/** A published form on the sample's Enquiries database (one field of every kind), with `extra` set. */
export async function publishedEnquiryForm(t: TestApp, token: string, extra: Record<string, unknown> = {}) {
	const databases = await sampleDatabases(t, token)
	const enquiries = databases.Enquiries as Database
	const created = await t.request('POST', '/dashboard/forms', {
		token,
		json: { name: 'Contact', databaseId: enquiries.id },
	})
	expect(created.status).toBe(201)
	const published = await t.request('PATCH', `/dashboard/forms/${created.body.id}`, {
		token,
		json: { published: true, fields: withEveryProperty(created.body, enquiries), ...extra },
	})
	expect(published.status).toBe(200)
	return { form: published.body as TestForm, databases }
}

export function fieldOf(form: TestForm, label: string): TestField {
	const found = form.fields.find((candidate) => candidate.label === label)
	if (!found) {
		throw new Error(`no field ${label}`)
	}
	return found
}

/** Sends answers as the public page does: with a fresh render token and a new idempotency key. */
export async function submitAnswers(
	t: TestApp,
	form: { id: string },
	answers: Record<string, unknown>,
	options: { key?: string; ip?: string; unlockToken?: string } = {},
) {
	const page = await t.request('GET', `/api/forms/${form.id}`)
	return t.request('POST', '/api/submissions', {
		ip: options.ip ?? '198.51.100.7',
		json: {
			formId: form.id,
			answers,
			idempotencyKey: options.key ?? randomUUID(),
			renderToken: page.body.renderToken,
			...(options.unlockToken ? { unlockToken: options.unlockToken } : {}),
		},
	})
}

const md5 = (data: Uint8Array) => createHash('md5').update(data).digest('base64')

/** The path and query of an absolute URL, for app.request. */
export const localPath = (url: string) => {
	const parsed = new URL(url)
	return `${parsed.pathname}${parsed.search}`
}

/** A visitor announces a file for a file field; the response as the server gave it. */
export async function announceFile(
	t: TestApp,
	formId: string,
	fieldId: string,
	file: { name: string; type: string; bytes: Uint8Array },
	options: { byteSize?: number; unlockToken?: string; ip?: string } = {},
) {
	return t.request('POST', `/api/forms/${formId}/uploads`, {
		ip: options.ip ?? '198.51.100.7',
		json: {
			fieldId,
			filename: file.name,
			byteSize: options.byteSize ?? file.bytes.byteLength,
			checksum: md5(file.bytes),
			contentType: file.type,
			...(options.unlockToken ? { unlockToken: options.unlockToken } : {}),
		},
	})
}

/** A real white PNG of `width` × `height` pixels, as the signature pad sends one. */
export function pngOf(width: number, height: number): Uint8Array {
	const chunk = (type: string, data: Buffer) => {
		const body = Buffer.concat([Buffer.from(type, 'latin1'), data])
		const length = Buffer.alloc(4)
		length.writeUInt32BE(data.length)
		const crc = Buffer.alloc(4)
		crc.writeUInt32BE(crc32(body))
		return Buffer.concat([length, body, crc])
	}
	const header = Buffer.alloc(13)
	header.writeUInt32BE(width, 0)
	header.writeUInt32BE(height, 4)
	header.set([8, 0, 0, 0, 0], 8) // 8-bit greyscale
	// Each row: filter 0, then one byte a pixel.
	const rows = Buffer.alloc((width + 1) * height, 255)
	for (let row = 0; row < height; row++) {
		rows[row * (width + 1)] = 0
	}
	return new Uint8Array(
		Buffer.concat([
			Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
			chunk('IHDR', header),
			chunk('IDAT', deflateSync(rows)),
			chunk('IEND', Buffer.alloc(0)),
		]),
	)
}

/** Announces and uploads a file; returns the answer entry that names it. */
export async function uploadFile(
	t: TestApp,
	formId: string,
	fieldId: string,
	file: { name: string; type: string; bytes: Uint8Array },
): Promise<{ blobId: string; name: string }> {
	const announced = await announceFile(t, formId, fieldId, file)
	expect(announced.status, JSON.stringify(announced.body)).toBe(201)
	const { url, headers } = announced.body.directUpload
	const put = await t.request('PUT', localPath(url), { body: file.bytes, headers })
	expect(put.status, JSON.stringify(put.body)).toBe(200)
	return { blobId: announced.body.id, name: file.name }
}

/** Polls `read` until `isDone` (or 15 s), for what the delivery job does after the answer. */
export async function waitFor<T>(read: () => Promise<T>, isDone: (value: T) => boolean, timeoutMs = 15_000) {
	const deadline = Date.now() + timeoutMs
	let value = await read()
	while (!isDone(value) && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 100))
		value = await read()
	}
	return value
}

/**
 * A built-in "Survey" database (in the account's sample workspace) with a property for each newer
 * question kind to write: numbers for rating, scale, NPS and a total; a multi-select and two texts
 * for rankings and a matrix; files for a signature.
 */
export async function surveyDatabase(t: TestApp, token: string): Promise<Database & { workspaceId: string }> {
	const created = await t.request('POST', '/dashboard/workspaces/sample', { token })
	expect(created.status).toBe(201)
	const workspaceId = created.body.workspace.id as string
	const option = (name: string) => ({ name })
	const database = await t.request('POST', '/dashboard/local/databases', {
		token,
		json: {
			workspaceId,
			name: 'Survey',
			properties: [
				{ name: 'Name', type: 'title' },
				{ name: 'Stars', type: 'number' },
				{ name: 'Effort', type: 'number' },
				{ name: 'Recommend', type: 'number' },
				{ name: 'Total', type: 'number' },
				{ name: 'Priorities', type: 'multi_select', options: ['Speed', 'Price', 'Support'].map(option) },
				{ name: 'Order', type: 'rich_text' },
				{ name: 'Grid', type: 'rich_text' },
				{ name: 'Signature', type: 'files' },
			],
		},
	})
	expect(database.status, JSON.stringify(database.body)).toBe(201)
	return { ...(database.body as Database), workspaceId }
}

/** The id of a database's property, by name. */
export function propertyIdOf(database: Database, name: string): string {
	const property = database.properties.find((candidate) => candidate.name === name)
	if (!property) {
		throw new Error(`no property ${name}`)
	}
	return property.id
}

/**
 * A published form on `databaseId` holding exactly `fields` (each parsed by the contract, so the
 * defaults fill what a test leaves out), with `extra` set. Returns the saved form.
 */
export async function publishedFormWith(
	t: TestApp,
	token: string,
	databaseId: string,
	fields: Record<string, unknown>[],
	extra: Record<string, unknown> = {},
) {
	const created = await t.request('POST', '/dashboard/forms', { token, json: { name: 'Survey', databaseId } })
	expect(created.status, JSON.stringify(created.body)).toBe(201)
	const saved = await t.request('PATCH', `/dashboard/forms/${created.body.id}`, {
		token,
		json: { published: true, fields: fields.map((field) => formFieldSchema.parse(field)), ...extra },
	})
	expect(saved.status, JSON.stringify(saved.body)).toBe(200)
	return saved.body as TestForm & { fields: FormField[] }
}

/** The rows of a built-in database, for reading back what answers wrote. */
export async function rowsOf(t: TestApp, token: string, databaseId: string) {
	const response = await t.request('GET', `/dashboard/local/databases/${databaseId}/rows?limit=100`, { token })
	expect(response.status).toBe(200)
	return response.body.rows as { id: string; title: string; values: Record<string, unknown> }[]
}

/** A member's image upload (for page, theme and image items); returns its blob id. */
export async function uploadMemberImage(t: TestApp, token: string, name: string, type: string, bytes: Uint8Array) {
	const announced = await t.request('POST', '/dashboard/active_storage/direct_uploads', {
		token,
		json: { filename: name, byteSize: bytes.byteLength, checksum: md5(bytes), contentType: type },
	})
	expect(announced.status, JSON.stringify(announced.body)).toBeLessThan(300)
	const { url, headers } = announced.body.directUpload
	const put = await t.request('PUT', localPath(url), { body: bytes, headers })
	expect(put.status).toBe(200)
	return announced.body.id as string
}
