import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { isPublicAddress, type SafeFetchFailure, type SafeFetchOptions, safeFetch } from '#src/lib/safe-fetch.ts'

type TestServer = {
	server: Server
	port: number
	/** Requests received, by path. */
	requests: { path: string; host: string | undefined }[]
	connections: number
	sockets: Set<Socket>
}

async function startServer(handle: (req: IncomingMessage, res: ServerResponse, port: number) => void) {
	const state: TestServer = { server: createServer(), port: 0, requests: [], connections: 0, sockets: new Set() }
	state.server.on('connection', (socket) => {
		state.connections++
		state.sockets.add(socket)
		socket.on('close', () => state.sockets.delete(socket))
	})
	state.server.on('request', (req, res) => {
		state.requests.push({ path: req.url ?? '', host: req.headers.host })
		handle(req, res, state.port)
	})
	await new Promise<void>((resolve) => state.server.listen(0, '127.0.0.1', resolve))
	state.port = (state.server.address() as AddressInfo).port
	return state
}

async function stopServer(state: TestServer) {
	for (const socket of state.sockets) {
		socket.destroy()
	}
	await new Promise<void>((resolve) => state.server.close(() => resolve()))
}

async function failureOf(promise: Promise<unknown>): Promise<SafeFetchFailure | 'none'> {
	try {
		await promise
		return 'none'
	} catch (error) {
		return (error as { reason?: SafeFetchFailure }).reason ?? 'none'
	}
}

/** Lets the test reach its own server on 127.0.0.1 and nothing else. */
const onlyTestServer = (address: string) => address === '127.0.0.1'
const base: SafeFetchOptions = { timeoutMs: 3000, maxBytes: 1024 }
const reachable: SafeFetchOptions = { ...base, isAllowedAddress: onlyTestServer }

const svg = '<svg xmlns="http://www.w3.org/2000/svg"/>'

let target: TestServer

beforeAll(async () => {
	target = await startServer((req, res, port) => {
		const path = req.url ?? '/'
		if (path === '/icon.svg') {
			res.writeHead(200, { 'content-type': 'image/svg+xml' })
			res.end(svg)
		} else if (path === '/to-icon') {
			res.writeHead(303, { location: '/icon.svg' })
			res.end()
		} else if (path.startsWith('/redirect?')) {
			res.writeHead(302, {
				location: decodeURIComponent(path.slice('/redirect?'.length)).replace('PORT', String(port)),
			})
			res.end()
		} else if (path === '/loop') {
			res.writeHead(307, { location: '/loop' })
			res.end()
		} else if (path === '/big-announced') {
			res.writeHead(200, { 'content-length': '5000' })
			res.end('x'.repeat(5000))
		} else if (path === '/endless') {
			// Chunked and never finishing: only the byte cap can end this one.
			res.writeHead(200, { 'content-type': 'text/plain' })
			const timer = setInterval(() => res.write('y'.repeat(256)), 1)
			res.on('close', () => clearInterval(timer))
		} else if (path === '/silent') {
			// Accepts the request and never answers.
		} else {
			res.writeHead(404)
			res.end('not found')
		}
	})
})

afterAll(async () => {
	await stopServer(target)
})

beforeEach(() => {
	target.requests.length = 0
	target.connections = 0
})

describe('isPublicAddress', () => {
	test.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e'])(
		'accepts public %s',
		(address) => {
			expect(isPublicAddress(address)).toBe(true)
		},
	)

	test.each([
		['127.0.0.1', 'loopback'],
		['127.255.255.254', 'loopback'],
		['0.0.0.0', 'unspecified'],
		['10.0.0.1', 'private'],
		['172.16.0.1', 'private'],
		['172.31.255.255', 'private'],
		['192.168.1.1', 'private'],
		['100.64.0.1', 'carrier-grade NAT'],
		['169.254.169.254', 'link-local / cloud metadata'],
		['224.0.0.1', 'multicast'],
		['255.255.255.255', 'broadcast'],
		['192.0.2.1', 'documentation'],
		['240.0.0.1', 'reserved'],
		['::1', 'IPv6 loopback'],
		['::', 'IPv6 unspecified'],
		['::ffff:127.0.0.1', 'v4-mapped loopback'],
		['::ffff:7f00:1', 'v4-mapped loopback, hex'],
		['::ffff:10.0.0.1', 'v4-mapped private'],
		['::ffff:169.254.169.254', 'v4-mapped metadata'],
		['::7f00:1', 'v4-compatible loopback'],
		['64:ff9b::a00:1', 'NAT64 of 10.0.0.1'],
		['2002:7f00:1::', '6to4 of 127.0.0.1'],
		['fc00::1', 'unique local'],
		['fd12:3456::1', 'unique local'],
		['fe80::1', 'link-local'],
		['ff02::1', 'multicast'],
		['2001:db8::1', 'documentation'],
		['not-an-address', 'garbage'],
		['', 'empty'],
	])('refuses %s (%s)', (address) => {
		expect(isPublicAddress(address)).toBe(false)
	})
})

describe('safeFetch refuses before connecting', () => {
	test('loopback by IP, with the default policy', async () => {
		expect(await failureOf(safeFetch(`http://127.0.0.1:${target.port}/icon.svg`, base))).toBe('blocked_address')
		expect(target.connections).toBe(0)
		expect(target.requests).toHaveLength(0)
	})

	test('loopback by the name localhost, resolved with the real DNS lookup', async () => {
		expect(await failureOf(safeFetch(`http://localhost:${target.port}/icon.svg`, base))).toBe('blocked_address')
		expect(target.connections).toBe(0)
		expect(target.requests).toHaveLength(0)
	})

	// None of these has a server behind it; a connection attempt would end in 'timeout' or 'network', not 'blocked_address'.
	test.each([
		'http://10.0.0.1/',
		'http://172.16.0.1/',
		'http://172.31.1.1/',
		'http://192.168.0.1/',
		'http://100.64.0.1/',
		'http://169.254.169.254/latest/meta-data/',
		'http://0.0.0.0/',
		'http://0/',
		'http://2130706433/',
		'http://0177.0.0.1/',
		'http://0x7f.1/',
		'http://127.1/',
		'https://[::1]/',
		'http://[::]/',
		'http://[::ffff:127.0.0.1]/',
		'http://[::ffff:a9fe:a9fe]/',
		'http://[::7f00:1]/',
		'http://[64:ff9b::a00:1]/',
		'http://[fc00::1]/',
		'http://[fd00::1]/',
		'http://[fe80::1]/',
		'http://224.0.0.1/',
		'http://[ff02::1]/',
		'http://255.255.255.255/',
	])('literal address %s', async (url) => {
		const lookup = () => Promise.reject(new Error('a literal address must not be looked up'))
		expect(await failureOf(safeFetch(url, { ...base, timeoutMs: 2000, lookup }))).toBe('blocked_address')
	})

	test('a name that resolves to a private address', async () => {
		const lookup = async (hostname: string) => (hostname === 'evil.example' ? [{ address: '10.0.0.1', family: 4 }] : [])
		expect(await failureOf(safeFetch('https://evil.example/icon.svg', { ...base, lookup }))).toBe('blocked_address')
	})

	test('a name with one public and one private address', async () => {
		const lookup = async () => [
			{ address: '93.184.216.34', family: 4 },
			{ address: 'fd00::1', family: 6 },
		]
		expect(await failureOf(safeFetch('https://mixed.example/', { ...base, lookup }))).toBe('blocked_address')
	})

	test.each([
		'ftp://example.com/icon.svg',
		'file:///etc/passwd',
		'javascript:alert(1)',
		'data:image/svg+xml,<svg/>',
		'gopher://example.com/',
		'http://user:secret@example.com/',
		'http://user@example.com/',
		'not a url',
		'//example.com/',
	])('bad URL %s', async (url) => {
		expect(await failureOf(safeFetch(url, base))).toBe('bad_url')
	})
})

describe('safeFetch against an allowed server', () => {
	test('returns the body, the content type and the final URL', async () => {
		const result = await safeFetch(`http://127.0.0.1:${target.port}/icon.svg`, reachable)
		expect(new TextDecoder().decode(result.bytes)).toBe(svg)
		expect(result.contentType).toBe('image/svg+xml')
		expect(result.finalUrl).toBe(`http://127.0.0.1:${target.port}/icon.svg`)
	})

	test('follows a relative redirect and reports where it ended', async () => {
		const result = await safeFetch(`http://127.0.0.1:${target.port}/to-icon`, reachable)
		expect(new TextDecoder().decode(result.bytes)).toBe(svg)
		expect(result.finalUrl).toBe(`http://127.0.0.1:${target.port}/icon.svg`)
	})

	test('connects to the vetted address, not to a second DNS answer, and keeps the name in Host', async () => {
		let calls = 0
		// Rebinding: the first answer passes the check, any later one would point elsewhere.
		const lookup = async () => {
			calls++
			return calls === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '10.0.0.1', family: 4 }]
		}
		const result = await safeFetch(`http://icons.example:${target.port}/icon.svg`, { ...reachable, lookup })
		expect(new TextDecoder().decode(result.bytes)).toBe(svg)
		expect(calls).toBe(1)
		expect(target.requests).toEqual([{ path: '/icon.svg', host: `icons.example:${target.port}` }])
	})

	test.each([
		'http://127.0.0.2:PORT/icon.svg',
		'http://[::1]:PORT/icon.svg',
		'http://169.254.169.254/latest/meta-data/',
		'http://[::ffff:10.0.0.1]/',
	])('refuses a redirect to %s', async (location) => {
		const url = `http://127.0.0.1:${target.port}/redirect?${encodeURIComponent(location)}`
		expect(await failureOf(safeFetch(url, { ...reachable, timeoutMs: 2000 }))).toBe('blocked_address')
		expect(target.requests.map((request) => request.path)).toEqual([expect.stringMatching(/^\/redirect/)])
	})

	test.each(['file:///etc/passwd', 'ftp://127.0.0.1/icon.svg', 'http://user:pw@127.0.0.1:PORT/icon.svg'])(
		'refuses a redirect to %s',
		async (location) => {
			const url = `http://127.0.0.1:${target.port}/redirect?${encodeURIComponent(location)}`
			expect(await failureOf(safeFetch(url, reachable))).toBe('bad_url')
			expect(target.requests).toHaveLength(1)
		},
	)

	test('stops after maxRedirects', async () => {
		const url = `http://127.0.0.1:${target.port}/loop`
		expect(await failureOf(safeFetch(url, { ...reachable, maxRedirects: 2 }))).toBe('too_many_redirects')
		expect(target.requests).toHaveLength(3)
	})

	test('defaults to three redirects', async () => {
		expect(await failureOf(safeFetch(`http://127.0.0.1:${target.port}/loop`, reachable))).toBe('too_many_redirects')
		expect(target.requests).toHaveLength(4)
	})

	test('refuses a body announced larger than maxBytes', async () => {
		expect(await failureOf(safeFetch(`http://127.0.0.1:${target.port}/big-announced`, reachable))).toBe('too_large')
	})

	test('stops reading an unannounced body at maxBytes', async () => {
		const started = Date.now()
		const options = { ...reachable, maxBytes: 4096, timeoutMs: 5000 }
		expect(await failureOf(safeFetch(`http://127.0.0.1:${target.port}/endless`, options))).toBe('too_large')
		expect(Date.now() - started).toBeLessThan(4000)
	})

	test('gives up on a server that never answers', async () => {
		const started = Date.now()
		const options = { ...reachable, timeoutMs: 300 }
		expect(await failureOf(safeFetch(`http://127.0.0.1:${target.port}/silent`, options))).toBe('timeout')
		expect(Date.now() - started).toBeLessThan(1500)
	})

	test('refuses a non-2xx answer', async () => {
		expect(await failureOf(safeFetch(`http://127.0.0.1:${target.port}/missing`, reachable))).toBe('bad_status')
	})

	test('reports a refused connection as a network failure', async () => {
		const closed = await startServer(() => {})
		const port = closed.port
		await stopServer(closed)
		expect(await failureOf(safeFetch(`http://127.0.0.1:${port}/`, reachable))).toBe('network')
	})
})
