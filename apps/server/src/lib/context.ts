import { randomUUID } from 'node:crypto'
import type { Logger } from './logger.ts'

/** Variables every request carries, set by the first middlewares in app.ts. */
export type AppEnv = {
	Variables: {
		requestId: string
		log: Logger
		/** The caller's address: the socket's, or X-Forwarded-For's first hop when TRUST_PROXY is set. */
		clientIp: string
	}
}

/** The request's id: a proxy's `X-Request-Id` when it sent a sane one, else a new one. */
export function requestIdFrom(given: string | string[] | undefined): string {
	return typeof given === 'string' && given.length > 0 && given.length <= 255 && !/[^\w\-=]/.test(given)
		? given
		: randomUUID()
}
