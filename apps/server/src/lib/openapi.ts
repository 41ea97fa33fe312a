import { problemSchema } from '@blocksmith/contracts/errors.ts'
import { createRoute, OpenAPIHono, type RouteConfig } from '@hono/zod-openapi'
import type { Env } from 'hono'
import type { z } from 'zod'
import { AppError, validationError } from './errors.ts'
import { invalidTextErrors } from './invalid-text.ts'

/**
 * A router whose routes are declared with their zod schemas. A request that fails its
 * schema never reaches the handler: it becomes a VALIDATION_FAILED problem listing the fields.
 * Every string and key that passes (params, query, body, at any depth) must also be text
 * PostgreSQL accepts: no NUL, no lone surrogate (decision 018).
 */
export function createRouter<E extends Env>() {
	return new OpenAPIHono<E>({
		defaultHook: (result) => {
			// The parsed value when it passed; the input as received when it did not.
			const textErrors = invalidTextErrors((result as { data?: unknown }).data)
			if (!result.success) {
				throw validationError(result.error.issues, textErrors)
			}
			if (textErrors.length > 0) {
				throw new AppError('VALIDATION_FAILED', { errors: textErrors })
			}
		},
	})
}

export function jsonBody<T extends z.ZodType>(schema: T) {
	return { content: { 'application/json': { schema } }, required: true } as const
}

export function jsonResponse<T extends z.ZodType>(schema: T, description: string) {
	return { content: { 'application/json': { schema } }, description } as const
}

export function problemResponse(description: string) {
	return { content: { 'application/problem+json': { schema: problemSchema } }, description } as const
}

/** The problem responses most routes can answer with, for the OpenAPI document. */
export const commonProblems = {
	400: problemResponse('Invalid input'),
	401: problemResponse('Not signed in'),
	404: problemResponse('Not found in your organization'),
	429: problemResponse('Rate limited'),
} as const

/** A route as a module states it: only what differs from the module's other routes. */
export type RouteSpec = Omit<RouteConfig, 'path' | 'tags' | 'security'> & { path: string }

/**
 * A members' route under `base` (e.g. `/dashboard/local_time`): bearer auth, the module's tag,
 * and the 401 every one of them can answer.
 */
export function bearerRoute<R extends RouteSpec>(base: string, tag: string, spec: R) {
	return createRoute({
		...spec,
		path: `${base}${spec.path}`,
		tags: [tag],
		security: [{ bearer: [] }],
		responses: { 401: commonProblems[401], ...spec.responses },
	})
}
