import { lookup as dnsLookup } from 'node:dns/promises'
import http, { type IncomingMessage } from 'node:http'
import https from 'node:https'
import { isIP, type LookupFunction } from 'node:net'
import ipaddr from 'ipaddr.js'

export type SafeFetchOptions = {
	/** The whole request: every redirect hop, DNS, and the body. */
	timeoutMs: number
	/** Body cap; the fetch is aborted and refused beyond it (also when Content-Length announces more). */
	maxBytes: number
	/** Default 3. */
	maxRedirects?: number
	/** Address policy; default refuses everything that is not public unicast (see isPublicAddress). */
	isAllowedAddress?: (address: string) => boolean
	/** DNS lookup; default node:dns lookup with all: true. Injectable for tests. */
	lookup?: (hostname: string) => Promise<{ address: string; family: number }[]>
	accept?: string
	/**
	 * Send this body with POST instead of a GET (webhooks). Redirects are then not followed: a
	 * 3xx answer is a 'bad_status', as a receiver that moved must be updated by its owner.
	 */
	post?: { body: string; headers: Record<string, string> }
}

export type SafeFetchFailure =
	| 'bad_url'
	| 'blocked_address'
	| 'timeout'
	| 'too_large'
	| 'bad_status'
	| 'too_many_redirects'
	| 'network'

export class SafeFetchError extends Error {
	readonly reason: SafeFetchFailure
	/** The HTTP status, for 'bad_status'. */
	readonly status: number | undefined

	constructor(reason: SafeFetchFailure, message: string, options?: { cause?: unknown; status?: number }) {
		super(message, options)
		this.name = 'SafeFetchError'
		this.reason = reason
		this.status = options?.status
	}
}

export type SafeFetchResult = { status: number; bytes: Uint8Array; contentType: string | null; finalUrl: string }

type ResolvedAddress = { address: string; family: number }

const redirectStatuses = new Set([301, 302, 303, 307, 308])

/**
 * ipaddr.js calls ::/96 (the deprecated IPv4-compatible form, e.g. ::7f00:1) 'unicast', but some
 * stacks still route it to the embedded IPv4 address, so it is refused as well.
 */
const ipv4CompatiblePrefix = ipaddr.IPv6.parseCIDR('::/96')

/**
 * True only for public unicast addresses. IPv4-mapped IPv6 (::ffff:127.0.0.1) is judged by the
 * IPv4 address inside it; NAT64, 6to4, Teredo and the other special ranges are not 'unicast' in
 * ipaddr.js, so they are refused too. Anything that does not parse is refused.
 */
export function isPublicAddress(address: string): boolean {
	if (!ipaddr.isValid(address)) {
		return false
	}
	const parsed = ipaddr.process(address)
	if (parsed.range() !== 'unicast') {
		return false
	}
	if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).match(ipv4CompatiblePrefix)) {
		return false
	}
	return true
}

/**
 * Fetches a user-given URL without letting it reach the server's own network: every hop's
 * address is vetted, and the connection goes to exactly the vetted address.
 */
export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
	const signal = AbortSignal.timeout(options.timeoutMs)
	const maxRedirects = options.post ? 0 : (options.maxRedirects ?? 3)
	const isAllowedAddress = options.isAllowedAddress ?? isPublicAddress
	const lookup = options.lookup ?? defaultLookup
	try {
		let current = parseTarget(url)
		for (let redirects = 0; ; redirects++) {
			const addresses = await withAbort(resolveTarget(current, lookup, isAllowedAddress), signal)
			const response = await sendRequest(current, addresses, signal, options)
			const status = response.statusCode ?? 0
			if (redirectStatuses.has(status) && options.post) {
				response.destroy()
				throw new SafeFetchError('bad_status', `status ${status} (redirects are not followed)`, { status })
			}
			if (redirectStatuses.has(status)) {
				response.destroy()
				if (redirects >= maxRedirects) {
					throw new SafeFetchError('too_many_redirects', `more than ${maxRedirects} redirects`)
				}
				const location = response.headers.location
				if (!location) {
					throw new SafeFetchError('bad_status', `redirect ${status} without a Location`)
				}
				current = parseTarget(location, current)
				continue
			}
			if (status < 200 || status > 299) {
				response.destroy()
				throw new SafeFetchError('bad_status', `status ${status}`, { status })
			}
			const bytes = await readBody(response, options.maxBytes)
			return { status, bytes, contentType: response.headers['content-type'] ?? null, finalUrl: current.href }
		}
	} catch (error) {
		// An abort surfaces as whatever the socket or stream was doing at the time; the signal knows why.
		if (signal.aborted) {
			throw new SafeFetchError('timeout', `no complete answer within ${options.timeoutMs} ms`, { cause: error })
		}
		if (error instanceof SafeFetchError) {
			throw error
		}
		throw new SafeFetchError('network', error instanceof Error ? error.message : 'network error', { cause: error })
	}
}

function parseTarget(input: string, base?: URL): URL {
	let parsed: URL
	try {
		parsed = new URL(input, base)
	} catch (error) {
		throw new SafeFetchError('bad_url', 'not a URL', { cause: error })
	}
	if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
		throw new SafeFetchError('bad_url', `scheme ${parsed.protocol} is not allowed`)
	}
	if (parsed.username || parsed.password) {
		throw new SafeFetchError('bad_url', 'credentials in the URL are not allowed')
	}
	return parsed
}

/** The URL's host without IPv6 brackets; WHATWG URL has already turned 2130706433 or 0177.1 into dotted form. */
function hostOf(url: URL): string {
	return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
}

async function resolveTarget(
	url: URL,
	lookup: NonNullable<SafeFetchOptions['lookup']>,
	isAllowedAddress: (address: string) => boolean,
): Promise<ResolvedAddress[]> {
	const host = hostOf(url)
	const literalFamily = isIP(host)
	const addresses = literalFamily ? [{ address: host, family: literalFamily }] : await lookup(host)
	if (addresses.length === 0) {
		throw new SafeFetchError('network', `${host} did not resolve`)
	}
	// One bad address is enough to refuse: the socket layer may pick any of them.
	for (const { address } of addresses) {
		if (!isAllowedAddress(address)) {
			throw new SafeFetchError('blocked_address', `${host} resolves to a refused address`)
		}
	}
	return addresses
}

async function defaultLookup(hostname: string): Promise<ResolvedAddress[]> {
	return dnsLookup(hostname, { all: true })
}

/**
 * A lookup for the socket that can only answer with the addresses already vetted, so a DNS answer
 * that changes between the check and the connect (rebinding) is never consulted. Node asks with
 * all: true when it races address families (autoSelectFamily), so both callback shapes are served.
 */
function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
	return (_hostname, lookupOptions, callback) => {
		const wanted = lookupOptions.family
		const usable = wanted === 4 || wanted === 6 ? addresses.filter((entry) => entry.family === wanted) : addresses
		const first = usable[0]
		if (!first) {
			callback(Object.assign(new Error('no vetted address of the requested family'), { code: 'ENOTFOUND' }), '', 0)
			return
		}
		if (lookupOptions.all) {
			callback(null, usable)
		} else {
			callback(null, first.address, first.family)
		}
	}
}

function sendRequest(
	url: URL,
	addresses: ResolvedAddress[],
	signal: AbortSignal,
	options: Pick<SafeFetchOptions, 'accept' | 'post'>,
): Promise<IncomingMessage> {
	const client = url.protocol === 'https:' ? https : http
	return new Promise((resolve, reject) => {
		const request = client.request(url, {
			method: options.post ? 'POST' : 'GET',
			// The hostname stays the URL's, so TLS checks the certificate (and sends SNI) for it.
			hostname: hostOf(url),
			lookup: pinnedLookup(addresses),
			// No pooled sockets: a kept-alive connection would skip the per-request address check.
			agent: false,
			signal,
			headers: {
				host: url.host,
				accept: options.accept ?? '*/*',
				// Decompressing would let a small body expand past maxBytes unseen.
				'accept-encoding': 'identity',
				'user-agent': 'blocksmith-fetch',
				...options.post?.headers,
				...(options.post ? { 'content-length': String(Buffer.byteLength(options.post.body)) } : {}),
			},
		})
		request.once('response', resolve)
		request.once('error', reject)
		request.end(options.post?.body)
	})
}

async function readBody(response: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
	const announced = Number(response.headers['content-length'])
	if (Number.isFinite(announced) && announced > maxBytes) {
		response.destroy()
		throw new SafeFetchError('too_large', `body of ${announced} bytes exceeds ${maxBytes}`)
	}
	const chunks: Buffer[] = []
	let total = 0
	for await (const chunk of response as AsyncIterable<Buffer>) {
		total += chunk.length
		if (total > maxBytes) {
			response.destroy()
			throw new SafeFetchError('too_large', `body exceeds ${maxBytes} bytes`)
		}
		chunks.push(chunk)
	}
	return new Uint8Array(Buffer.concat(chunks, total))
}

/** DNS lookups take no signal, so the deadline is raced against them. */
function withAbort<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
	if (signal.aborted) {
		return Promise.reject(signal.reason)
	}
	return new Promise((resolve, reject) => {
		const onAbort = () => reject(signal.reason)
		signal.addEventListener('abort', onAbort, { once: true })
		promise.then(
			(value) => {
				signal.removeEventListener('abort', onAbort)
				resolve(value)
			},
			(error: unknown) => {
				signal.removeEventListener('abort', onAbort)
				reject(error)
			},
		)
	})
}
