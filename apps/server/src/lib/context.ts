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
