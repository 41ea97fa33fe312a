import type { FieldError } from '@blocksmith/contracts/errors.ts'
import type { OpenAPIHono } from '@hono/zod-openapi'
import type { MiddlewareHandler } from 'hono'
import { matchedRoutes } from 'hono/route'
import type { RouterRoute } from 'hono/types'
import { AppError } from './errors.ts'

type Registry = OpenAPIHono['openAPIRegistry']

// PostgreSQL refuses a NUL character in text and jsonb, and a lone UTF-16 surrogate in jsonb (in
// text it silently becomes U+FFFD). Such strings are bad input: they are refused where input is
// validated, as a 400 naming the field, instead of failing in a query as a 500. See decision 018.

/** At most this many fields are listed; a body full of NULs needs no complete inventory. */
const maxErrors = 20

function problemOf(text: string): string | undefined {
	if (text.includes('\u0000')) {
		return 'Must not contain a NUL character (U+0000).'
	}
	if (!text.isWellFormed()) {
		return 'Must be valid Unicode text: it contains a lone surrogate (U+D800 to U+DFFF).'
	}
	return undefined
}

function isContainer(value: unknown): value is Record<string, unknown> | unknown[] {
	return typeof value === 'object' && value !== null
}

/** Whether any string or object key in the value is refused; no allocation beyond a work stack. */
export function hasInvalidText(value: unknown): boolean {
	if (typeof value === 'string') {
		return problemOf(value) !== undefined
	}
	// A loop, not recursion: JSON nested a hundred thousand deep must not overflow the stack.
	const stack: unknown[] = [value]
	while (stack.length > 0) {
		const current = stack.pop()
		if (Array.isArray(current)) {
			for (const item of current) {
				if (typeof item === 'string') {
					if (problemOf(item) !== undefined) {
						return true
					}
				} else if (isContainer(item)) {
					stack.push(item)
				}
			}
		} else if (isContainer(current)) {
			const record = current as Record<string, unknown>
			for (const key in record) {
				const item = record[key]
				if (problemOf(key) !== undefined || (typeof item === 'string' && problemOf(item) !== undefined)) {
					return true
				}
				if (isContainer(item)) {
					stack.push(item)
				}
			}
		}
	}
	return false
}

/** A key or value written so that a person can read it: refused characters as `\uXXXX`. */
function printable(text: string): string {
	return text
		.replaceAll('\u0000', '\\u0000')
		.replaceAll(
			/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g,
			(character) => `\\u${character.charCodeAt(0).toString(16)}`,
		)
}

/** A place in the value: its key and its parent, so that a path is built only for a refusal. */
type Place = { value: unknown; key: string; parent: Place | undefined }

function pathOf(place: Place, key?: string): string {
	const keys = key === undefined ? [] : [key]
	for (let current: Place | undefined = place; current?.parent; current = current.parent) {
		keys.push(current.key)
	}
	return keys.reverse().join('.')
}

/**
 * The strings and object keys in a value (parsed JSON, params, query) that PostgreSQL would
 * refuse, as field errors with dotted paths (`answers.abc`, `events.0.formId`).
 */
export function invalidTextErrors(value: unknown): FieldError[] {
	if (!hasInvalidText(value)) {
		return []
	}
	if (typeof value === 'string') {
		return [{ field: '', message: problemOf(value) as string }]
	}
	const errors: FieldError[] = []
	const stack: Place[] = [{ value, key: '', parent: undefined }]
	while (stack.length > 0 && errors.length < maxErrors) {
		const place = stack.pop() as Place
		const containers: Place[] = []
		if (Array.isArray(place.value)) {
			for (let index = 0; index < place.value.length; index++) {
				const item: unknown = place.value[index]
				const problem = typeof item === 'string' ? problemOf(item) : undefined
				if (problem) {
					errors.push({ field: pathOf(place, String(index)), message: problem })
				} else if (isContainer(item)) {
					containers.push({ value: item, key: String(index), parent: place })
				}
			}
		} else {
			const record = place.value as Record<string, unknown>
			for (const key in record) {
				const item = record[key]
				const keyProblem = problemOf(key)
				const problem = typeof item === 'string' ? problemOf(item) : undefined
				if (keyProblem) {
					errors.push({ field: pathOf(place, printable(key)), message: `This key: ${keyProblem}` })
				} else if (problem) {
					errors.push({ field: pathOf(place, key), message: problem })
				} else if (isContainer(item)) {
					containers.push({ value: item, key, parent: place })
				}
			}
		}
		// Pushed in reverse so that the first container is looked into next.
		for (let index = containers.length - 1; index >= 0; index--) {
			stack.push(containers[index] as Place)
		}
	}
	return errors.slice(0, maxErrors)
}

/** Whether a route is an operation declared with its zod schema (in the OpenAPI document). */
function declaredRouteCheck(registry: Registry) {
	let declared: Set<string> | undefined
	const isDeclaredByRoute = new WeakMap<RouterRoute, boolean>()
	return (route: RouterRoute): boolean => {
		let isDeclared = isDeclaredByRoute.get(route)
		if (isDeclared === undefined) {
			declared ??= new Set(
				registry.definitions.flatMap((definition) =>
					definition.type === 'route'
						? [`${definition.route.method.toUpperCase()} ${definition.route.path.replaceAll(/\{(.+?)\}/g, ':$1')}`]
						: [],
				),
			)
			isDeclared = declared.has(`${route.method} ${route.path}`)
			isDeclaredByRoute.set(route, isDeclared)
		}
		return isDeclared
	}
}

/** The names of a route's path parameters by segment index (`/forms/:id` → 2: id). */
function parameterNames(routes: RouterRoute[]): Map<number, string> {
	const names = new Map<number, string>()
	for (const route of routes) {
		// A parameter's own pattern (`:file{[^/]+}`) may hold a slash: it is not part of the name.
		const segments = route.path.replaceAll(/\{[^}]*\}/g, '').split('/')
		segments.forEach((segment, index) => {
			if (segment.startsWith(':')) {
				names.set(index, segment.slice(1).replace(/\?$/, ''))
			}
		})
	}
	return names
}

function decoded(text: string): string {
	try {
		return decodeURIComponent(text.replaceAll('+', ' '))
	} catch {
		return text
	}
}

/** A NUL arrives in a URL only percent-encoded: `%00` in a path segment or a query pair. */
function urlErrors(url: string, routes: RouterRoute[]): FieldError[] {
	const { pathname, search } = new URL(url)
	const message = problemOf('\u0000') as string
	const errors: FieldError[] = []
	const names = parameterNames(routes)
	pathname.split('/').forEach((segment, index) => {
		if (segment.includes('%00')) {
			errors.push({ field: names.get(index) ?? 'path', message })
		}
	})
	for (const pair of search.slice(1).split('&')) {
		if (pair.includes('%00')) {
			const key = pair.split('=', 1)[0] as string
			errors.push({ field: printable(decoded(key)), message })
		}
	}
	return errors
}

const jsonType = /^application\/([a-z0-9.+-]+\+)?json\b/i
const formType = /^application\/x-www-form-urlencoded\b/i

async function bodyErrors(request: Request, contentType: string): Promise<FieldError[]> {
	let text: string
	try {
		// A copy: the handler reads the body itself (better-auth takes the whole request).
		text = await request.clone().text()
	} catch {
		// Unreadable (too large, cut off): the handler's own read reports it.
		return []
	}
	if (formType.test(contentType)) {
		return invalidTextErrors(Object.fromEntries(new URLSearchParams(text)))
	}
	try {
		return invalidTextErrors(JSON.parse(text))
	} catch {
		// Not JSON: the handler refuses it as it would without this check.
		return []
	}
}

/**
 * The same refusal where the validation hook comes too late or never runs. A NUL in the URL
 * (`%00`) is refused for every request, before any middleware: a route's own middleware runs
 * before its schema is checked and may already look a path parameter up. A body is checked here
 * only on the routes not declared with a zod schema, whose body the hook never sees: better-auth
 * under /api/auth/*, Notion's webhooks. Costs nothing unless the URL holds `%00` or the request
 * has a JSON or form body.
 */
export function refuseInvalidText(registry: Registry): MiddlewareHandler {
	const isDeclared = declaredRouteCheck(registry)
	return async (c, next) => {
		const hasEncodedNul = c.req.url.includes('%00')
		const contentType = c.req.header('content-type') ?? ''
		const hasTextBody = jsonType.test(contentType) || formType.test(contentType)
		if (!hasEncodedNul && !hasTextBody) {
			return next()
		}
		const routes = matchedRoutes(c)
		const errors = hasEncodedNul ? urlErrors(c.req.url, routes) : []
		if (hasTextBody && !routes.some(isDeclared)) {
			errors.push(...(await bodyErrors(c.req.raw, contentType)))
		}
		if (errors.length > 0) {
			throw new AppError('VALIDATION_FAILED', { errors: errors.slice(0, maxErrors) })
		}
		return next()
	}
}
