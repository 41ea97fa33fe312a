import type { MiddlewareHandler } from 'hono'
import { bodyLimit as countingBodyLimit } from 'hono/body-limit'
import { AppError } from './errors.ts'

/**
 * Refuses request bodies over `maxBytes(path)` with 413. A declared Content-Length is trusted:
 * Node's parser never delivers more bytes than it declares, so reading the header is enough
 * and the body stays untouched for the adapter's fast JSON read. Only a body without a length
 * (chunked) is counted as it streams, by Hono's own limiter.
 */
export function bodyLimits(maxBytes: (path: string) => number): MiddlewareHandler {
	const counting = new Map<number, MiddlewareHandler>()
	return (c, next) => {
		const method = c.req.method
		if (method === 'GET' || method === 'HEAD' || method === 'OPTIONS') {
			return next()
		}
		const max = maxBytes(c.req.path)
		const declared = c.req.header('content-length')
		if (declared !== undefined && c.req.header('transfer-encoding') === undefined) {
			if (Number(declared) > max) {
				tooLarge(max)
			}
			return next()
		}
		let limiter = counting.get(max)
		if (!limiter) {
			limiter = countingBodyLimit({ maxSize: max, onError: () => tooLarge(max) })
			counting.set(max, limiter)
		}
		return limiter(c, next)
	}
}

function tooLarge(limit: number): never {
	throw new AppError('PAYLOAD_TOO_LARGE', { detail: `The request body is larger than ${limit} bytes.` })
}
