import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { fieldOf, publishedEnquiryForm, submitAnswers } from '#src/test/forms.ts'
import { createTestApp, randomIp, type TestApp } from '#src/test/test-app.ts'

// Bad input is never a 500. PostgreSQL refuses a NUL character in text and jsonb, and a lone
// UTF-16 surrogate in jsonb (in text it silently becomes U+FFFD). Every operation of the OpenAPI
// document gets such a string in each path parameter, each query parameter and each string of its
// JSON body, signed in as a member where it needs a session, and must answer 400 VALIDATION_FAILED
// naming the field. The routes the document does not describe (better-auth, the web app's pages,
// Notion's webhooks) are checked one by one below.

const nul = 'x\u0000y'
const loneSurrogate = 'x\uD800y'

type Schema = {
	type?: string | string[]
	enum?: unknown[]
	format?: string
	pattern?: string
	minLength?: number
	minimum?: number
	exclusiveMinimum?: number
	minItems?: number
	properties?: Record<string, Schema>
	required?: string[]
	additionalProperties?: Schema | boolean
	items?: Schema
	anyOf?: Schema[]
	oneOf?: Schema[]
}
type Parameter = { in: string; name: string; required?: boolean; schema: Schema }
type Operation = {
	method: string
	path: string
	isSecured: boolean
	parameters: Parameter[]
	body: Schema | undefined
}
type OpenApiDocument = {
	paths: Record<
		string,
		Record<
			string,
			{
				security?: unknown[]
				parameters?: Parameter[]
				requestBody?: { content: Record<string, { schema: Schema }> }
			}
		>
	>
}

const dist = mkdtempSync(path.join(os.tmpdir(), 'bs-bad-input-dist-'))
let t: TestApp
let token: string
let operations: Operation[]
/** The ids of the member's own form, database and workspace, for the routes that take one. */
let ownIds: { form: string; database: string; workspace: string }

beforeAll(async () => {
	const head = '<meta charset="utf-8" /><title>Default title</title>'
	writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html><head>${head}</head><body></body></html>`)
	writeFileSync(path.join(dist, 'form.html'), `<!doctype html><html><head>${head}</head><body>form</body></html>`)
	t = await createTestApp({ WEB_DIST_DIR: dist, FORM_MIN_FILL_SECONDS: '0' })
	token = (await t.signUp()).token
	const { form } = await publishedEnquiryForm(t, token)
	ownIds = { form: form.id, database: form.databaseId, workspace: form.workspaceId }
	const document = (await t.request('GET', '/api/openapi.json')).body as OpenApiDocument
	operations = Object.entries(document.paths).flatMap(([pathTemplate, byMethod]) =>
		Object.entries(byMethod).map(([method, operation]) => ({
			method: method.toUpperCase(),
			path: pathTemplate,
			isSecured: (operation.security ?? []).length > 0,
			parameters: operation.parameters ?? [],
			body: operation.requestBody?.content['application/json']?.schema,
		})),
	)
})
afterAll(async () => {
	await t.close()
	rmSync(dist, { recursive: true, force: true })
})

/** The one alternative of a union that is not null. */
function resolved(schema: Schema): Schema {
	const options = schema.anyOf ?? schema.oneOf
	if (options) {
		return resolved(options.find((option) => option.type !== 'null') ?? options[0] ?? {})
	}
	return schema
}

function typeOf(schema: Schema): string | undefined {
	return Array.isArray(schema.type) ? schema.type.find((type) => type !== 'null') : schema.type
}

function sampleString(schema: Schema): string {
	if (schema.enum) {
		return String(schema.enum[0])
	}
	switch (schema.format) {
		case 'email':
			return 'someone@example.com'
		case 'uri':
			return 'https://example.com/hook'
		case 'date':
			return '2024-01-01'
		case 'date-time':
			return '2024-01-01T00:00:00Z'
	}
	if (schema.pattern) {
		const pattern = new RegExp(schema.pattern)
		const candidates = ['sample-text', `${'A'.repeat(22)}==`]
		return candidates.find((candidate) => pattern.test(candidate)) ?? 'sample-text'
	}
	return 'sample-text'.padEnd(schema.minLength ?? 0, 'x')
}

/** A value that satisfies the schema's shape: required properties only, the fewest array items. */
function sample(raw: Schema): unknown {
	const schema = resolved(raw)
	if (schema.enum) {
		return schema.enum[0]
	}
	switch (typeOf(schema)) {
		case 'object':
			return Object.fromEntries((schema.required ?? []).map((key) => [key, sample(schema.properties?.[key] ?? {})]))
		case 'array':
			return Array.from({ length: schema.minItems ?? 0 }, () => sample(schema.items ?? {}))
		case 'string':
			return sampleString(schema)
		case 'integer':
		case 'number':
			return schema.minimum ?? (schema.exclusiveMinimum ?? 0) + 1
		case 'boolean':
			return false
		default:
			return null
	}
}

type Placement = { value: unknown; path: string[]; isKey?: boolean }

/**
 * Every place in a value of this schema where a string can go, each as a whole value with `bad`
 * there: string properties (required or not, at any depth), array items, the values of records
 * and, for records, a key.
 */
function placements(raw: Schema, bad: string): Placement[] {
	const schema = resolved(raw)
	if (schema.enum) {
		return []
	}
	const type = typeOf(schema)
	if (type === 'string') {
		return [{ value: bad, path: [] }]
	}
	if (type === 'array' && schema.items) {
		const items = schema.items
		const rest = Array.from({ length: Math.max(0, (schema.minItems ?? 0) - 1) }, () => sample(items))
		return placements(items, bad).map((inner) => ({
			...inner,
			value: [inner.value, ...rest],
			path: ['0', ...inner.path],
		}))
	}
	if (type !== 'object') {
		return []
	}
	const base = sample(schema) as Record<string, unknown>
	const result: Placement[] = []
	for (const [key, property] of Object.entries(schema.properties ?? {})) {
		for (const inner of placements(property, bad)) {
			result.push({ ...inner, value: { ...base, [key]: inner.value }, path: [key, ...inner.path] })
		}
	}
	const valueSchema = schema.additionalProperties
	if (typeof valueSchema === 'object' && !schema.properties) {
		const values =
			typeOf(resolved(valueSchema)) === undefined ? [{ value: bad, path: [] }] : placements(valueSchema, bad)
		for (const inner of values) {
			result.push({ ...inner, value: { ...base, abc: inner.value }, path: ['abc', ...inner.path] })
		}
		result.push({ value: { ...base, [`key${bad}`]: sample(valueSchema) ?? 'sample-text' }, path: ['key'], isKey: true })
	}
	return result
}

/**
 * A real id where the route takes one of the member's objects: a route may look its object up
 * (and answer 404) before it reads the body, and a bad string should reach as far as it can.
 */
function ownIdsFor(pathTemplate: string): Record<string, string> {
	if (/^\/(dashboard|api)\/forms\/\{id\}/.test(pathTemplate)) {
		return { id: ownIds.form }
	}
	if (/^\/dashboard\/(\{tool\}|local)\/databases\/\{id\}/.test(pathTemplate)) {
		return { id: ownIds.database }
	}
	if (/^\/dashboard\/workspaces\/\{id\}/.test(pathTemplate)) {
		return { id: ownIds.workspace }
	}
	return {}
}

function pathWith(operation: Operation, values: Record<string, string>): string {
	const own = ownIdsFor(operation.path)
	return operation.path.replaceAll(/\{(\w+)\}/g, (_, name: string) => {
		const parameter = operation.parameters.find((candidate) => candidate.in === 'path' && candidate.name === name)
		return values[name] ?? encodeURIComponent(own[name] ?? sampleString(parameter?.schema ?? {}))
	})
}

function queryWith(operation: Operation, values: Record<string, string>): string {
	const pairs = operation.parameters
		.filter((parameter) => parameter.in === 'query' && (parameter.required || parameter.name in values))
		.map((parameter) => {
			const value = values[parameter.name] ?? encodeURIComponent(String(sample(parameter.schema)))
			return `${encodeURIComponent(parameter.name)}=${value}`
		})
	return pairs.length > 0 ? `?${pairs.join('&')}` : ''
}

type Answer = Awaited<ReturnType<TestApp['request']>>

/** What went wrong with one request, or nothing: a 400 VALIDATION_FAILED that names the field. */
function problemWith(answer: Answer, isField: (field: string) => boolean): string | undefined {
	const fields = ((answer.body?.errors ?? []) as { field: string }[]).map((error) => error.field)
	if (answer.status === 400 && answer.body?.code === 'VALIDATION_FAILED' && fields.some(isField)) {
		return undefined
	}
	return `${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`
}

async function send(operation: Operation, url: string, json: unknown) {
	return t.request(operation.method, url, {
		ip: randomIp(),
		...(operation.isSecured ? { token } : {}),
		...(json === undefined ? {} : { json }),
	})
}

describe('every operation of the OpenAPI document', () => {
	test('a NUL in a path parameter is a 400 naming it', async () => {
		const failures: string[] = []
		let cases = 0
		for (const operation of operations) {
			for (const [, name] of operation.path.matchAll(/\{(\w+)\}/g)) {
				if (!name) {
					continue
				}
				cases++
				const url = pathWith(operation, { [name]: encodeURIComponent(nul) }) + queryWith(operation, {})
				const answer = await send(operation, url, operation.body && sample(operation.body))
				const problem = problemWith(answer, (field) => field === name)
				if (problem) {
					failures.push(`${operation.method} ${operation.path} {${name}}: ${problem}`)
				}
			}
		}
		expect(cases).toBeGreaterThan(50)
		expect(failures).toEqual([])
	})

	test('a NUL in a query parameter is a 400 naming it', async () => {
		const failures: string[] = []
		let cases = 0
		for (const operation of operations) {
			for (const parameter of operation.parameters.filter((candidate) => candidate.in === 'query')) {
				cases++
				const url = pathWith(operation, {}) + queryWith(operation, { [parameter.name]: encodeURIComponent(nul) })
				const answer = await send(operation, url, operation.body && sample(operation.body))
				const problem = problemWith(answer, (field) => field === parameter.name)
				if (problem) {
					failures.push(`${operation.method} ${operation.path} ?${parameter.name}: ${problem}`)
				}
			}
		}
		expect(cases).toBeGreaterThan(20)
		expect(failures).toEqual([])
	})

	test('a NUL or a lone surrogate in any string of a JSON body, or in a key of a record, is a 400 naming it', async () => {
		const failures: string[] = []
		let cases = 0
		for (const operation of operations) {
			if (!operation.body) {
				continue
			}
			for (const [label, bad] of [
				['NUL', nul],
				['lone surrogate', loneSurrogate],
			] as const) {
				for (const placement of placements(operation.body, bad)) {
					cases++
					const field = placement.path.join('.')
					const answer = await send(operation, pathWith(operation, {}) + queryWith(operation, {}), placement.value)
					// A key is named by its path, with the character it refuses written out.
					const problem = problemWith(answer, (named) => (placement.isKey ? named.startsWith(field) : named === field))
					if (problem) {
						failures.push(
							`${operation.method} ${operation.path} ${label} in ${field}${placement.isKey ? ' (key)' : ''}: ${problem}`,
						)
					}
				}
			}
		}
		expect(cases).toBeGreaterThan(100)
		expect(failures).toEqual([])
	})
})

describe('a published form', () => {
	test('an answer with a NUL or a lone surrogate is a 400 naming it, and nothing is stored', async () => {
		const owner = await t.signUp()
		const { form } = await publishedEnquiryForm(t, owner.token)
		const name = fieldOf(form, 'Name')
		for (const bad of [nul, loneSurrogate]) {
			const answer = await submitAnswers(t, form, { [name.id]: `Ada ${bad}` })
			expect(problemWith(answer, (field) => field === `answers.${name.id}`)).toBeUndefined()
		}
		const list = await t.request('GET', `/dashboard/forms/${form.id}/submissions`, { token: owner.token })
		expect(list.status).toBe(200)
		expect(JSON.stringify(list.body)).not.toContain('Ada x')
		// Text with characters outside the basic plane (a surrogate pair) is well-formed and taken.
		const accepted = await submitAnswers(t, form, { [name.id]: 'Ada 😀 Lovelace' })
		expect(accepted.status, JSON.stringify(accepted.body)).toBe(201)
	})
})

describe('routes the OpenAPI document does not describe', () => {
	test('better-auth: sign-in and sign-up with a NUL or a lone surrogate are 400s naming the field', async () => {
		const account = await t.signUp()
		const cases: [string, string, Record<string, string>, string][] = [
			[
				'sign-in, NUL e-mail',
				'/api/auth/sign-in/email',
				{ email: `a${nul}@example.com`, password: 'whatever1' },
				'email',
			],
			['sign-in, NUL password', '/api/auth/sign-in/email', { email: account.email, password: nul }, 'password'],
			[
				'sign-in, lone surrogate in the password',
				'/api/auth/sign-in/email',
				{ email: account.email, password: `pass${loneSurrogate}word` },
				'password',
			],
			[
				'sign-up, NUL name',
				'/api/auth/sign-up/email',
				{ email: `new-${Date.now()}@example.com`, password: 'correct horse battery', name: nul },
				'name',
			],
			[
				'sign-up, lone surrogate in the name',
				'/api/auth/sign-up/email',
				{ email: `new2-${Date.now()}@example.com`, password: 'correct horse battery', name: loneSurrogate },
				'name',
			],
		]
		const failures: string[] = []
		for (const [label, url, json, field] of cases) {
			const answer = await t.request('POST', url, { json, ip: randomIp() })
			const problem = problemWith(answer, (named) => named === field)
			if (problem) {
				failures.push(`${label}: ${problem}`)
			}
		}
		expect(failures).toEqual([])
		// The guard reads a copy of the body: better-auth still gets the original.
		const signedIn = await t.signIn(account.email, account.password)
		expect(signedIn.status).toBe(200)
	})

	test('better-auth: a NUL in its path or query is a 400', async () => {
		const failures: string[] = []
		for (const url of [
			`/api/auth/reset-password/${encodeURIComponent(nul)}?callbackURL=%2F`,
			`/api/auth/verify-email?token=${encodeURIComponent(nul)}`,
		]) {
			const answer = await t.request('GET', url, { ip: randomIp() })
			const problem = problemWith(answer, () => true)
			if (problem) {
				failures.push(`${url}: ${problem}`)
			}
		}
		expect(failures).toEqual([])
	})

	test('the web app: a NUL in a page path or its query is a 400', async () => {
		const page = await t.request('GET', `/forms/${encodeURIComponent(nul)}`)
		expect(problemWith(page, (field) => field === 'id')).toBeUndefined()
		const query = await t.request('GET', `/forms/abc?utm_source=${encodeURIComponent(nul)}`)
		expect(problemWith(query, (field) => field === 'utm_source')).toBeUndefined()
		const invite = await t.request('GET', `/invite/${encodeURIComponent(nul)}`)
		expect(problemWith(invite, () => true)).toBeUndefined()
	})

	test("Notion's webhook: a NUL in its body is a 400 naming the field", async () => {
		const answer = await t.request('POST', '/api/notion/webhooks', { json: { verification_token: nul } })
		expect(problemWith(answer, (field) => field === 'verification_token')).toBeUndefined()
	})
})

test('invalid percent-encoding in a path or query is never a 500', async () => {
	// Encoded surrogates, overlong NULs, cut-off sequences: none decodes, so the text stays as sent.
	const urls = [
		'/api/forms/%E0%A4%A',
		'/api/forms/%ED%A0%80',
		'/api/forms/%C0%80',
		'/api/forms/%FF',
		'/api/forms/abc?unlockToken=%ED%A0%80',
		'/forms/%ED%A0%80',
		'/forms/%C0%80',
		'/dashboard/forms/%E0%A4%A',
		'/dashboard/local/databases/abc/rows?search=%ED%B0%80',
		'/api/auth/reset-password/%ED%A0%80?callbackURL=%2F',
	]
	const failures: string[] = []
	for (const url of urls) {
		const answer = await t.request('GET', url, { token, ip: randomIp() })
		if (answer.status >= 500) {
			failures.push(`${url}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`)
		}
	}
	expect(failures).toEqual([])
})
