import { problemSchema } from '@blocksmith/contracts/errors.ts'
import { OpenAPIHono } from '@hono/zod-openapi'
import type { Env } from 'hono'
import type { z } from 'zod'
import { validationError } from './errors.ts'

/**
 * A router whose routes are declared with their zod schemas. A request that fails its
 * schema never reaches the handler: it becomes a VALIDATION_FAILED problem listing the fields.
 */
export function createRouter<E extends Env>() {
	return new OpenAPIHono<E>({
		defaultHook: (result) => {
			if (!result.success) {
				throw validationError(result.error.issues)
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
