import { promisify } from 'node:util'
import { constants, gzip } from 'node:zlib'
import type { MiddlewareHandler } from 'hono'

const gzipAsync = promisify(gzip)

/** Below this a gzipped body saves less than the work and the headers cost. */
const minBytes = 1024
const compressible = /^\s*(?:text\/|application\/(?:json|javascript|problem\+json|xml|manifest\+json)|image\/svg\+xml)/i
/** Hashed build assets never change under one name: each is compressed once and kept. */
const keptBytesLimit = 32 * 1024 * 1024

/**
 * gzip where it pays: the web app's files, HTML and large JSON read by GET. Answers to other
 * methods (acknowledgements, a few hundred bytes) and clients that do not ask are left exactly
 * as the handler built them, so the Node adapter's fast path for them stays intact: headers are
 * set on the response in place, never by rebuilding it.
 */
export function compression(options: { isImmutable: (path: string) => boolean }): MiddlewareHandler {
	const kept = new Map<string, Buffer>()
	let keptBytes = 0
	return async (c, next) => {
		await next()
		const method = c.req.method
		if (method !== 'GET') {
			return
		}
		const res = c.res
		const type = res.headers.get('content-type')
		if (!type || !compressible.test(type) || res.status !== 200 || res.headers.has('content-encoding')) {
			return
		}
		const declared = res.headers.get('content-length')
		if (declared !== null && Number(declared) < minBytes) {
			return
		}
		if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(res.headers.get('cache-control') ?? '')) {
			return
		}
		const vary = res.headers.get('vary')
		if (!vary) {
			res.headers.set('vary', 'Accept-Encoding')
		} else if (vary !== '*' && !/accept-encoding/i.test(vary)) {
			res.headers.set('vary', `${vary}, Accept-Encoding`)
		}
		if (!acceptsGzip(c.req.header('accept-encoding'))) {
			return
		}
		const path = c.req.path
		const isImmutable = options.isImmutable(path)
		let body = isImmutable ? kept.get(path) : undefined
		if (!body) {
			const plain = Buffer.from(await res.arrayBuffer())
			if (plain.byteLength < minBytes) {
				c.res = new Response(plain, { status: res.status, headers: res.headers })
				return
			}
			body = await gzipAsync(plain, {
				level: isImmutable ? constants.Z_BEST_COMPRESSION : constants.Z_DEFAULT_COMPRESSION,
			})
			if (isImmutable && keptBytes + body.byteLength <= keptBytesLimit) {
				kept.set(path, body)
				keptBytes += body.byteLength
			}
		}
		// Hono copies the replaced response's headers onto the new one, so they are changed in place.
		const headers = res.headers
		headers.set('content-encoding', 'gzip')
		headers.set('content-length', String(body.byteLength))
		const etag = headers.get('etag')
		if (etag && !etag.startsWith('W/')) {
			headers.set('etag', `W/${etag}`)
		}
		c.res = new Response(body, { status: res.status, headers })
	}
}

/** Whether the client takes gzip: named (or `*`) with a quality above zero. */
function acceptsGzip(header: string | undefined): boolean {
	if (!header) {
		return false
	}
	let wildcard = false
	for (const part of header.split(',')) {
		const [name = '', ...params] = part.trim().toLowerCase().split(';')
		const q = params.map((param) => param.trim()).find((param) => param.startsWith('q='))
		const isRefused = q !== undefined && Number(q.slice(2)) === 0
		if (name === 'gzip' || name === 'x-gzip') {
			return !isRefused
		}
		if (name === '*') {
			wildcard = !isRefused
		}
	}
	return wildcard
}
