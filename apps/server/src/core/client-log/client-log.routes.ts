// POST /api/log: the browser's error beacon. Public; small bodies; limited per address.

import { clientLogSchema } from '@blocksmith/contracts/client-log.ts'
import { createRoute } from '@hono/zod-openapi'
import type { Db } from '#src/db/client.ts'
import type { AppEnv } from '#src/lib/context.ts'
import { commonProblems, createRouter, jsonBody, problemResponse } from '#src/lib/openapi.ts'
import { enforceRateLimit } from '#src/lib/rate-limit.ts'

/** A front-end error report is small; anything larger is not a report. */
export const clientLogMaxBytes = 16 * 1024
const perIp = { limit: 30, windowSeconds: 60 }

const logRoute = createRoute({
	method: 'post',
	path: '/api/log',
	tags: ['Telemetry'],
	summary: 'Report a front-end error',
	request: { body: jsonBody(clientLogSchema) },
	responses: {
		204: { description: 'Logged' },
		400: commonProblems[400],
		413: problemResponse(`Larger than ${clientLogMaxBytes} bytes`),
		429: commonProblems[429],
	},
})

export function createClientLogRoutes(deps: { db: Db }) {
	const router = createRouter<AppEnv>()
	router.openapi(logRoute, async (c) => {
		await enforceRateLimit(deps.db, `client-log:ip:${c.var.clientIp}`, perIp)
		const report = c.req.valid('json')
		c.var.log[report.level === 'info' ? 'info' : report.level](
			{ source: 'client', clientIp: c.var.clientIp, report },
			'client error',
		)
		return c.body(null, 204)
	})
	return router
}
