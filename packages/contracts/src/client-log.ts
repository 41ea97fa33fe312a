import { z } from 'zod'

/** A front-end error, as the browser's beacon sends it. */
export const clientLogSchema = z.object({
	level: z.enum(['error', 'warn', 'info']).default('error'),
	message: z.string().max(2000),
	stack: z.string().max(8000).optional(),
	url: z.string().max(2000).optional(),
	userAgent: z.string().max(500).optional(),
	context: z.record(z.string(), z.union([z.string().max(500), z.number(), z.boolean(), z.null()])).optional(),
})
export type ClientLog = z.infer<typeof clientLogSchema>
