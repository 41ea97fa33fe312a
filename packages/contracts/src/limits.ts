import { z } from 'zod'

// The plan ids and limit keys, and the `limit` member of a PLAN_LIMIT_REACHED problem: kept
// apart from the rest of the billing contracts because every page's error handling reads the
// problem schema, the sign-in page too, and that page's bundle has a budget.

export const planIdSchema = z.enum(['starter', 'pro', 'business'])
export type PlanId = z.infer<typeof planIdSchema>

/** What a plan counts. `null` as a plan's limit means no limit. */
export const limitKeySchema = z.enum([
	'members',
	'workspaces',
	'forms',
	'submissionsPerMonth',
	'fileStorageBytes',
	'charts',
	'dashboards',
	'portals',
	'portalMembers',
	'invoicesPerMonth',
	'timeTrackingUsers',
])
export type LimitKey = z.infer<typeof limitKeySchema>

/** The `limit` member of a PLAN_LIMIT_REACHED problem: which limit, how much is used, the plan. */
export const limitReachedSchema = z.object({
	key: limitKeySchema,
	used: z.number().int().nonnegative(),
	allowed: z.number().int().nonnegative(),
	planId: planIdSchema,
	planName: z.string(),
})
export type LimitReached = z.infer<typeof limitReachedSchema>
