// The parts of @20minutes/s3rver (a fake S3 server, untyped) that the tests use.
declare module '@20minutes/s3rver' {
	import type { AddressInfo } from 'node:net'

	type Context = { method: string; path: string; headers: Record<string, string | string[] | undefined> }

	export default class S3rver {
		constructor(options: {
			address?: string
			port?: number
			silent?: boolean
			directory: string
			configureBuckets?: Array<{ name: string; configs?: string[] }>
		})
		middleware: Array<(ctx: Context, next: () => Promise<void>) => Promise<void>>
		store: {
			putContent: (objectPath: string, content: NodeJS.ReadableStream) => Promise<[size: number, md5Hex: string]>
		}
		run(): Promise<AddressInfo>
		close(): Promise<void>
	}
}

declare module '@20minutes/s3rver/lib/models/error.js' {
	export default class S3Error extends Error {
		constructor(code: string, message: string)
	}
}
